package crd

import (
	"encoding/json"

	"github.com/ssa-diff/ssa-diff/internal/celrules"
	"github.com/ssa-diff/ssa-diff/internal/crdvalidation/embedded"
	"github.com/ssa-diff/ssa-diff/internal/crdvalidation/openapi"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateDefaults checks every default of a schema as the server does: pruned (no field
// the schema does not know), embedded resources well-formed, valid against the schema at
// its node and against the node's CEL rules. Defaults inside a resource's metadata are not
// checked here.
func validateDefaults(server kube.Minor, p *field.Path, s *crdschema.Schema, requirePruned bool) field.ErrorList {
	root := *s
	root.XEmbeddedResource = true
	errs, _ := defaults(server, p, &root, &root, false, requirePruned, runtimeBudget)
	return errs
}

const runtimeBudget = 10000000

func defaults(server kube.Minor, p *field.Path, s, root *crdschema.Schema, insideMeta, requirePruned bool, budget int64) (field.ErrorList, int64) {
	if s == nil {
		return nil, budget
	}
	if s.XEmbeddedResource {
		insideMeta = false
		root = s
	}
	var errs field.ErrorList
	if s.HasDefault && !insideMeta {
		def := runtime.DeepCopyJSONValue(s.Default)
		if requirePruned && prunes(def, s, s.XEmbeddedResource) {
			errs = append(errs, field.Invalid(p.Child("default"), s.Default, "must not have unknown fields"))
		}
		if e := coerce(p.Child("default"), def, s, s.XEmbeddedResource); e != nil {
			errs = append(errs, e)
		} else if ee := embedded.Validate(p.Child("default"), def, s, s.XEmbeddedResource); len(ee) > 0 {
			errs = append(errs, ee...)
		} else if ve := openapi.NewStructural(server, s).Validate(p.Child("default"), def, nil); len(ve) > 0 {
			errs = append(errs, ve...)
		} else if v := celrules.NewAt(server, s, s == root); v != nil {
			ce, left := v.ValidateValue(p.Child("default"), def, def, budget)
			errs = append(errs, ce...)
			if len(ce) == 0 {
				ce2, left2 := v.ValidateValue(p.Child("default"), def, nil, budget)
				errs = append(errs, ce2...)
				if left2 < left {
					left = left2
				}
			}
			budget = left
			if budget < 0 {
				return errs, budget
			}
		}
	}
	if s.Items != nil {
		e, left := defaults(server, p.Child("items"), s.Items, root, insideMeta, requirePruned, budget)
		errs, budget = append(errs, e...), left
		if budget < 0 {
			return errs, budget
		}
	}
	for _, k := range s.PropertyNames() {
		sub := insideMeta
		if s.XEmbeddedResource && metaFields[k] {
			sub = true
		}
		e, left := defaults(server, p.Child("properties").Key(k), s.Properties[k], root, sub, requirePruned, budget)
		errs, budget = append(errs, e...), left
		if budget < 0 {
			return errs, budget
		}
	}
	return errs, budget
}

// prunes reports whether pruning x to schema s would drop something.
func prunes(x any, s *crdschema.Schema, isRoot bool) bool {
	if isRoot && s != nil && !s.XEmbeddedResource {
		c := *s
		c.XEmbeddedResource = true
		s = &c
	}
	if isRoot && s == nil {
		s = &crdschema.Schema{XEmbeddedResource: true}
	}
	return pruneFinds(x, s)
}

func pruneFinds(x any, s *crdschema.Schema) bool {
	if s != nil && preserves(s) {
		return skipPruneFinds(x, s)
	}
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			return len(x) > 0
		}
		for k, v := range x {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				if pruneFinds(v, prop) {
					return true
				}
			} else if s.AdditionalProperties != nil {
				if pruneFinds(v, s.AdditionalProperties.Schema) {
					return true
				}
			} else {
				return true
			}
		}
	case []any:
		var items *crdschema.Schema
		if s != nil {
			items = s.Items
		}
		for _, v := range x {
			if pruneFinds(v, items) {
				return true
			}
		}
	}
	return false
}

func skipPruneFinds(x any, s *crdschema.Schema) bool {
	if s == nil {
		return false
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				if pruneFinds(v, prop) {
					return true
				}
			} else if s.AdditionalProperties != nil {
				if pruneFinds(v, s.AdditionalProperties.Schema) {
					return true
				}
			}
		}
	case []any:
		for _, v := range x {
			if skipPruneFinds(v, s.Items) {
				return true
			}
		}
	}
	return false
}

// coerce normalizes the metadata of embedded resources in x as the server's decoder does,
// or reports one that is malformed.
func coerce(p *field.Path, x any, s *crdschema.Schema, isRoot bool) *field.Error {
	if isRoot {
		if s == nil {
			s = &crdschema.Schema{}
		}
		if !s.XEmbeddedResource {
			c := *s
			c.XEmbeddedResource = true
			s = &c
		}
	}
	return coerceNode(p, x, s)
}

func coerceNode(p *field.Path, x any, s *crdschema.Schema) *field.Error {
	if s == nil {
		return nil
	}
	switch x := x.(type) {
	case map[string]any:
		for _, k := range unstructured.SortedKeys(x) {
			v := x[k]
			if s.XEmbeddedResource {
				switch k {
				case "apiVersion", "kind":
					if _, ok := v.(string); !ok {
						return field.Invalid(p.Child(k), v, "must be a string")
					}
				case "metadata":
					b, err := json.Marshal(v)
					if err != nil {
						return field.Invalid(p.Child("metadata"), v, err.Error())
					}
					om := &metav1.ObjectMeta{}
					if err := json.Unmarshal(b, om); err != nil {
						return field.Invalid(p.Child("metadata"), v, err.Error())
					}
					m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(om)
					if err != nil {
						return field.Invalid(p.Child("metadata"), v, err.Error())
					}
					if om.CreationTimestamp.IsZero() {
						delete(m, "creationTimestamp")
					}
					x["metadata"] = m
				}
			}
			if prop, ok := s.Properties[k]; ok {
				if e := coerceNode(p.Child(k), x[k], prop); e != nil {
					return e
				}
			} else if s.AdditionalProperties != nil {
				if e := coerceNode(p.Key(k), x[k], s.AdditionalProperties.Schema); e != nil {
					return e
				}
			}
		}
	case []any:
		for i, v := range x {
			if e := coerceNode(p.Index(i), v, s.Items); e != nil {
				return e
			}
		}
	}
	return nil
}
