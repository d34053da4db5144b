package strategy

import "strings"

// Fields of features that are off in kube-apiserver 1.37 by default: the strategies drop
// them from a request (the dropDisabled… functions their PrepareForCreate and
// PrepareForUpdate call), on create always, on update unless the stored object already
// uses the feature. Field management has run by then: the applier still owns what was
// dropped.

// offFeature is one such feature: the fields it adds, as paths from the root the strategy
// hands it (a pod spec, a job spec, the object) where "*" stands for every item of a list.
// The feature is in use when any of them holds a value.
type offFeature struct {
	gate  string
	paths [][]string
}

func newOffFeature(gate string, paths ...string) offFeature {
	f := offFeature{gate: gate}
	for _, p := range paths {
		f.paths = append(f.paths, strings.Split(p, "."))
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
}

// volumeSources are the sources whose user fields AtomicWriteVolumeUserFields adds, in the
// order the strategy looks for the one it handles.
var volumeSources = []string{"secret", "configMap", "downwardAPI", "projected"}

// dropVolumeUserFields drops the user fields of each volume's first source.
func dropVolumeUserFields(spec map[string]any) {
	for _, vol := range objects(spec, "volumes") {
		for _, src := range volumeSources {
			s, ok := vol[src].(map[string]any)
			if !ok {
				continue
			}
			delete(s, "defaultUser")
			for _, item := range objects(s, "items") {
				delete(item, "user")
			}
			for _, ps := range objects(s, "sources") {
				for _, k := range []string{"secret", "configMap", "downwardAPI"} {
					if p, ok := ps[k].(map[string]any); ok {
						for _, item := range objects(p, "items") {
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

// dropOffFeatures drops from obj the fields of features that are off, given the stored
// object old (nil on create).
func dropOffFeatures(gk string, obj, old map[string]any) {
	drop := func(at []string, features []offFeature) {
		root, _ := path(obj, at...).(map[string]any)
		if root == nil {
			return
		}
		oldRoot, _ := path(old, at...).(map[string]any)
		for _, f := range features {
			if f.inUse(oldRoot) {
				continue
			}
			if f.gate == "AtomicWriteVolumeUserFields" {
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
	case "coordination.k8s.io/Lease":
		drop(nil, leaseOff)
	case "/Node":
		drop(nil, nodeOff)
	}
}

// inUse reports whether root (nil: none) holds a value at one of the feature's paths.
func (f offFeature) inUse(root map[string]any) bool {
	for _, p := range f.paths {
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
		l, _ := v.([]any)
		for _, item := range l {
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
		l, _ := v.([]any)
		for _, item := range l {
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
