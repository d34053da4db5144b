package strategy

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

func obj(apiVersion, kind string, fields map[string]any) map[string]any {
	o := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": "x", "namespace": "ns"}}
	for k, v := range fields {
		o[k] = v
	}
	return o
}

// What the create strategies of kube-apiserver 1.37.2 add, clear or drop beyond generation
// and status (pkg/registry/**/strategy.go PrepareForCreate); conformance/defaulting
// compares every kind with the server's own strategies on random objects.
func TestCreateRules(t *testing.T) {
	podSpec := func() map[string]any {
		return map[string]any{
			"schedulingGroup":    map[string]any{"podGroupName": "g"},
			"evictionResponders": []any{map[string]any{"name": "r", "priority": int64(1)}},
			"containers": []any{map[string]any{"name": "c", "image": "i",
				"lifecycle":    map[string]any{"stopSignal": "SIGTERM"},
				"volumeMounts": []any{map[string]any{"name": "v", "mountPath": "/v", "bindMountOptions": []any{"ro"}}}}},
			"volumes": []any{map[string]any{"name": "v", "emptyDir": map[string]any{"mode": int64(0o700)}},
				map[string]any{"name": "s", "secret": map[string]any{"secretName": "s", "defaultUser": int64(1000)}}},
		}
	}
	tests := []struct {
		name string
		in   map[string]any
		at   []string
		want any
	}{
		{"Deployment: fields of features off in 1.37 are dropped from the pod template", obj("apps/v1", "Deployment", map[string]any{
			"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"a": "b"}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "b"}}, "spec": podSpec()}}}),
			nil, nil},
		{"Job: spec.scheduling (WorkloadWithJob is off)", obj("batch/v1", "Job", map[string]any{"spec": map[string]any{"manualSelector": true,
			"selector": map[string]any{"matchLabels": map[string]any{"a": "b"}}, "scheduling": map[string]any{},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "b"}},
				"spec": map[string]any{"restartPolicy": "Never", "containers": []any{map[string]any{"name": "c", "image": "i"}}}}}}),
			[]string{"spec", "scheduling"}, nil},
		{"Pod: a gated pod is not scheduled, matchLabelKeys become requirements", obj("v1", "Pod", map[string]any{
			"metadata": map[string]any{"name": "p", "namespace": "ns", "labels": map[string]any{"app": "web", "rev": "7"}},
			"spec": map[string]any{"schedulingGates": []any{map[string]any{"name": "quota"}},
				"containers": []any{map[string]any{"name": "c", "image": "i"}},
				"topologySpreadConstraints": []any{map[string]any{"maxSkew": int64(1), "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
					"labelSelector": map[string]any{"matchLabels": map[string]any{"app": "web"}}, "matchLabelKeys": []any{"rev"}}}}}),
			nil, nil},
		{"PersistentVolumeClaim: a dataSource of another kind is dropped", obj("v1", "PersistentVolumeClaim", map[string]any{
			"spec": map[string]any{"dataSource": map[string]any{"kind": "Widget", "name": "w", "apiGroup": "example.com"}}}),
			[]string{"spec", "dataSource"}, nil},
		{"PersistentVolumeClaim: dataSourceRef follows dataSource", obj("v1", "PersistentVolumeClaim", map[string]any{
			"spec": map[string]any{"dataSource": map[string]any{"kind": "VolumeSnapshot", "name": "snap", "apiGroup": "snapshot.storage.k8s.io"}}}),
			[]string{"spec", "dataSourceRef"}, map[string]any{"kind": "VolumeSnapshot", "name": "snap", "apiGroup": "snapshot.storage.k8s.io"}},
		{"ServiceAccount: secret references keep their name only", obj("v1", "ServiceAccount", map[string]any{
			"secrets": []any{map[string]any{"name": "tok", "namespace": "ns", "kind": "Secret"}}}),
			[]string{"secrets"}, []any{map[string]any{"name": "tok"}}},
		{"CertificateSigningRequest: the requester's identity is the server's", obj("certificates.k8s.io/v1", "CertificateSigningRequest", map[string]any{
			"spec": map[string]any{"request": "AA==", "signerName": "example.com/s", "username": "mallory", "groups": []any{"system:masters"}}}),
			[]string{"spec", "username"}, nil},
		{"APIService: a local one is available", obj("apiregistration.k8s.io/v1", "APIService", map[string]any{
			"spec": map[string]any{"group": "example.com", "version": "v1", "groupPriorityMinimum": int64(100), "versionPriority": int64(10)}}),
			[]string{"status", "conditions"}, []any{map[string]any{"type": "Available", "status": "True", "reason": "Local",
				"message": "Local APIServices are always available", "lastTransitionTime": nil}}},
		{"EndpointSlice: deprecatedTopology is dropped through v1", obj("discovery.k8s.io/v1", "EndpointSlice", map[string]any{
			"addressType": "IPv4", "endpoints": []any{map[string]any{"addresses": []any{"10.0.0.1"}, "deprecatedTopology": map[string]any{"kubernetes.io/hostname": "n1"}}}}),
			[]string{"endpoints"}, []any{map[string]any{"addresses": []any{"10.0.0.1"}, "conditions": map[string]any{}}}},
		{"Node: the status of a create is kept", obj("v1", "Node", map[string]any{"status": map[string]any{"phase": "Running"}}),
			[]string{"status", "phase"}, "Running"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := unstructured.DeepCopy(tc.in).(map[string]any)
			av, kind := o["apiVersion"].(string), o["kind"].(string)
			if err := Create(serverconfig.MustFor(kube.Default()), av, kind, o); err != nil {
				t.Fatal(err)
			}
			if tc.at == nil {
				return
			}
			if got := unstructured.Nested(o, tc.at...); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%v:\n%s", tc.at, testkit.Diff(tc.want, got))
			}
		})
	}
	t.Run("Deployment details", func(t *testing.T) {
		o := unstructured.DeepCopy(tests[0].in).(map[string]any)
		if err := Create(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", o); err != nil {
			t.Fatal(err)
		}
		spec := unstructured.Nested(o, "spec", "template", "spec").(map[string]any)
		ctr := unstructured.Objects(spec, "containers")[0]
		vols := unstructured.Objects(spec, "volumes")
		for name, v := range map[string]any{"schedulingGroup": spec["schedulingGroup"], "evictionResponders": spec["evictionResponders"],
			"lifecycle": ctr["lifecycle"], "bindMountOptions": unstructured.Objects(ctr, "volumeMounts")[0]["bindMountOptions"],
			"emptyDir.mode": unstructured.Object(vols[0], "emptyDir")["mode"], "secret.defaultUser": unstructured.Object(vols[1], "secret")["defaultUser"]} {
			if v != nil {
				t.Errorf("%s kept: %v", name, v)
			}
		}
	})
	t.Run("Pod details", func(t *testing.T) {
		o := unstructured.DeepCopy(tests[2].in).(map[string]any)
		if err := Create(serverconfig.MustFor(kube.Default()), "v1", "Pod", o); err != nil {
			t.Fatal(err)
		}
		cond := unstructured.Objects(unstructured.Object(o, "status"), "conditions")
		if len(cond) != 1 || cond[0]["reason"] != "SchedulingGated" || cond[0]["status"] != "False" {
			t.Errorf("conditions %v", cond)
		}
		want := []any{map[string]any{"key": "rev", "operator": "In", "values": []any{"7"}}}
		if got := unstructured.Nested(unstructured.Objects(unstructured.Object(o, "spec"), "topologySpreadConstraints")[0], "labelSelector", "matchExpressions"); !reflect.DeepEqual(got, want) {
			t.Errorf("matchExpressions %v, want %v", got, want)
		}
		if got := assignedPaths("v1", "Pod", o, true); got[len(got)-1] != ".status.conditions[0].lastTransitionTime" {
			t.Errorf("Assigned = %v", got)
		}
	})
}

// On update, a field of a feature that is off stays when the stored object already uses
// the feature, and is dropped otherwise.
func TestUpdateKeepsFeaturesInUse(t *testing.T) {
	deploy := func(group bool) map[string]any {
		spec := map[string]any{"containers": []any{map[string]any{"name": "c", "image": "i"}}}
		if group {
			spec["schedulingGroup"] = map[string]any{"podGroupName": "g"}
		}
		return obj("apps/v1", "Deployment", map[string]any{"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"a": "b"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "b"}}, "spec": spec}}})
	}
	for _, tc := range []struct {
		name      string
		storedHas bool
	}{{"stored without it", false}, {"stored with it", true}} {
		t.Run(tc.name, func(t *testing.T) {
			old := deploy(tc.storedHas)
			if tc.storedHas {
				// As stored before the feature went off: no drop on create to model.
				if err := Update(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", old, deploy(true)); err != nil {
					t.Fatal(err)
				}
			} else if err := Create(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", old); err != nil {
				t.Fatal(err)
			}
			o := deploy(true)
			if err := Update(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", o, old); err != nil {
				t.Fatal(err)
			}
			if got := unstructured.Nested(o, "spec", "template", "spec", "schedulingGroup") != nil; got != tc.storedHas {
				t.Errorf("schedulingGroup kept: %v, want %v", got, tc.storedHas)
			}
		})
	}
	t.Run("CRD: the storage version is recorded", func(t *testing.T) {
		crd := testkit.ReadObject(t, "testdata/httproutes-crd.live.json")
		o := unstructured.DeepCopy(crd).(map[string]any)
		v := unstructured.List(unstructured.Object(o, "spec"), "versions")[0].(map[string]any)
		v2 := unstructured.DeepCopy(v).(map[string]any)
		v["storage"], v2["name"] = false, "v2"
		unstructured.Object(o, "spec")["versions"] = append(unstructured.List(unstructured.Object(o, "spec"), "versions"), v2)
		if err := Update(serverconfig.MustFor(kube.Default()), "apiextensions.k8s.io/v1", "CustomResourceDefinition", o, crd); err != nil {
			t.Fatal(err)
		}
		if got := unstructured.Nested(o, "status", "storedVersions"); !reflect.DeepEqual(got, []any{"v1", "v2"}) {
			t.Errorf("storedVersions %v, want [v1 v2]", got)
		}
	})
}
