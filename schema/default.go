package schema

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// structuralDefaulter applies the `default` values of a CRD version's
// structural schema to a custom resource, the way the API server does when
// it decodes one (from a request body or from storage):
//
//  1. Unless the CRD sets spec.preserveUnknownFields, a null whose schema is
//     neither nullable nor defaulted is dropped (together with pruning,
//     which this package does not do).
//  2. Defaults are applied top-down: a property with a default is set when
//     it is absent, or null and not nullable. Then every present property
//     is visited with its own schema, so defaults inside a value that was
//     just defaulted are applied too. List items and additionalProperties
//     values are visited the same way; a null item or value that is not
//     nullable is replaced by the item/value schema's default.
//
// Default values are copied, never shared with the object.
type structuralDefaulter struct {
	root        *spec.Schema
	prunesNulls bool
}

func (d *structuralDefaulter) apply(obj map[string]any) {
	if obj == nil {
		return
	}
	if d.prunesNulls {
		pruneNonNullableNulls(obj, d.root)
	}
	applyDefaults(obj, d.root)
}

// applyKeepingNulls is apply without its first step.
func (d *structuralDefaulter) applyKeepingNulls(obj map[string]any) {
	if obj != nil {
		applyDefaults(obj, d.root)
	}
}

// pruneNulls is apply's first step alone.
func (d *structuralDefaulter) pruneNulls(obj map[string]any) {
	if obj != nil {
		pruneNonNullableNulls(obj, d.root)
	}
}

func hasDefault(s *spec.Schema) bool { return s != nil && s.Default != nil }

// isNonNullableNull reports a null value whose schema does not allow null.
func isNonNullableNull(v any, s *spec.Schema) bool {
	return v == nil && s != nil && !s.Nullable
}

func applyDefaults(x any, s *spec.Schema) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for name := range s.Properties {
			prop := s.Properties[name]
			if !hasDefault(&prop) {
				continue
			}
			if v, found := x[name]; !found || isNonNullableNull(v, &prop) {
				x[name] = unstructured.DeepCopy(prop.Default)
			}
		}
		for k, v := range x {
			if prop, found := s.Properties[k]; found {
				applyDefaults(v, &prop)
			} else if ap := additionalSchema(s); ap != nil {
				if isNonNullableNull(v, ap) {
					x[k] = unstructured.DeepCopy(ap.Default)
				}
				applyDefaults(x[k], ap)
			}
		}
	case []any:
		var items *spec.Schema
		if s.Items != nil {
			items = s.Items.Schema
		}
		if items == nil {
			return
		}
		for i := range x {
			if isNonNullableNull(x[i], items) {
				x[i] = unstructured.DeepCopy(items.Default)
			}
			applyDefaults(x[i], items)
		}
	}
}

// pruneNonNullableNulls drops nulls that are neither allowed nor defaulted.
func pruneNonNullableNulls(x any, s *spec.Schema) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			fs := fieldSchema(k, s)
			if v == nil && fs != nil && !fs.Nullable && !hasDefault(fs) {
				delete(x, k)
				continue
			}
			pruneNonNullableNulls(v, fs)
		}
	case []any:
		var items *spec.Schema
		if s != nil && s.Items != nil {
			items = s.Items.Schema
		}
		for i := range x {
			pruneNonNullableNulls(x[i], items)
		}
	}
}

func fieldSchema(name string, s *spec.Schema) *spec.Schema {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[name]; ok {
		return &p
	}
	return additionalSchema(s)
}

func additionalSchema(s *spec.Schema) *spec.Schema {
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Schema
	}
	return nil
}

// ReadNulls is obj as decoding reads it back from storage: without the nulls PruneNulls
// drops (a copy when there are some), obj itself when the type drops none.
func (t *Type) ReadNulls(obj map[string]any) map[string]any {
	if t.PruneNulls == nil || !unstructured.HasNull(obj) {
		return obj
	}
	obj = unstructured.DeepCopyObject(obj)
	t.PruneNulls(obj)
	return obj
}

// pruneUnknown drops the fields the structural schema s does not describe, as
// apiextensions-apiserver prunes a custom resource it decodes (structural pruning): at the
// root and in embedded resources apiVersion, kind and metadata stay; a node with
// x-kubernetes-preserve-unknown-fields keeps what it does not describe; additionalProperties
// describe every other key.
func pruneUnknown(x any, s *spec.Schema, root bool) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		preserve := s.Extensions[extPreserveUnknown] == true
		resource := root || s.Extensions[extEmbedded] == true
		for k, v := range x {
			if resource && (k == "apiVersion" || k == "kind" || k == "metadata") {
				continue
			}
			if p, ok := s.Properties[k]; ok {
				pruneUnknown(v, &p, false)
				continue
			}
			if ap := s.AdditionalProperties; ap != nil && (ap.Allows || ap.Schema != nil) {
				pruneUnknown(v, ap.Schema, false)
				continue
			}
			if !preserve {
				delete(x, k)
			}
		}
	case []any:
		if s.Items != nil && s.Items.Schema != nil {
			for _, v := range x {
				pruneUnknown(v, s.Items.Schema, false)
			}
		}
	}
}
