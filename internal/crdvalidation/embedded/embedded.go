package embedded

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validate validates the embedded resources (x-kubernetes-embedded-resource) inside x: their
// apiVersion, kind and metadata. isRoot treats x itself as one.
func Validate(p *field.Path, x any, s *crdschema.Schema, isRoot bool) field.ErrorList {
	if s == nil && !isRoot {
		return nil
	}
	if s == nil {
		s = &crdschema.Schema{}
	}
	emb := s.XEmbeddedResource || isRoot
	var errs field.ErrorList
	switch x := x.(type) {
	case map[string]any:
		if emb {
			errs = append(errs, embeddedResource(p, x)...)
		}
		for _, k := range sortedKeys(x) {
			if prop, ok := s.Properties[k]; ok {
				errs = append(errs, Validate(p.Child(k), x[k], prop, false)...)
			} else if s.AdditionalProperties != nil {
				errs = append(errs, Validate(p.Key(k), x[k], s.AdditionalProperties.Schema, false)...)
			}
		}
	case []any:
		for i, v := range x {
			errs = append(errs, Validate(p.Index(i), v, s.Items, false)...)
		}
	}
	return errs
}

func embeddedResource(p *field.Path, x map[string]any) field.ErrorList {
	var errs field.ErrorList
	if _, ok := x["apiVersion"]; !ok {
		errs = append(errs, field.Required(p.Child("apiVersion"), ""))
	}
	if _, ok := x["kind"]; !ok {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	}
	for _, k := range sortedKeys(x) {
		v := x[k]
		switch k {
		case "apiVersion":
			av, ok := v.(string)
			switch {
			case !ok:
				errs = append(errs, field.Invalid(p.Child("apiVersion"), v, "must be a string"))
			case av == "":
				errs = append(errs, field.Invalid(p.Child("apiVersion"), av, "must not be empty"))
			default:
				if _, err := k8sschema.ParseGroupVersion(av); err != nil {
					errs = append(errs, field.Invalid(p.Child("apiVersion"), av, err.Error()))
				}
			}
		case "kind":
			kind, ok := v.(string)
			switch {
			case !ok:
				errs = append(errs, field.Invalid(p.Child("kind"), v, "must be a string"))
			case kind == "":
				errs = append(errs, field.Invalid(p.Child("kind"), kind, "must not be empty"))
			default:
				if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(kind)); len(msgs) > 0 {
					errs = append(errs, field.Invalid(p.Child("kind"), kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
				}
			}
		case "metadata":
			om, err := embeddedMeta(v)
			if err != nil {
				errs = append(errs, field.Invalid(p.Child("metadata"), v, err.Error()))
				continue
			}
			if om.Name == "" {
				om.Name = "fakename"
			}
			errs = append(errs, metavalidation.ValidateObjectMetaDeclaratively(context.Background(), operation.Create, om, nil, om.Namespace != "", pathSegment, p.Child("metadata"), true)...)
		}
	}
	return errs
}

// embeddedMeta reads an embedded resource's metadata through JSON, as the server does.
func embeddedMeta(v any) (*metav1.ObjectMeta, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	om := &metav1.ObjectMeta{}
	if err := json.Unmarshal(b, om); err != nil {
		return nil, err
	}
	return om, nil
}

func pathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
