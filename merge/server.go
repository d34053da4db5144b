package merge

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/merge/defaults"
	"github.com/ssa-diff/ssa-diff/merge/strategy"
	"github.com/ssa-diff/ssa-diff/schema"
)

// KubernetesHooks are the API server's own: the defaulting of Kubernetes 1.37's built-in
// kinds (package merge/defaults), their registry rules (package merge/strategy), and for
// custom resources the CRD schema's defaults, status reset and generation.
type KubernetesHooks struct{}

func builtinKnown(t *schema.Type) bool {
	return t.Source == schema.SourceBuiltin && defaults.Known(t.GVK.APIVersion(), t.GVK.Kind)
}

// Default runs the kind's defaulting.
func (KubernetesHooks) Default(t *schema.Type, obj map[string]interface{}) error {
	if builtinKnown(t) {
		return defaults.Default(t.GVK.APIVersion(), t.GVK.Kind, obj)
	}
	if t.Default != nil {
		t.Default(obj)
	}
	return nil
}

// EmptyObject is the kind's zero value as the server encodes it.
func (KubernetesHooks) EmptyObject(t *schema.Type) map[string]interface{} {
	if builtinKnown(t) {
		if obj, ok := defaults.EmptyObject(t.GVK.APIVersion(), t.GVK.Kind); ok {
			return obj
		}
	}
	return FieldManagementOnly{}.EmptyObject(t)
}

// PrepareForCreate applies the registry's create rules and the read-back defaulting.
func (h KubernetesHooks) PrepareForCreate(t *schema.Type, obj map[string]interface{}) error {
	if builtinKnown(t) {
		strategy.PrepareForCreate(t.GVK.APIVersion(), t.GVK.Kind, obj)
		return defaults.Default(t.GVK.APIVersion(), t.GVK.Kind, obj)
	}
	if t.Source != schema.SourceBuiltin {
		// Custom resources: generation starts at 1; with a status subresource, status is dropped.
		ensureMetadata(obj)["generation"] = int64(1)
		if t.Status {
			delete(obj, "status")
		}
	}
	return nil
}

// Validate runs the registry's validation: for built-in kinds, package internal/validation
// (the kind's strategy in the order the generic registry runs it); for every kind, that an
// update keeps the uid.
func (KubernetesHooks) Validate(t *schema.Type, subresource string, obj, old map[string]any) Validation {
	if t.Source == schema.SourceBuiltin {
		res, err := validation.ValidateWrite(t.GVK.APIVersion(), t.GVK.Kind, subresource, obj, old)
		if err != nil {
			return Validation{Errors: uidChanged(obj, old), NotPredicted: fmt.Sprintf("the validation of %s %s is not predicted: %v", t.GVK.APIVersion(), t.GVK.Kind, err)}
		}
		if res.Known {
			return Validation{Errors: res.Errors, Warnings: res.Warnings}
		}
	}
	return Validation{Errors: uidChanged(obj, old)}
}

// PrepareForUpdate applies the registry's update rules and the read-back defaulting.
func (h KubernetesHooks) PrepareForUpdate(t *schema.Type, subresource string, obj, old map[string]interface{}) error {
	if builtinKnown(t) {
		av, kind := t.GVK.APIVersion(), t.GVK.Kind
		switch subresource {
		case "":
			strategy.PrepareForUpdate(av, kind, obj, old)
		case "status":
			strategy.PrepareForStatusUpdate(av, kind, obj, old)
		default:
			RestoreResetFields(t, subresource, obj, old)
		}
		return defaults.Default(av, kind, obj)
	}
	RestoreResetFields(t, subresource, obj, old)
	if t.Source != schema.SourceBuiltin {
		// A custom resource's generation moves when anything but metadata and status changes.
		if g, ok := metadataOf(old)["generation"]; ok {
			ensureMetadata(obj)["generation"] = g
			if !sameExceptMetadataAndStatus(obj, old) {
				if n, ok := g.(int64); ok {
					ensureMetadata(obj)["generation"] = n + 1
				}
			}
		}
	}
	return nil
}

func sameExceptMetadataAndStatus(a, b map[string]interface{}) bool {
	strip := func(o map[string]interface{}) map[string]interface{} {
		c := make(map[string]interface{}, len(o))
		for k, v := range o {
			if k != "metadata" && k != "status" {
				c[k] = v
			}
		}
		return c
	}
	return unstructured.Equal(strip(a), strip(b))
}
