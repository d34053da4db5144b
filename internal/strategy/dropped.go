package strategy

import (
	"slices"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Fields of features that are off in the server's feature gates: the strategies drop
// them from a request (the dropDisabled… functions their PrepareForCreate and
// PrepareForUpdate call), on create always, on update unless the stored object already
// uses the feature. Field management has run by then: the applier still owns what was
// dropped. Whether a feature is off is the server's gate (serverconfig.Config.Enabled):
// the tables are the same for every minor, the gates' defaults differ. They list every
// such feature of a supported minor whose gate is off by default in one of them; a minor
// whose server lacks the gate (it came later) drops the field too, which that minor's
// schema does not have anyway.

// offFeature is one such feature: the fields it adds, as paths from the root the strategy
// hands it (a pod spec, a job spec, the object) where "*" stands for every item of a list.
// The feature is in use when any of them holds a value.
type offFeature struct {
	name string
	// gate is the feature's gate; known is false for a gate no supported release has (its
	// feature is off everywhere).
	gate  features.Gate
	known bool
	paths [][]string
	// usedPaths are the fields whose stored values keep the feature in use, when not paths.
	usedPaths [][]string
	// from and until bound the minors whose strategies drop the fields (0: unbounded),
	// where the releases' drop code differs for the same gate.
	from, until int
	// keptInUseFrom is the first minor whose strategy keeps the fields of a stored object
	// that uses the feature (0: every minor's does).
	keptInUseFrom int
	// inUse and drop, when set, replace the test and the removal by paths.
	inUse func(root map[string]any) bool
	drop  func(root map[string]any)
}

func newOffFeature(gate string, paths ...string) offFeature {
	f := offFeature{name: gate}
	f.gate, f.known = features.Lookup(gate)
	f.paths = splitPaths(paths)
	return f
}

// splitPaths splits each dotted path at its dots (strings.Split), the steps of all of them
// in one slice: the tables' hundred-odd paths are split at their first use, two allocations
// a feature instead of one a path and the list's growth. Each path's slice ends at its last
// step (appending to it copies).
func splitPaths(paths []string) [][]string {
	if len(paths) == 0 {
		return nil
	}
	n := 0
	for _, p := range paths {
		n += strings.Count(p, ".") + 1
	}
	steps := make([]string, 0, n)
	out := make([][]string, len(paths))
	for i, p := range paths {
		start := len(steps)
		for {
			step, rest, more := strings.Cut(p, ".")
			steps = append(steps, step)
			if !more {
				break
			}
			p = rest
		}
		out[i] = steps[start:len(steps):len(steps)]
	}
	return out
}

// in is f dropped only by the strategies of minors from to until (0: unbounded).
func (f offFeature) in(from, until int) offFeature {
	f.from, f.until = from, until
	return f
}

// usedBy is f with other fields also keeping it in use (the stored object has them).
func (f offFeature) usedBy(paths ...string) offFeature {
	f.usedPaths = append(slices.Clip(f.paths), splitPaths(paths)...)
	return f
}

// drops reports whether the strategies of the server cfg drop the feature's fields (where
// it is not in use): their release has the drop, and the gate is off.
func (f offFeature) drops(cfg *serverconfig.Config) bool {
	if f.from != 0 && !cfg.AtLeast(f.from) || f.until != 0 && cfg.AtLeast(f.until+1) {
		return false
	}
	return !f.known || !cfg.Enabled(f.gate)
}

// dropFrom drops the feature's fields from root unless the stored root old uses it, on the
// server cfg.
func (f offFeature) dropFrom(cfg *serverconfig.Config, root, old map[string]any) {
	if !f.drops(cfg) || ((f.keptInUseFrom == 0 || cfg.AtLeast(f.keptInUseFrom)) && f.used(old)) {
		return
	}
	if f.drop != nil {
		f.drop(root)
		return
	}
	for _, p := range f.paths {
		dropAt(root, p)
	}
}

// used reports whether root (nil: none) uses the feature.
func (f offFeature) used(root map[string]any) bool {
	if f.inUse != nil {
		return root != nil && f.inUse(root)
	}
	return f.holds(root)
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

// podSpecOff() are the pod spec's features (pkg/api/pod dropDisabledFields).
var podSpecOff = sync.OnceValue(func() []offFeature {
	return []offFeature{
		newOffFeature("GenericWorkload", "schedulingGroup"),
		// Off in 1.32 and 1.33 (alpha), on from 1.34: pod-level resources
		// (dropDisabledPodLevelResources, pkg/api/pod/util.go v1.33.13:728; recorded: minors
		// pod-level-resources-requests).
		newOffFeature("PodLevelResources", "resources"),
		// 1.35's field of the same gate, which 1.36 replaced by schedulingGroup (dropDisabledWorkloadRef,
		// pkg/api/pod/util.go v1.35.4:1837); no other supported minor has it.
		newOffFeature("GenericWorkload", "workloadRef").in(35, 35),
		newOffFeature("EvictionRequestAPI", "evictionResponders"),
		newOffFeature("ContainerStopSignals", containerFields("lifecycle.stopSignal")...),
		newOffFeature("VolumeBindMountOptions", containerFields("volumeMounts.*.bindMountOptions")...),
		newOffFeature("EmptyDirVolumeMode", "volumes.*.emptyDir.mode"),
		// Of a volume, the strategy looks at its secret, else its configMap, else its
		// downwardAPI, else its projected source (volumeUserFields).
		withDrop(newOffFeature("AtomicWriteVolumeUserFields",
			"volumes.*.secret.defaultUser", "volumes.*.secret.items.*.user",
			"volumes.*.configMap.defaultUser", "volumes.*.configMap.items.*.user",
			"volumes.*.downwardAPI.defaultUser", "volumes.*.downwardAPI.items.*.user",
			"volumes.*.projected.defaultUser"), dropVolumeUserFields),
		newOffFeature("GRPCContainerProbeTLS", containerFields("livenessProbe.grpc.mode", "readinessProbe.grpc.mode", "startupProbe.grpc.mode")...),
		newOffFeature("H2CContainerProbe", containerFields("livenessProbe.httpGet.protocol", "readinessProbe.httpGet.protocol",
			"startupProbe.httpGet.protocol", "lifecycle.postStart.httpGet.protocol", "lifecycle.preStop.httpGet.protocol")...),
		// Off in 1.34 (alpha), on from 1.35: a container's restart policy and rules
		// (dropContainerRestartRules, pkg/api/pod/util.go v1.34.4:1732).
		// Kubernetes 1.34 brought the drop: 1.32 and 1.33 keep a regular container's
		// restartPolicy, which their validation forbids (recorded: minors
		// pod-container-restart-policy).
		withInUse(withDrop(newOffFeature("ContainerRestartRules"), dropContainerRestartRules), containerRestartRulesInUse).in(34, 0),
		// Off in 1.34, on from 1.35: an env var's file key reference, which leaves its valueFrom
		// empty (dropFileKeyRefInUse, v1.34.4:799).
		newOffFeature("EnvFiles", containerFields("env.*.valueFrom.fileKeyRef")...),
		// Off in 1.34, on from 1.35 (v1.34.4:779).
		newOffFeature("HostnameOverride", "hostnameOverride"),
		// Off in 1.34 (beta), on from 1.35: image volumes and the mounts of them
		// (dropImageVolumes, v1.34.4:1519).
		withDrop(newOffFeature("ImageVolume", "volumes.*.image"), dropImageVolumes),
		// Off up to 1.36, GA in 1.37: a projected volume's cluster trust bundle and pod
		// certificate sources, each leaving an empty source behind
		// (dropDisabledClusterTrustBundleProjection, dropDisabledPodCertificateProjection,
		// v1.36.3:1533,1576).
		newOffFeature("ClusterTrustBundleProjection", "volumes.*.projected.sources.*.clusterTrustBundle"),
		newOffFeature("PodCertificateRequest", "volumes.*.projected.sources.*.podCertificate"),
		// Off in 1.32 (alpha or beta off), on from 1.33; dropped unless the stored spec
		// uses them (dropDisabledFields, pkg/api/pod/util.go v1.32.13): a pod's hostUsers
		// (UserNamespacesSupport), supplementalGroupsPolicy and seLinuxChangePolicy
		// (recorded: minors pod-selinux-change-policy-mount-option), a container's
		// resizePolicy (InPlacePodVerticalScaling: in use when a regular container has
		// one), and a container's procMount, set back to Default rather than dropped
		// (ProcMountType: in use when one is not Default).
		newOffFeature("UserNamespacesSupport", "hostUsers").in(32, 32),
		newOffFeature("SupplementalGroupsPolicy", "securityContext.supplementalGroupsPolicy").in(32, 32),
		newOffFeature("SELinuxChangePolicy", "securityContext.seLinuxChangePolicy").in(32, 32),
		withInUse(newOffFeature("InPlacePodVerticalScaling", containerFields("resizePolicy")...), resizePolicyInUse132).in(32, 32),
		withInUse(withDrop(newOffFeature("ProcMountType"), defaultProcMount132), procMountInUse132).in(32, 32),
	}
})

// resizePolicyInUse132 follows 1.32.13's inPlacePodVerticalScalingInUse: a regular
// container of the spec has a resize policy.
func resizePolicyInUse132(spec map[string]any) bool {
	for _, c := range unstructured.Objects(spec, "containers") {
		if len(unstructured.List(c, "resizePolicy")) > 0 {
			return true
		}
	}
	return false
}

// procMountInUse132 follows 1.32.13's procMountInUse: a container of any kind has a
// procMount other than Default.
func procMountInUse132(spec map[string]any) bool {
	for _, key := range []string{"containers", "initContainers", "ephemeralContainers"} {
		for _, c := range unstructured.Objects(spec, key) {
			if p, ok := unstructured.Nested(c, "securityContext", "procMount").(string); ok && p != "Default" {
				return true
			}
		}
	}
	return false
}

// defaultProcMount132 follows 1.32.13's dropDisabledProcMountField: a container's
// procMount, where it has one, is set to Default (not dropped: older servers stored it).
func defaultProcMount132(spec map[string]any) {
	for _, key := range []string{"containers", "initContainers", "ephemeralContainers"} {
		for _, c := range unstructured.Objects(spec, key) {
			if sc, ok := c["securityContext"].(map[string]any); ok && sc["procMount"] != nil {
				sc["procMount"] = "Default"
			}
		}
	}
}

// withDrop is f with its own removal, withInUse with its own test of use.
func withDrop(f offFeature, drop func(map[string]any)) offFeature        { f.drop = drop; return f }
func withInUse(f offFeature, inUse func(map[string]any) bool) offFeature { f.inUse = inUse; return f }

// keptInUse is f whose stored fields are kept only from the minor given.
func keptInUse(f offFeature, from int) offFeature { f.keptInUseFrom = from; return f }

// dropContainerRestartRules follows dropContainerRestartRules: regular and ephemeral
// containers lose their restart policy and rules, init containers their rules and a
// policy other than Always (a sidecar's).
func dropContainerRestartRules(spec map[string]any) {
	for _, key := range []string{"containers", "initContainers", "ephemeralContainers"} {
		for _, c := range unstructured.Objects(spec, key) {
			delete(c, "restartPolicyRules")
			if key != "initContainers" || unstructured.Str(c, "restartPolicy") != "Always" {
				delete(c, "restartPolicy")
			}
		}
	}
}

// containerRestartRulesInUse follows containerRestartRulesInUse: an init container with a
// policy other than Always or with rules, a regular container with a policy.
func containerRestartRulesInUse(spec map[string]any) bool {
	for _, c := range unstructured.Objects(spec, "initContainers") {
		if p, ok := c["restartPolicy"].(string); ok && p != "Always" || len(unstructured.List(c, "restartPolicyRules")) > 0 {
			return true
		}
	}
	for _, c := range unstructured.Objects(spec, "containers") {
		if c["restartPolicy"] != nil {
			return true
		}
	}
	return false
}

// dropImageVolumes follows dropImageVolumes: the image volumes go, and every container's
// mounts of them; a list left empty goes too.
func dropImageVolumes(spec map[string]any) {
	names := map[string]bool{}
	var kept []any
	for _, v := range unstructured.List(spec, "volumes") {
		if m, ok := v.(map[string]any); ok && m["image"] != nil {
			names[unstructured.Str(m, "name")] = true
			continue
		}
		kept = append(kept, v)
	}
	if len(names) == 0 {
		return
	}
	setOrDelete(spec, "volumes", kept)
	for _, key := range []string{"containers", "initContainers", "ephemeralContainers"} {
		for _, c := range unstructured.Objects(spec, key) {
			if _, ok := c["volumeMounts"]; !ok {
				continue
			}
			var mounts []any
			for _, m := range unstructured.List(c, "volumeMounts") {
				if mm, ok := m.(map[string]any); ok && names[unstructured.Str(mm, "name")] {
					continue
				}
				mounts = append(mounts, m)
			}
			setOrDelete(c, "volumeMounts", mounts)
		}
	}
}

// setOrDelete sets m[k] to list, or deletes k when the list is empty (a nil slice is not
// stored).
func setOrDelete(m map[string]any, k string, list []any) {
	if len(list) == 0 {
		delete(m, k)
		return
	}
	m[k] = list
}

// podStatusOff() are a pod status's, dropped by a /status write (a create resets the status,
// a main-resource update keeps the stored one): pkg/api/pod dropDisabledPodStatusFields.
var podStatusOff = sync.OnceValue(func() []offFeature {
	return []offFeature{
		newOffFeature("ImageVolumeWithDigest", "status.containerStatuses.*.volumeMounts.*.volumeStatus",
			"status.initContainerStatuses.*.volumeMounts.*.volumeStatus", "status.ephemeralContainerStatuses.*.volumeMounts.*.volumeStatus"),
		newOffFeature("DRANodeAllocatableResources", "status.nodeAllocatableResourceClaimStatuses"),
		newOffFeature("CSIVolumeHealth", "status.volumeHealth"),
		// Off in 1.33 (alpha; the fields are new in 1.33), on from 1.34: a pod's and its
		// conditions' observedGeneration (dropDisabledPodStatusFields, pkg/api/pod/util.go
		// v1.33.13:899).
		newOffFeature("PodObservedGenerationTracking", "status.observedGeneration", "status.conditions.*.observedGeneration"),
		// Off in 1.35 (alpha; the fields are new in 1.35), on from 1.36.
		newOffFeature("InPlacePodLevelResourcesVerticalScaling", "status.resources", "status.allocatedResources"),
		// Off up to 1.35, on from 1.36.
		newOffFeature("DRAExtendedResource", "status.extendedResourceClaimStatus"),
		// Off up to 1.35, on from 1.36. Kubernetes 1.36 kept a stored object's health statuses
		// (resourceHealthStatusInUse, pkg/api/pod/util.go v1.36.3:1060): before, they were
		// dropped from every write.
		keptInUse(newOffFeature("ResourceHealthStatus", "status.containerStatuses.*.allocatedResourcesStatus",
			"status.initContainerStatuses.*.allocatedResourcesStatus", "status.ephemeralContainerStatuses.*.allocatedResourcesStatus"), 36),
		// New in 1.36 (on).
		newOffFeature("ResourceHealthStatusMessage", "status.containerStatuses.*.allocatedResourcesStatus.*.resources.*.message",
			"status.initContainerStatuses.*.allocatedResourcesStatus.*.resources.*.message",
			"status.ephemeralContainerStatuses.*.allocatedResourcesStatus.*.resources.*.message"),
	}
})

// nodeStatusOff() are a Node status's, dropped by a /status write: the dynamic kubelet
// configuration's status, long removed.
var nodeStatusOff = sync.OnceValue(func() []offFeature {
	return []offFeature{newOffFeature("DynamicKubeletConfig", "status.config")}
})

// pvcOff() are a PersistentVolumeClaim's (pkg/api/persistentvolumeclaim DropDisabledFields):
// its volume attributes class (VolumeAttributesClass, off in 1.33, on from 1.34; recorded:
// conformance/testdata/admission/1.33 quota-scope-volume-attributes-class, the claim
// stored without it, so no quota of that class counts it).
var pvcOff = sync.OnceValue(func() []offFeature {
	return []offFeature{newOffFeature("VolumeAttributesClass", "spec.volumeAttributesClassName")}
})

// pvcStatusOff() and csiNodeStatusOff() are a PersistentVolumeClaim's and a CSINode's status
// volume health (CSIVolumeHealth), dropped by a /status write; and a claim's current volume
// attributes class and its modification's status (VolumeAttributesClass, off in 1.33), each
// kept when the stored status has it (DropDisabledFieldsFromStatus).
var (
	pvcStatusOff = sync.OnceValue(func() []offFeature {
		return []offFeature{newOffFeature("CSIVolumeHealth", "status.healthStatus"),
			newOffFeature("VolumeAttributesClass", "status.currentVolumeAttributesClassName"),
			newOffFeature("VolumeAttributesClass", "status.modifyVolumeStatus")}
	})
	csiNodeStatusOff = sync.OnceValue(func() []offFeature {
		return []offFeature{newOffFeature("CSIVolumeHealth", "status.storageHealth")}
	})
)

// The resource.k8s.io (DRA) strategies', on the v1 layout (the only version served by
// default). In a path, "*" is every item of a list or every value of a map. The gates
// DRAConsumableCapacity, DRAPartitionableDevices, DRADeviceTaints, DRADeviceBindingConditions
// and DRAExtendedResource turn on in 1.36; the others off here are 1.36's or 1.37's alpha
// ones.
var (
	// sliceOff() are a ResourceSlice's (pkg/registry/resource/resourceslice dropDisabledFields).
	sliceOff = sync.OnceValue(func() []offFeature {
		return []offFeature{
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
	})
	// claimSpecOff() are a claim spec's (pkg/api/resourceclaimspec DropDisabledFields from
	// 1.35, the claim and template strategies' own before).
	claimSpecOff = sync.OnceValue(func() []offFeature {
		return []offFeature{
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
	})
	// claimStatusOff() are a ResourceClaim status's, dropped by a /status write
	// (pkg/registry/resource/resourceclaim dropDisabledStatusFields; dropDisabledFields in
	// 1.34).
	claimStatusOff = sync.OnceValue(func() []offFeature {
		return []offFeature{
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
	})
	// deviceClassOff() are a DeviceClass's (pkg/registry/resource/deviceclass
	// dropDisabledFields).
	deviceClassOff = sync.OnceValue(func() []offFeature {
		return []offFeature{newOffFeature("DRAExtendedResource", "spec.extendedResourceName")}
	})
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

// jobSpecOff() are the job spec's (pkg/api/job DropDisabledFields).
var jobSpecOff = sync.OnceValue(func() []offFeature {
	return []offFeature{newOffFeature("WorkloadWithJob", "scheduling")}
})

// leaseOff() are a Lease's (CoordinatedLeaderElection): dropped on update only when the
// stored Lease lacks that very field.
var leaseOff = sync.OnceValue(func() []offFeature {
	return []offFeature{newOffFeature("CoordinatedLeaderElection", "spec.strategy"), newOffFeature("CoordinatedLeaderElection", "spec.preferredHolder")}
})

// nodeOff() are a Node's, dropped by a write of the Node itself (its strategy's
// dropDisabledFields): the dynamic kubelet configuration, long removed,
// InPlacePodVerticalScalingSchedulerPreemption's field, and NodeDeclaredFeatures' (off in
// 1.35, where the field is new, on from 1.36; a /status write keeps them).
var nodeOff = sync.OnceValue(func() []offFeature {
	return []offFeature{newOffFeature("DynamicKubeletConfig", "spec.configSource"), newOffFeature("DynamicKubeletConfig", "status.config"),
		newOffFeature("InPlacePodVerticalScalingSchedulerPreemption", "spec.podPreemptionPolicy"),
		newOffFeature("NodeDeclaredFeatures", "status.declaredFeatures")}
})

// podSpecAt() says where a kind holds a pod spec, jobSpecAt() a job spec.
var (
	podSpecAt = sync.OnceValue(func() map[string][]string {
		return map[string][]string{
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
	})
	jobSpecAt = sync.OnceValue(func() map[string][]string {
		return map[string][]string{
			"batch/Job":     {"spec"},
			"batch/CronJob": {"spec", "jobTemplate", "spec"},
		}
	})
)

// statefulSetOff() are a StatefulSet's: the rolling update's maxUnavailable
// (MaxUnavailableStatefulSet, on by default from 1.37: pkg/registry/apps/statefulset
// dropStatefulSetDisabledFields).
var statefulSetOff = sync.OnceValue(func() []offFeature {
	return []offFeature{newOffFeature("MaxUnavailableStatefulSet", "spec.updateStrategy.rollingUpdate.maxUnavailable")}
})

// replicasStatusOff() are a Deployment status's and a ReplicaSet status's, dropped by a
// /status write: the terminating replicas (DeploymentReplicaSetTerminatingReplicas, on by
// default from 1.35: pkg/registry/apps/{deployment,replicaset} dropDisabledStatusFields).
var replicasStatusOff = sync.OnceValue(func() []offFeature {
	return []offFeature{newOffFeature("DeploymentReplicaSetTerminatingReplicas", "status.terminatingReplicas")}
})

// hpaOff() are a HorizontalPodAutoscaler's, on the autoscaling/v2 layout: the scaling rules'
// tolerance (HPAConfigurableTolerance, on by default from 1.35: pkg/registry/autoscaling/
// horizontalpodautoscaler dropDisabledFields). autoscaling/v1 keeps the behavior in an
// annotation, left as written.
var hpaOff = sync.OnceValue(func() []offFeature {
	return []offFeature{newOffFeature("HPAConfigurableTolerance", "spec.behavior.scaleUp.tolerance", "spec.behavior.scaleDown.tolerance")}
})

// csiDriverOff() are a CSIDriver's, each kept when the stored driver has that field
// (pkg/registry/storage/csidriver PrepareForCreate, PrepareForUpdate): the token-in-secrets
// flag (CSIServiceAccountTokenSecrets, on from 1.35; 1.34 has no such field), the
// allocatable update period (MutableCSINodeAllocatableCount, on from 1.35), the SELinux
// mount flag (SELinuxMountReadWriteOncePod, on in every supported minor) and
// preventPodSchedulingIfMissing (VolumeLimitScaling, on from 1.37; no such field before 1.36).
var csiDriverOff = sync.OnceValue(func() []offFeature {
	return []offFeature{
		newOffFeature("CSIServiceAccountTokenSecrets", "spec.serviceAccountTokenInSecrets"),
		newOffFeature("MutableCSINodeAllocatableCount", "spec.nodeAllocatableUpdatePeriodSeconds"),
		newOffFeature("SELinuxMountReadWriteOncePod", "spec.seLinuxMount"),
		newOffFeature("VolumeLimitScaling", "spec.preventPodSchedulingIfMissing"),
	}
})

// volumeAttachmentStatusOff() are a VolumeAttachment status's, dropped by a /status write:
// the error codes (MutableCSINodeAllocatableCount, on from 1.35), each kept when the stored
// status has it (pkg/registry/storage/volumeattachment status PrepareForUpdate).
var volumeAttachmentStatusOff = sync.OnceValue(func() []offFeature {
	return []offFeature{
		newOffFeature("MutableCSINodeAllocatableCount", "status.attachError.errorCode"),
		newOffFeature("MutableCSINodeAllocatableCount", "status.detachError.errorCode"),
	}
})

// dropOffFeatures drops from obj the fields of features the server cfg has off, given
// the stored object old (nil on create).
func dropOffFeatures(cfg *serverconfig.Config, gk string, obj, old map[string]any) {
	drop := func(at []string, features []offFeature) {
		root, _ := unstructured.Nested(obj, at...).(map[string]any)
		if root == nil {
			return
		}
		oldRoot, _ := unstructured.Nested(old, at...).(map[string]any)
		for _, f := range features {
			f.dropFrom(cfg, root, oldRoot)
		}
	}
	if at, ok := podSpecAt()[gk]; ok {
		drop(at, podSpecOff())
	}
	if at, ok := jobSpecAt()[gk]; ok {
		drop(at, jobSpecOff())
	}
	switch gk {
	case "coordination.k8s.io/Lease":
		drop(nil, leaseOff())
	case "/Node":
		drop(nil, nodeOff())
	case "apps/StatefulSet":
		drop(nil, statefulSetOff())
	case "autoscaling/HorizontalPodAutoscaler":
		drop(nil, hpaOff())
	case "/PersistentVolumeClaim":
		drop(nil, pvcOff())
	case "storage.k8s.io/CSIDriver":
		drop(nil, csiDriverOff())
	case "resource.k8s.io/ResourceSlice":
		drop(nil, sliceOff())
	case "resource.k8s.io/ResourceClaim":
		drop([]string{"spec"}, claimSpecOff())
	case "resource.k8s.io/ResourceClaimTemplate":
		drop([]string{"spec", "spec"}, claimSpecOff())
	case "resource.k8s.io/DeviceClass":
		drop(nil, deviceClassOff())
	}
}

// dropOffStatusFeatures drops from obj the status fields of features the server cfg has
// off, as a /status write's strategy does, given the stored object old.
func dropOffStatusFeatures(cfg *serverconfig.Config, gk string, obj, old map[string]any) {
	var features []offFeature
	switch gk {
	case "/Pod":
		// Kubernetes 1.33 made a pod's /status write drop the fields of off features
		// (podStatusStrategy PrepareForUpdate calls DropDisabledPodFields); 1.32.13's
		// drops none (recorded from 1.32.13: a status write keeps a container's user,
		// resources and allocatedResources, and the pod's resize).
		if cfg.AtLeast(33) {
			features = podStatusOff()
		}
	case "/Node":
		features = nodeStatusOff()
	case "/PersistentVolumeClaim":
		features = pvcStatusOff()
	case "apps/Deployment", "apps/ReplicaSet":
		features = replicasStatusOff()
	case "storage.k8s.io/CSINode":
		features = csiNodeStatusOff()
	case "storage.k8s.io/VolumeAttachment":
		features = volumeAttachmentStatusOff()
	case "resource.k8s.io/ResourceClaim":
		features = claimStatusOff()
	}
	// Kubernetes 1.35 moved the drop of deallocated devices' status after the feature drops
	// (pkg/registry/resource/resourceclaim status PrepareForUpdate); 1.34 did it first.
	deallocatedFirst := gk == "resource.k8s.io/ResourceClaim" && !cfg.AtLeast(35)
	if deallocatedFirst {
		dropDeallocatedDevices(obj, old)
	}
	for _, f := range features {
		f.dropFrom(cfg, obj, old)
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

// holds reports whether root (nil: none) holds a value at one of the fields that keep the
// feature in use.
func (f offFeature) holds(root map[string]any) bool {
	used := f.usedPaths
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
