package strategy

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Fields of features behind a feature gate: while the server has the gate off, the
// strategies drop them from a request (the dropDisabled… functions their PrepareForCreate
// and PrepareForUpdate call), on create always, on update unless the stored object already
// uses the feature. Field management has run by then: the applier still owns what was
// dropped. The tables list every such feature of a supported minor whose gate is off by
// default in one of them; a minor whose server lacks the gate (it came later) drops the
// field too, which that minor's schema does not have anyway.

// offFeature is one such feature: its gate, and the fields it adds, as paths from the root
// the strategy hands it (a pod spec, a job spec, the object) where "*" stands for every
// item of a list. The feature is in use when any of them holds a value.
type offFeature struct {
	name string
	gate features.Gate
	// removed: no supported release has the gate (DynamicKubeletConfig, removed long
	// before 1.34, whose fields the strategies still drop): the feature is always off.
	removed bool
	paths   [][]string
	// used are the fields whose stored values keep the feature in use, when not paths.
	used [][]string
	// from and until bound the minors whose strategies drop the fields (0: unbounded).
	from, until int
}

func newOffFeature(gate string, paths ...string) offFeature {
	g, ok := features.Lookup(gate)
	f := offFeature{name: gate, gate: g, removed: !ok}
	for _, p := range paths {
		f.paths = append(f.paths, strings.Split(p, "."))
	}
	return f
}

// in is f dropped only by the strategies of minors from to until (0: unbounded), where
// the releases' drop code differs for the same gate.
func (f offFeature) in(from, until int) offFeature {
	f.from, f.until = from, until
	return f
}

// usedBy is f with other fields also keeping it in use (the stored object has them).
func (f offFeature) usedBy(paths ...string) offFeature {
	f.used = append([][]string(nil), f.paths...)
	for _, p := range paths {
		f.used = append(f.used, strings.Split(p, "."))
	}
	return f
}

// containerFields are paths under every kind of container of a pod spec.
func containerFields(paths ...string) []string {
	var out []string
	for _, c := range []string{"containers", "initContainers", "ephemeralContainers"} {
		for _, p := range paths {
			out = append(out, c+".*."+p)
		}
	}
	return out
}

// podSpecOff are the pod spec's features off in 1.37 (pkg/api/pod dropDisabledFields).
var podSpecOff = []offFeature{
	newOffFeature("GenericWorkload", "schedulingGroup"),
	newOffFeature("EvictionRequestAPI", "evictionResponders"),
	newOffFeature("ContainerStopSignals", containerFields("lifecycle.stopSignal")...),
	newOffFeature("VolumeBindMountOptions", containerFields("volumeMounts.*.bindMountOptions")...),
	newOffFeature("EmptyDirVolumeMode", "volumes.*.emptyDir.mode"),
	// Of a volume, the strategy looks at its secret, else its configMap, else its
	// downwardAPI, else its projected source (volumeUserFields).
	newOffFeature("AtomicWriteVolumeUserFields",
		"volumes.*.secret.defaultUser", "volumes.*.secret.items.*.user",
		"volumes.*.configMap.defaultUser", "volumes.*.configMap.items.*.user",
		"volumes.*.downwardAPI.defaultUser", "volumes.*.downwardAPI.items.*.user",
		"volumes.*.projected.defaultUser"),
	newOffFeature("GRPCContainerProbeTLS", containerFields("livenessProbe.grpc.mode", "readinessProbe.grpc.mode", "startupProbe.grpc.mode")...),
	newOffFeature("H2CContainerProbe", containerFields("livenessProbe.httpGet.protocol", "readinessProbe.httpGet.protocol",
		"startupProbe.httpGet.protocol", "lifecycle.postStart.httpGet.protocol", "lifecycle.preStop.httpGet.protocol")...),
}

// podStatusOff are a pod status's, dropped by a /status write (a create resets the status,
// a main-resource update keeps the stored one).
var podStatusOff = []offFeature{
	newOffFeature("ImageVolumeWithDigest", "status.containerStatuses.*.volumeMounts.*.volumeStatus",
		"status.initContainerStatuses.*.volumeMounts.*.volumeStatus", "status.ephemeralContainerStatuses.*.volumeMounts.*.volumeStatus"),
	newOffFeature("DRANodeAllocatableResources", "status.nodeAllocatableResourceClaimStatuses"),
	newOffFeature("CSIVolumeHealth", "status.volumeHealth"),
}

// nodeStatusOff are a Node status's, dropped by a /status write: the dynamic kubelet
// configuration's status, long removed.
var nodeStatusOff = []offFeature{newOffFeature("DynamicKubeletConfig", "status.config")}

// pvcStatusOff and csiNodeStatusOff are a PersistentVolumeClaim's and a CSINode's status
// volume health (CSIVolumeHealth), dropped by a /status write.
var (
	pvcStatusOff     = []offFeature{newOffFeature("CSIVolumeHealth", "status.healthStatus")}
	csiNodeStatusOff = []offFeature{newOffFeature("CSIVolumeHealth", "status.storageHealth")}
)

// The resource.k8s.io (DRA) strategies', on the v1 layout (the only version served by
// default). In a path, "*" is every item of a list or every value of a map. The gates
// DRAConsumableCapacity, DRAPartitionableDevices, DRADeviceTaints, DRADeviceBindingConditions
// and DRAExtendedResource turn on in 1.36; the others off here are 1.36's or 1.37's alpha
// ones.
var (
	// sliceOff are a ResourceSlice's (pkg/registry/resource/resourceslice dropDisabledFields).
	sliceOff = []offFeature{
		newOffFeature("DRADeviceTaints", "spec.devices.*.taints"),
		newOffFeature("DRAPartitionableDevices", "spec.sharedCounters", "spec.perDeviceNodeSelection", "spec.devices.*.consumesCounters",
			"spec.devices.*.nodeName", "spec.devices.*.nodeSelector", "spec.devices.*.allNodes"),
		newOffFeature("DRADeviceBindingConditions", "spec.devices.*.bindingConditions", "spec.devices.*.bindingFailureConditions",
			"spec.devices.*.bindsToNode"),
		newOffFeature("DRAConsumableCapacity", "spec.devices.*.allowMultipleAllocations", "spec.devices.*.capacity.*.requestPolicy"),
		newOffFeature("DRAListTypeAttributes", "spec.devices.*.attributes.*.bools", "spec.devices.*.attributes.*.ints",
			"spec.devices.*.attributes.*.strings", "spec.devices.*.attributes.*.versions"),
		// 1.36's name of the node allocatable resources; 1.37 renamed the field.
		newOffFeature("DRANodeAllocatableResources", "spec.devices.*.nodeAllocatableResourceMappings").in(36, 36),
		newOffFeature("DRANodeAllocatableResources", "spec.devices.*.nodeAllocatableResources").in(37, 0),
		newOffFeature("DRAPartitionableDevicesType", "spec.partitionTypeAttribute"),
		newOffFeature("DRADeviceCompatibilityGroups", "spec.devices.*.consumesCounters.*.compatibilityGroups"),
		newOffFeature("DRAOptionalNodeOperations", "spec.skipNodeOperations"),
	}
	// claimSpecOff are a claim spec's (pkg/api/resourceclaimspec DropDisabledFields from
	// 1.35, the claim and template strategies' own before).
	claimSpecOff = []offFeature{
		newOffFeature("DRAPrioritizedList", "devices.requests.*.firstAvailable"),
		newOffFeature("DRAAdminAccess", "devices.requests.*.exactly.adminAccess"),
		// Kubernetes 1.35 added the tolerations' drop; 1.34 kept and validated them.
		newOffFeature("DRADeviceTaints", "devices.requests.*.exactly.tolerations", "devices.requests.*.firstAvailable.*.tolerations").in(35, 0),
		// 1.34 dropped a constraint's distinctAttribute from a copy of it, so kept it
		// (though it counts as use).
		newOffFeature("DRAConsumableCapacity", "devices.requests.*.exactly.capacity", "devices.requests.*.firstAvailable.*.capacity",
			"devices.constraints.*.distinctAttribute").in(35, 0),
		newOffFeature("DRAConsumableCapacity", "devices.requests.*.exactly.capacity", "devices.requests.*.firstAvailable.*.capacity").
			usedBy("devices.constraints.*.distinctAttribute").in(0, 34),
		newOffFeature("DRADerivedAttributes", "devices.requests.*.exactly.derivedAttributes", "devices.requests.*.firstAvailable.*.derivedAttributes"),
	}
	// claimStatusOff are a ResourceClaim status's, dropped by a /status write
	// (pkg/registry/resource/resourceclaim dropDisabledStatusFields; dropDisabledFields in
	// 1.34).
	claimStatusOff = []offFeature{
		newOffFeature("DRAResourceClaimDeviceStatus", "status.devices"),
		newOffFeature("DRAAdminAccess", "status.allocation.devices.results.*.adminAccess").usedBy("spec.devices.requests.*.exactly.adminAccess"),
		newOffFeature("DRAConsumableCapacity", "status.allocation.devices.results.*.shareID", "status.allocation.devices.results.*.consumedCapacity",
			"status.devices.*.shareID").usedBy("spec.devices.requests.*.exactly.capacity", "spec.devices.requests.*.firstAvailable.*.capacity",
			"spec.devices.constraints.*.distinctAttribute"),
		newOffFeature("DRADeviceBindingConditions", "status.allocation.devices.results.*.bindingConditions",
			"status.allocation.devices.results.*.bindingFailureConditions").in(35, 0),
		// 1.34 dropped the allocation's timestamp too.
		newOffFeature("DRADeviceBindingConditions", "status.allocation.allocationTimestamp", "status.allocation.devices.results.*.bindingConditions",
			"status.allocation.devices.results.*.bindingFailureConditions").in(0, 34),
		newOffFeature("DRAOptionalNodeOperations", "status.allocation.devices.results.*.skipNodeOperations"),
	}
	// deviceClassOff are a DeviceClass's (pkg/registry/resource/deviceclass
	// dropDisabledFields).
	deviceClassOff = []offFeature{newOffFeature("DRAExtendedResource", "spec.extendedResourceName")}
)

// volumeSources are the sources whose user fields AtomicWriteVolumeUserFields adds, in the
// order the strategy looks for the one it handles.
var volumeSources = []string{"secret", "configMap", "downwardAPI", "projected"}

// dropVolumeUserFields drops the user fields of each volume's first source.
func dropVolumeUserFields(spec map[string]any) {
	for _, vol := range unstructured.Objects(spec, "volumes") {
		for _, src := range volumeSources {
			s, ok := vol[src].(map[string]any)
			if !ok {
				continue
			}
			delete(s, "defaultUser")
			for _, item := range unstructured.Objects(s, "items") {
				delete(item, "user")
			}
			for _, ps := range unstructured.Objects(s, "sources") {
				for _, k := range []string{"secret", "configMap", "downwardAPI"} {
					if p, ok := ps[k].(map[string]any); ok {
						for _, item := range unstructured.Objects(p, "items") {
							delete(item, "user")
						}
						break
					}
				}
				for _, k := range []string{"serviceAccountToken", "clusterTrustBundle", "podCertificate"} {
					if p, ok := ps[k].(map[string]any); ok {
						delete(p, "user")
					}
				}
			}
			break
		}
	}
}

// statefulSetOff are a StatefulSet's: the rolling update's maxUnavailable
// (MaxUnavailableStatefulSet, on by default from 1.37: pkg/registry/apps/statefulset
// dropStatefulSetDisabledFields).
var statefulSetOff = []offFeature{newOffFeature("MaxUnavailableStatefulSet", "spec.updateStrategy.rollingUpdate.maxUnavailable")}

// replicasStatusOff are a Deployment status's and a ReplicaSet status's, dropped by a
// /status write: the terminating replicas (DeploymentReplicaSetTerminatingReplicas, on by
// default from 1.35: pkg/registry/apps/{deployment,replicaset} dropDisabledStatusFields).
var replicasStatusOff = []offFeature{newOffFeature("DeploymentReplicaSetTerminatingReplicas", "status.terminatingReplicas")}

// hpaOff are a HorizontalPodAutoscaler's, on the autoscaling/v2 layout: the scaling rules'
// tolerance (HPAConfigurableTolerance, on by default from 1.35: pkg/registry/autoscaling/
// horizontalpodautoscaler dropDisabledFields). autoscaling/v1 keeps the behavior in an
// annotation, left as written.
var hpaOff = []offFeature{newOffFeature("HPAConfigurableTolerance", "spec.behavior.scaleUp.tolerance", "spec.behavior.scaleDown.tolerance")}

// csiDriverOff are a CSIDriver's, each kept when the stored driver has that field
// (pkg/registry/storage/csidriver PrepareForCreate, PrepareForUpdate): the token-in-secrets
// flag (CSIServiceAccountTokenSecrets, on from 1.35; 1.34 has no such field), the
// allocatable update period (MutableCSINodeAllocatableCount, on from 1.35), the SELinux
// mount flag (SELinuxMountReadWriteOncePod, on in every supported minor) and
// preventPodSchedulingIfMissing (VolumeLimitScaling, on from 1.37; no such field before 1.36).
var csiDriverOff = []offFeature{
	newOffFeature("CSIServiceAccountTokenSecrets", "spec.serviceAccountTokenInSecrets"),
	newOffFeature("MutableCSINodeAllocatableCount", "spec.nodeAllocatableUpdatePeriodSeconds"),
	newOffFeature("SELinuxMountReadWriteOncePod", "spec.seLinuxMount"),
	newOffFeature("VolumeLimitScaling", "spec.preventPodSchedulingIfMissing"),
}

// volumeAttachmentStatusOff are a VolumeAttachment status's, dropped by a /status write:
// the error codes (MutableCSINodeAllocatableCount, on from 1.35), each kept when the stored
// status has it (pkg/registry/storage/volumeattachment status PrepareForUpdate).
var volumeAttachmentStatusOff = []offFeature{
	newOffFeature("MutableCSINodeAllocatableCount", "status.attachError.errorCode"),
	newOffFeature("MutableCSINodeAllocatableCount", "status.detachError.errorCode"),
}

// jobSpecOff are the job spec's (pkg/api/job DropDisabledFields).
var jobSpecOff = []offFeature{newOffFeature("WorkloadWithJob", "scheduling")}

// leaseOff are a Lease's (CoordinatedLeaderElection): dropped on update only when the
// stored Lease lacks that very field.
var leaseOff = []offFeature{newOffFeature("CoordinatedLeaderElection", "spec.strategy"), newOffFeature("CoordinatedLeaderElection", "spec.preferredHolder")}

// nodeOff are a Node's: the dynamic kubelet configuration, long removed, and
// InPlacePodVerticalScalingSchedulerPreemption's field.
var nodeOff = []offFeature{newOffFeature("DynamicKubeletConfig", "spec.configSource"), newOffFeature("DynamicKubeletConfig", "status.config"),
	newOffFeature("InPlacePodVerticalScalingSchedulerPreemption", "spec.podPreemptionPolicy")}

// podSpecAt says where a kind holds a pod spec, jobSpecAt a job spec.
var (
	podSpecAt = map[string][]string{
		"/Pod":                   {"spec"},
		"/PodTemplate":           {"template", "spec"},
		"/ReplicationController": {"spec", "template", "spec"},
		"apps/Deployment":        {"spec", "template", "spec"},
		"apps/ReplicaSet":        {"spec", "template", "spec"},
		"apps/StatefulSet":       {"spec", "template", "spec"},
		"apps/DaemonSet":         {"spec", "template", "spec"},
		"batch/Job":              {"spec", "template", "spec"},
		"batch/CronJob":          {"spec", "jobTemplate", "spec", "template", "spec"},
	}
	jobSpecAt = map[string][]string{
		"batch/Job":     {"spec"},
		"batch/CronJob": {"spec", "jobTemplate", "spec"},
	}
)

// dropOffFeatures drops from obj the fields of features that are off on the server cfg
// describes, given the stored object old (nil on create).
func dropOffFeatures(cfg *serverconfig.Config, gk string, obj, old map[string]any) {
	drop := func(at []string, offs []offFeature) {
		root, _ := unstructured.Nested(obj, at...).(map[string]any)
		if root == nil {
			return
		}
		oldRoot, _ := unstructured.Nested(old, at...).(map[string]any)
		for _, f := range offs {
			if !f.drops(cfg) || f.inUse(oldRoot) {
				continue
			}
			if !f.removed && f.gate == features.AtomicWriteVolumeUserFields {
				dropVolumeUserFields(root)
				continue
			}
			for _, p := range f.paths {
				dropAt(root, p)
			}
		}
	}
	if at, ok := podSpecAt[gk]; ok {
		drop(at, podSpecOff)
	}
	if at, ok := jobSpecAt[gk]; ok {
		drop(at, jobSpecOff)
	}
	switch gk {
	case "apps/StatefulSet":
		drop(nil, statefulSetOff)
	case "autoscaling/HorizontalPodAutoscaler":
		drop(nil, hpaOff)
	case "storage.k8s.io/CSIDriver":
		drop(nil, csiDriverOff)
	case "coordination.k8s.io/Lease":
		drop(nil, leaseOff)
	case "/Node":
		drop(nil, nodeOff)
	case "resource.k8s.io/ResourceSlice":
		drop(nil, sliceOff)
	case "resource.k8s.io/DeviceClass":
		drop(nil, deviceClassOff)
	case "resource.k8s.io/ResourceClaim":
		drop([]string{"spec"}, claimSpecOff)
	case "resource.k8s.io/ResourceClaimTemplate":
		drop([]string{"spec", "spec"}, claimSpecOff)
	}
}

// dropOffStatusFeatures drops from obj the status fields of features that are off on the
// server cfg describes, as a /status write's strategy does, given the stored object old.
func dropOffStatusFeatures(cfg *serverconfig.Config, gk string, obj, old map[string]any) {
	var offs []offFeature
	switch gk {
	case "/Pod":
		offs = podStatusOff
	case "/Node":
		offs = nodeStatusOff
	case "/PersistentVolumeClaim":
		offs = pvcStatusOff
	case "apps/Deployment", "apps/ReplicaSet":
		offs = replicasStatusOff
	case "storage.k8s.io/CSINode":
		offs = csiNodeStatusOff
	case "storage.k8s.io/VolumeAttachment":
		offs = volumeAttachmentStatusOff
	case "resource.k8s.io/ResourceClaim":
		offs = claimStatusOff
	}
	// Kubernetes 1.35 moved the drop of deallocated devices' status after the feature drops
	// (pkg/registry/resource/resourceclaim status PrepareForUpdate); 1.34 did it first.
	deallocatedFirst := gk == "resource.k8s.io/ResourceClaim" && !cfg.AtLeast(35)
	if deallocatedFirst {
		dropDeallocatedDevices(obj, old)
	}
	for _, f := range offs {
		if f.drops(cfg) && !f.inUse(old) {
			for _, p := range f.paths {
				dropAt(obj, p)
			}
		}
	}
	if gk == "resource.k8s.io/ResourceClaim" && !deallocatedFirst {
		dropDeallocatedDevices(obj, old)
	}
}

// dropDeallocatedDevices follows the ResourceClaim status strategy: the status of a device
// the stored allocation had and the new one has not is dropped (DRAResourceClaimDeviceStatus,
// on in 1.37), so clients unaware of device status need not clear it on deallocation.
func dropDeallocatedDevices(obj, old map[string]any) {
	id := func(m map[string]any) [4]string {
		return [4]string{unstructured.Str(m, "driver"), unstructured.Str(m, "pool"), unstructured.Str(m, "device"), unstructured.Str(m, "shareID")}
	}
	results := func(o map[string]any) []map[string]any {
		return unstructured.Objects(unstructured.Object(unstructured.Object(unstructured.Object(o, "status"), "allocation"), "devices"), "results")
	}
	gone := map[[4]string]bool{}
	for _, r := range results(old) {
		gone[id(r)] = true
	}
	for _, r := range results(obj) {
		delete(gone, id(r))
	}
	status := unstructured.Object(obj, "status")
	devices, _ := status["devices"].([]any)
	if len(gone) == 0 || len(devices) == 0 {
		return
	}
	kept := make([]any, 0, len(devices))
	for _, d := range devices {
		if m, ok := d.(map[string]any); !ok || !gone[id(m)] {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		delete(status, "devices")
		return
	}
	status["devices"] = kept
}

// on reports whether the server cfg describes has the feature's gate on.
func (f offFeature) on(cfg *serverconfig.Config) bool { return !f.removed && cfg.Enabled(f.gate) }

// drops reports whether the strategies of the server cfg describes drop the feature's
// fields (where it is not in use): their release has the drop, and the gate is off.
func (f offFeature) drops(cfg *serverconfig.Config) bool {
	if f.from != 0 && !cfg.AtLeast(f.from) || f.until != 0 && cfg.AtLeast(f.until+1) {
		return false
	}
	return !f.on(cfg)
}

// inUse reports whether root (nil: none) holds a value at one of the fields that keep the
// feature in use.
func (f offFeature) inUse(root map[string]any) bool {
	used := f.used
	if used == nil {
		used = f.paths
	}
	for _, p := range used {
		if holdsAt(root, p) {
			return true
		}
	}
	return false
}

func holdsAt(v any, p []string) bool {
	if len(p) == 0 {
		// Storage keeps no empty list: a stored value is a non-nil pointer or a list
		// with items.
		return v != nil
	}
	if p[0] == "*" {
		for _, item := range values(v) {
			if holdsAt(item, p[1:]) {
				return true
			}
		}
		return false
	}
	m, _ := v.(map[string]any)
	return m != nil && holdsAt(m[p[0]], p[1:])
}

// dropAt deletes the values at p under v; a container's lifecycle that held only the
// stop signal dropped goes too.
func dropAt(v any, p []string) {
	if len(p) == 2 && p[0] == "lifecycle" && p[1] == "stopSignal" {
		if ctr, ok := v.(map[string]any); ok {
			if l, ok := ctr["lifecycle"].(map[string]any); ok {
				if _, had := l["stopSignal"]; had {
					delete(l, "stopSignal")
					if len(l) == 0 {
						delete(ctr, "lifecycle")
					}
				}
			}
			return
		}
	}
	if p[0] == "*" {
		for _, item := range values(v) {
			dropAt(item, p[1:])
		}
		return
	}
	m, _ := v.(map[string]any)
	if m == nil {
		return
	}
	if len(p) == 1 {
		delete(m, p[0])
		return
	}
	dropAt(m[p[0]], p[1:])
}

// values are the items of a list or the values of a map ("*" in a path).
func values(v any) []any {
	switch t := v.(type) {
	case []any:
		return t
	case map[string]any:
		out := make([]any, 0, len(t))
		for _, x := range t {
			out = append(out, x)
		}
		return out
	}
	return nil
}
