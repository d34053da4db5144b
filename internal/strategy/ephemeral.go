package strategy

import (
	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// PrepareForEphemeralContainersUpdate applies a Pod's ephemeral containers strategy (a
// write through /ephemeralcontainers, as kubectl debug sends it; rules.md
// sub.ephemeralcontainers; pkg/registry/core/pod/strategy.go
// podEphemeralContainersStrategy.PrepareForUpdate, the same from 1.33 to 1.37): of what
// the write sends only spec.ephemeralContainers is kept — left out, the list is gone, for
// validation to refuse the removal — and the rest of the spec, the status and the
// metadata a status write may not change (labels, annotations, finalizers, owner
// references, deletion timestamp, generation) are the stored pod's. The fields of features
// turned off are dropped, and the generation moves when the spec changed.
//
// Kubernetes 1.32's strategy (dropPodUpdates) keeps the whole stored pod instead — its
// metadata too, the managedFields field management just wrote included, but the name,
// namespace, resourceVersion and uid sent — and pods have no generation there.
func PrepareForEphemeralContainersUpdate(cfg *serverconfig.Config, obj, old map[string]any) {
	sent, hasSent := unstructured.Object(obj, "spec")["ephemeralContainers"]
	if !cfg.AtLeast(33) {
		meta := unstructured.DeepCopyObject(unstructured.Object(old, "metadata"))
		if meta == nil {
			meta = map[string]any{}
		}
		for _, k := range []string{"name", "namespace", "resourceVersion", "uid"} {
			restore(meta, unstructured.Object(obj, "metadata"), k)
		}
		obj["metadata"] = meta
	}
	spec := unstructured.DeepCopyObject(unstructured.Object(old, "spec"))
	if spec == nil {
		spec = map[string]any{}
	}
	if hasSent && sent != nil {
		spec["ephemeralContainers"] = sent
	} else {
		delete(spec, "ephemeralContainers")
	}
	obj["spec"] = spec
	restore(obj, old, "status")
	meta, oldMeta := unstructured.EnsureObject(obj, "metadata"), unstructured.Object(old, "metadata")
	for _, k := range []string{"deletionTimestamp", "generation", "selfLink", "labels", "annotations", "finalizers", "ownerReferences"} {
		restore(meta, oldMeta, k)
	}
	dropOffFeatures(cfg, "/Pod", obj, old)
	if cfg.AtLeast(33) && !defaulting(cfg).Equal("v1", "Pod", defaults.Semantic, obj["spec"], old["spec"], "spec") {
		g, _ := unstructured.Int(meta["generation"])
		meta["generation"] = g + 1
	}
}
