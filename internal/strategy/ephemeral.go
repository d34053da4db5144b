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
func PrepareForEphemeralContainersUpdate(cfg *serverconfig.Config, obj, old map[string]any) {
	sent, hasSent := unstructured.Object(obj, "spec")["ephemeralContainers"]
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
	if !defaulting(cfg).Equal("v1", "Pod", defaults.Semantic, obj["spec"], old["spec"], "spec") {
		g, _ := unstructured.Int(meta["generation"])
		meta["generation"] = g + 1
	}
}
