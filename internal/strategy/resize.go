package strategy

import (
	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// PrepareForResizeUpdate applies a Pod's resize strategy (a write through /resize, rules.md
// sub.resize; pkg/registry/core/pod/strategy.go podResizeStrategy.PrepareForUpdate of each
// minor): of what the write sends, only the containers' and init containers' resources and
// resize policies are kept — the pod-level resources too with
// InPlacePodLevelResourcesVerticalScaling, the volumes with
// InPlacePodVerticalScalingMemoryBackedVolumes — and the rest of the spec, the status and
// the metadata a status write may not change (labels, annotations, finalizers, owner
// references, deletion timestamp, generation) are the stored pod's. A write that adds,
// removes, renames or reorders containers is kept as sent, for validation to refuse. The
// generation moves when the spec changed.
func PrepareForResizeUpdate(cfg *serverconfig.Config, obj, old map[string]any) {
	spec, oldSpec := unstructured.EnsureObject(obj, "spec"), unstructured.Object(old, "spec")
	if len(unstructured.List(spec, "containers")) == len(unstructured.List(oldSpec, "containers")) &&
		len(unstructured.List(spec, "initContainers")) == len(unstructured.List(oldSpec, "initContainers")) {
		next := unstructured.DeepCopyObject(oldSpec)
		if next == nil {
			next = map[string]any{}
		}
		for _, k := range []string{"containers", "initContainers"} {
			if v, ok := resizedContainers(spec[k], oldSpec[k]); ok {
				next[k] = v
			}
		}
		sent := func(k string) {
			if v, ok := spec[k]; ok {
				next[k] = v
			} else {
				delete(next, k)
			}
		}
		if cfg.Enabled(features.InPlacePodLevelResourcesVerticalScaling) {
			sent("resources")
		}
		if cfg.Enabled(features.InPlacePodVerticalScalingMemoryBackedVolumes) {
			sent("volumes")
		}
		obj["spec"] = next
		spec = next
		restore(obj, old, "status")
		meta, oldMeta := unstructured.EnsureObject(obj, "metadata"), unstructured.Object(old, "metadata")
		for _, k := range []string{"deletionTimestamp", "generation", "selfLink", "labels", "annotations", "finalizers", "ownerReferences"} {
			restore(meta, oldMeta, k)
		}
	}
	if cfg.Enabled(features.PodLevelResourcesFixDefaulting) {
		// Pod-level resources a client left out are kept; those there are defaulted.
		if spec["resources"] == nil {
			if r := unstructured.Nested(old, "spec", "resources"); r != nil {
				spec["resources"] = unstructured.DeepCopy(r)
			}
		}
		if spec["resources"] != nil && cfg.Enabled(features.PodLevelResources) {
			defaults.PodLevelResources(spec, true)
		}
	}
	meta := unstructured.EnsureObject(obj, "metadata")
	if !defaulting(cfg).Equal("v1", "Pod", defaults.Semantic, obj["spec"], old["spec"], "spec") {
		g, _ := unstructured.Int(meta["generation"])
		meta["generation"] = g + 1
	}
}

// resizedContainers is the stored list of containers with each one's resources and
// resize policy as sent, when the write names the same containers in the same order; ok is
// false otherwise (the list stays as sent).
func resizedContainers(list, oldList any) (any, bool) {
	cs, _ := list.([]any)
	olds, _ := oldList.([]any)
	if len(cs) == 0 {
		return list, list != nil
	}
	out := make([]any, len(olds))
	for i := range olds {
		c, _ := cs[i].(map[string]any)
		o, _ := unstructured.DeepCopy(olds[i]).(map[string]any)
		if c == nil || o == nil || unstructured.Str(c, "name") != unstructured.Str(o, "name") {
			return list, true
		}
		for _, k := range []string{"resources", "resizePolicy"} {
			if v, ok := c[k]; ok {
				o[k] = v
			} else {
				delete(o, k)
			}
		}
		out[i] = o
	}
	return out, true
}
