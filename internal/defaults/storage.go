package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// Defaulters of storage.k8s.io/v1 (k8s.io/kubernetes pkg/apis/storage/v1).
// Inline volume specs of VolumeAttachments are defaulted by the core
// defaulters, which storage/v1 runs as a peer.

// Feature gates of kube-apiserver 1.37 (default values) that storage consults.
const (
	gateSELinuxMountReadWriteOncePod = true // GA, locked on
	gateVolumeLimitScaling           = true // beta, on in 1.37
)

var storageDefaulters = map[string]defaulterFunc{
	"io.k8s.api.storage.v1.StorageClass": defaultStorageClass,
	"io.k8s.api.storage.v1.CSIDriver":    defaultCSIDriver,
}

// defaultStorageClass follows SetDefaults_StorageClass.
func defaultStorageClass(m map[string]any) {
	setIfNil(m, "reclaimPolicy", "Delete")
	setIfNil(m, "volumeBindingMode", "Immediate")
}

// defaultCSIDriver follows SetDefaults_CSIDriver.
func defaultCSIDriver(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	setIfNil(spec, "attachRequired", true)
	setIfNil(spec, "podInfoOnMount", false)
	setIfNil(spec, "storageCapacity", false)
	setIfNil(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType")
	if len(unstructured.List(spec, "volumeLifecycleModes")) == 0 {
		spec["volumeLifecycleModes"] = []any{"Persistent"}
	}
	setIfNil(spec, "requiresRepublish", false)
	if gateSELinuxMountReadWriteOncePod {
		setIfNil(spec, "seLinuxMount", false)
	}
	if gateVolumeLimitScaling {
		setIfNil(spec, "preventPodSchedulingIfMissing", false)
	}
}
