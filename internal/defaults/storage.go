package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// Defaulters of storage.k8s.io/v1 (k8s.io/kubernetes pkg/apis/storage/v1).
// Inline volume specs of VolumeAttachments are defaulted by the core
// defaulters, which storage/v1 runs as a peer.

// storageGatedDefaulters are the storage defaulters that consult feature gates:
// defaultCSIDriver consults SELinuxMountReadWriteOncePod and VolumeLimitScaling, at the
// defaults of the minor defaulted (featureGates, generated per release).
var storageGatedDefaulters = []named[gatedDefaulterFunc]{
	{"io.k8s.api.storage.v1.CSIDriver", defaultCSIDriver},
}

var storageDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.storage.v1.StorageClass", defaultStorageClass},
}

// defaultStorageClass follows SetDefaults_StorageClass.
func defaultStorageClass(m map[string]any) {
	setIfNil(m, "reclaimPolicy", "Delete")
	setIfNil(m, "volumeBindingMode", "Immediate")
}

// defaultCSIDriver follows SetDefaults_CSIDriver.
func defaultCSIDriver(g *featureGates, m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	setIfNil(spec, "attachRequired", true)
	setIfNil(spec, "podInfoOnMount", false)
	setIfNil(spec, "storageCapacity", false)
	setIfNil(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType")
	if len(unstructured.List(spec, "volumeLifecycleModes")) == 0 {
		spec["volumeLifecycleModes"] = []any{"Persistent"}
	}
	setIfNil(spec, "requiresRepublish", false)
	if g.seLinuxMountReadWriteOncePod {
		setIfNil(spec, "seLinuxMount", false)
	}
	if g.volumeLimitScaling {
		setIfNil(spec, "preventPodSchedulingIfMissing", false)
	}
}
