package strategy

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

// since is an answer that changes with the minor: the value at a minor is the one of the
// greatest key not above it (every table starts at 32, the oldest supported minor; each
// rule checked against 1.32.13's and 1.33.13's source: their feature gates and registry
// strategies).
type since map[int]any

func (s since) at(minor int) any {
	best := -1
	for m := range s {
		if m <= minor && m > best {
			best = m
		}
	}
	if best < 0 {
		panic(fmt.Sprintf("no answer for 1.%d", minor))
	}
	return s[best]
}

// absent: the field is not in the object.
type absentValue struct{}

var absent any = absentValue{}

// minorRuleCase is a registry rule that differs between the supported minors: the write
// (op "create", "update" through the main resource, or "status"), and the value left at
// path by each minor's strategy.
type minorRuleCase struct {
	name     string
	op       string
	old, new string
	path     []string
	want     since
}

func (c minorRuleCase) run(t *testing.T, cfg *serverconfig.Config) any {
	t.Helper()
	obj := yamlObject(t, c.new)
	av, kind := unstructured.Str(obj, "apiVersion"), unstructured.Str(obj, "kind")
	var old map[string]any
	if c.old != "" {
		old = yamlObject(t, c.old)
	}
	switch c.op {
	case "create":
		PrepareForCreate(cfg, av, kind, nil, obj)
	case "update":
		PrepareForUpdate(cfg, av, kind, nil, obj, old)
	case "status":
		PrepareForStatusUpdate(cfg, av, kind, obj, old)
	default:
		t.Fatalf("op %q", c.op)
	}
	var at any = obj
	for _, k := range c.path {
		switch x := at.(type) {
		case map[string]any:
			v, ok := x[k]
			if !ok {
				return absent
			}
			at = v
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(x) {
				return absent
			}
			at = x[i]
		default:
			return absent
		}
	}
	return at
}

func runMinorRuleCases(t *testing.T, cases []minorRuleCase) {
	t.Helper()
	for _, c := range cases {
		for _, v := range kube.Minors() {
			t.Run(c.name+"/"+v.String(), func(t *testing.T) {
				got, want := c.run(t, serverconfig.MustFor(v)), c.want.at(int(v))
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%v = %#v, want %#v", c.path, got, want)
				}
			})
		}
	}
}

// Only DynamicKubeletConfig, removed long before 1.34, is a dropped feature without a gate
// in the supported releases; every other name is a gate of the table.
func TestOffFeatureGatesKnown(t *testing.T) {
	for _, l := range [][]offFeature{podSpecOff(), podStatusOff(), nodeStatusOff(), pvcStatusOff(), csiNodeStatusOff(), sliceOff(),
		claimSpecOff(), claimStatusOff(), jobSpecOff(), leaseOff(), nodeOff(), statefulSetOff(), replicasStatusOff(), hpaOff(), csiDriverOff(),
		volumeAttachmentStatusOff(), deviceClassOff()} {
		for _, f := range l {
			if !f.known && f.name != "DynamicKubeletConfig" {
				t.Errorf("%s: no such feature gate", f.name)
			}
		}
	}
}

const statefulSetKafka = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka, namespace: ns, generation: 1}
spec:
  serviceName: kafka
  selector: {matchLabels: {app: kafka}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 0, maxUnavailable: 2}}
  template:
    metadata: {labels: {app: kafka}}
    spec: {containers: [{name: kafka, image: kafka:3}]}
`

func TestAppsRulesPerMinor(t *testing.T) {
	deploymentStatus := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ns}\nstatus: {replicas: 2, terminatingReplicas: 1}\n"
	replicaSetStatus := "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web, namespace: ns}\nstatus: {replicas: 2, terminatingReplicas: 1}\n"
	noMaxUnavailable := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: kafka, namespace: ns, generation: 1}\nspec:\n  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 0}}\n"
	runMinorRuleCases(t, []minorRuleCase{
		// MaxUnavailableStatefulSet is off before 1.37: the strategy drops the field unless
		// the stored StatefulSet has it.
		{name: "StatefulSet maxUnavailable on create", op: "create", new: statefulSetKafka,
			path: []string{"spec", "updateStrategy", "rollingUpdate", "maxUnavailable"}, want: since{32: absent, 37: int64(2)}},
		{name: "StatefulSet maxUnavailable on update", op: "update", old: noMaxUnavailable, new: statefulSetKafka,
			path: []string{"spec", "updateStrategy", "rollingUpdate", "maxUnavailable"}, want: since{32: absent, 37: int64(2)}},
		{name: "StatefulSet maxUnavailable kept when stored", op: "update", old: statefulSetKafka, new: statefulSetKafka,
			path: []string{"spec", "updateStrategy", "rollingUpdate", "maxUnavailable"}, want: since{32: int64(2)}},
		// DeploymentReplicaSetTerminatingReplicas is off in 1.34: a status write drops the
		// field unless the stored status has it.
		{name: "Deployment terminatingReplicas", op: "status", old: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ns}\n",
			new: deploymentStatus, path: []string{"status", "terminatingReplicas"}, want: since{32: absent, 35: int64(1)}},
		{name: "Deployment terminatingReplicas kept when stored", op: "status", old: deploymentStatus,
			new: deploymentStatus, path: []string{"status", "terminatingReplicas"}, want: since{32: int64(1)}},
		{name: "ReplicaSet terminatingReplicas", op: "status", old: "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web, namespace: ns}\n",
			new: replicaSetStatus, path: []string{"status", "terminatingReplicas"}, want: since{32: absent, 35: int64(1)}},
	})
}

func TestAutoscalingAndNetworkingRulesPerMinor(t *testing.T) {
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, namespace: ns}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n  behavior: {scaleUp: {tolerance: 0.05}}\n"
	hpaStored := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, namespace: ns, generation: 4}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 2\n"
	cidr := "apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata: {name: extra}\nspec: {cidrs: [10.96.0.0/16]}\nstatus: {conditions: [{type: Ready, status: 'True', reason: Test, message: m, lastTransitionTime: '2026-01-01T00:00:00Z'}]}\n"
	cidrStored := "apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata: {name: extra}\nspec: {cidrs: [10.96.0.0/16]}\n"
	runMinorRuleCases(t, []minorRuleCase{
		// HPAConfigurableTolerance is off in 1.34.
		{name: "HPA tolerance on create", op: "create", new: hpa,
			path: []string{"spec", "behavior", "scaleUp", "tolerance"}, want: since{32: absent, 35: 0.05}},
		{name: "HPA tolerance kept when stored", op: "update", old: hpa, new: hpa,
			path: []string{"spec", "behavior", "scaleUp", "tolerance"}, want: since{32: 0.05}},
		// Kubernetes 1.33 gave pods a generation; 1.32's pod strategy does not set it.
		{name: "Pod generation on create", op: "create", new: "apiVersion: v1\nkind: Pod\nmetadata: {name: app, namespace: ns}\nspec: {containers: [{name: app, image: nginx}]}\n",
			path: []string{"metadata", "generation"}, want: since{32: absent, 33: int64(1)}},
		// HPAGeneration is new and on in 1.37.
		{name: "HPA generation on create", op: "create", new: hpa, path: []string{"metadata", "generation"}, want: since{32: absent, 37: int64(1)}},
		{name: "HPA generation on a spec change", op: "update", old: hpaStored, new: hpa, path: []string{"metadata", "generation"}, want: since{32: int64(4), 37: int64(5)}},
		// ServiceCIDRStatusFieldWiping is new and on in 1.36: before, the main resource
		// stores the request's status.
		{name: "ServiceCIDR status on create", op: "create", new: cidr, path: []string{"status", "conditions"}, want: since{32: yamlObject(t, cidr)["status"].(map[string]any)["conditions"], 36: absent}},
		{name: "ServiceCIDR status on update", op: "update", old: cidrStored, new: cidr, path: []string{"status"}, want: since{32: yamlObject(t, cidr)["status"], 36: absent}},
	})
}

func TestStorageRulesPerMinor(t *testing.T) {
	drv := "apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: d.example.com}\nspec: {attachRequired: true, nodeAllocatableUpdatePeriodSeconds: 60, serviceAccountTokenInSecrets: true, tokenRequests: [{audience: a}], preventPodSchedulingIfMissing: true, seLinuxMount: true}\n"
	drvStored := "apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: d.example.com}\nspec: {attachRequired: true}\n"
	va := "apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: va}\nspec: {attacher: d.example.com, nodeName: n, source: {persistentVolumeName: pv}}\n"
	vaStatus := va + "status: {attached: false, attachError: {message: m, errorCode: 3}, detachError: {message: m, errorCode: 4}}\n"
	vaStoredAttach := va + "status: {attached: false, attachError: {message: m, errorCode: 1}}\n"
	node := "apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n}\nspec: {drivers: []}\nstatus: {storageHealth: []}\n"
	runMinorRuleCases(t, []minorRuleCase{
		// MutableCSINodeAllocatableCount and CSIServiceAccountTokenSecrets are on from 1.35,
		// VolumeLimitScaling from 1.37, SELinuxMountReadWriteOncePod in every minor.
		{name: "CSIDriver allocatable update period", op: "create", new: drv, path: []string{"spec", "nodeAllocatableUpdatePeriodSeconds"}, want: since{32: absent, 35: int64(60)}},
		{name: "CSIDriver token secrets", op: "update", old: drvStored, new: drv, path: []string{"spec", "serviceAccountTokenInSecrets"}, want: since{32: absent, 35: true}},
		{name: "CSIDriver preventPodSchedulingIfMissing", op: "create", new: drv, path: []string{"spec", "preventPodSchedulingIfMissing"}, want: since{32: absent, 37: true}},
		{name: "CSIDriver preventPodSchedulingIfMissing kept when stored", op: "update", old: drv, new: drv, path: []string{"spec", "preventPodSchedulingIfMissing"}, want: since{32: true}},
		{name: "CSIDriver seLinuxMount", op: "create", new: drv, path: []string{"spec", "seLinuxMount"}, want: since{32: true}},
		{name: "VolumeAttachment attach error code", op: "status", old: va, new: vaStatus, path: []string{"status", "attachError", "errorCode"}, want: since{32: absent, 35: int64(3)}},
		{name: "VolumeAttachment attach error code kept when stored", op: "status", old: vaStoredAttach, new: vaStatus, path: []string{"status", "attachError", "errorCode"}, want: since{32: int64(3)}},
		{name: "VolumeAttachment detach error code not kept by the attach one", op: "status", old: vaStoredAttach, new: vaStatus, path: []string{"status", "detachError", "errorCode"}, want: since{32: absent, 35: int64(4)}},
		// Kubernetes 1.37 gave CSINode a status the main resource resets.
		{name: "CSINode status on create", op: "create", new: node, path: []string{"status"}, want: since{32: yamlObject(t, node)["status"], 37: map[string]any{}}},
	})
}

// Kubernetes 1.32 has these pod features off (on from 1.33): its strategy drops their
// fields unless the stored spec uses them (pkg/api/pod/util.go v1.32.13 dropDisabledFields);
// its /status write drops none. Recorded from a 1.32.13 server (docs/minors.md).
func TestPodRulesAt132(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: app, namespace: ns}\nspec:\n" +
		"  securityContext: {seLinuxChangePolicy: MountOption, supplementalGroupsPolicy: Strict}\n" +
		"  hostUsers: false\n" +
		"  containers: [{name: app, image: nginx, resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}], securityContext: {procMount: Unmasked}}]\n"
	plain := "apiVersion: v1\nkind: Pod\nmetadata: {name: app, namespace: ns}\nspec:\n  containers: [{name: app, image: nginx}]\n"
	running := plain + "status: {resize: InProgress, containerStatuses: [{name: app, ready: true, restartCount: 0, image: nginx, imageID: '', " +
		"user: {linux: {uid: 1, gid: 1}}, resources: {requests: {cpu: 100m}}}]}\n"
	health := plain + "status: {containerStatuses: [{name: app, ready: true, restartCount: 0, image: nginx, imageID: '', allocatedResourcesStatus: [{name: 'claim:c', resources: [{resourceID: r, health: Healthy}]}]}]}\n"
	healthStatus := []any{map[string]any{"name": "claim:c", "resources": []any{map[string]any{"resourceID": "r", "health": "Healthy"}}}}
	resizePolicy := []any{map[string]any{"resourceName": "cpu", "restartPolicy": "NotRequired"}}
	runMinorRuleCases(t, []minorRuleCase{
		{name: "Pod seLinuxChangePolicy", op: "create", new: pod, path: []string{"spec", "securityContext", "seLinuxChangePolicy"}, want: since{32: absent, 33: "MountOption"}},
		{name: "Pod seLinuxChangePolicy kept when stored", op: "update", old: pod, new: pod, path: []string{"spec", "securityContext", "seLinuxChangePolicy"}, want: since{32: "MountOption"}},
		{name: "Pod supplementalGroupsPolicy", op: "create", new: pod, path: []string{"spec", "securityContext", "supplementalGroupsPolicy"}, want: since{32: absent, 33: "Strict"}},
		{name: "Pod resizePolicy", op: "create", new: pod, path: []string{"spec", "containers", "0", "resizePolicy"}, want: since{32: absent, 33: resizePolicy}},
		{name: "Pod resizePolicy kept when stored", op: "update", old: pod, new: pod, path: []string{"spec", "containers", "0", "resizePolicy"}, want: since{32: resizePolicy}},
		{name: "Pod procMount set back to Default", op: "create", new: pod, path: []string{"spec", "containers", "0", "securityContext", "procMount"}, want: since{32: "Default", 33: "Unmasked"}},
		{name: "Pod procMount kept when stored", op: "update", old: pod, new: pod, path: []string{"spec", "containers", "0", "securityContext", "procMount"}, want: since{32: "Unmasked"}},
		// 1.32's pod /status write drops no field of an off feature (recorded from 1.32.13).
		{name: "Pod status resize", op: "status", old: plain, new: running, path: []string{"status", "resize"}, want: since{32: "InProgress"}},
		{name: "Pod status container user", op: "status", old: plain, new: running, path: []string{"status", "containerStatuses", "0", "user"}, want: since{32: map[string]any{"linux": map[string]any{"uid": int64(1), "gid": int64(1)}}}},
		{name: "Pod status health", op: "status", old: plain, new: health, path: []string{"status", "containerStatuses", "0", "allocatedResourcesStatus"}, want: since{32: healthStatus, 33: absent, 36: healthStatus}},
	})
}
