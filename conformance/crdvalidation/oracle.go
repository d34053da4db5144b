package crdvalidation

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
)

// Oracle is the server's validation of one CRD version's custom resources: the strategy
// apiextensions-apiserver's handler builds, run as the registry runs it.
type Oracle struct {
	strategy rest.RESTUpdateStrategy
	create   rest.RESTCreateStrategy
	status   rest.RESTUpdateStrategy
}

type typer struct{}

func (typer) ObjectKinds(obj runtime.Object) ([]schema.GroupVersionKind, bool, error) {
	return []schema.GroupVersionKind{obj.GetObjectKind().GroupVersionKind()}, false, nil
}

func (typer) Recognizes(schema.GroupVersionKind) bool { return true }

// NewOracle builds the server's strategy for version of crd (a v1 CRD as decoded JSON).
func NewOracle(crd map[string]any, version string) (*Oracle, error) {
	b, err := json.Marshal(crd)
	if err != nil {
		return nil, err
	}
	v1 := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(b, v1); err != nil {
		return nil, err
	}
	var ver *apiextensionsv1.CustomResourceDefinitionVersion
	for i := range v1.Spec.Versions {
		if v1.Spec.Versions[i].Name == version {
			ver = &v1.Spec.Versions[i]
		}
	}
	if ver == nil {
		return nil, fmt.Errorf("no version %s", version)
	}
	var props *apiextensions.JSONSchemaProps
	var structural *structuralschema.Structural
	if ver.Schema != nil {
		internal := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(ver.Schema, internal, nil); err != nil {
			return nil, err
		}
		props = internal.OpenAPIV3Schema
		s, err := structuralschema.NewStructural(props)
		if err != nil && !v1.Spec.PreserveUnknownFields {
			return nil, fmt.Errorf("structural: %w", err)
		}
		if !v1.Spec.PreserveUnknownFields {
			s = s.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(s); err != nil {
				return nil, err
			}
		}
		structural = s
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		return nil, err
	}
	var statusSpec *apiextensions.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	var scaleSpec *apiextensions.CustomResourceSubresourceScale
	if sub := ver.Subresources; sub != nil {
		if sub.Status != nil {
			statusSpec = &apiextensions.CustomResourceSubresourceStatus{}
			if props != nil && props.Properties != nil {
				if st, ok := props.Properties["status"]; ok {
					if statusValidator, _, err = apiservervalidation.NewSchemaValidator(&st); err != nil {
						return nil, err
					}
				}
			}
		}
		if sub.Scale != nil {
			scaleSpec = &apiextensions.CustomResourceSubresourceScale{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(sub.Scale, scaleSpec, nil); err != nil {
				return nil, err
			}
		}
	}
	kind := schema.GroupVersionKind{Group: v1.Spec.Group, Version: version, Kind: v1.Spec.Names.Kind}
	s := customresource.NewStrategy(typer{}, v1.Spec.Scope == apiextensionsv1.NamespaceScoped, kind, validator, statusValidator, structural, statusSpec, scaleSpec, ver.SelectableFields)
	return &Oracle{strategy: s, create: s, status: customresource.NewStatusStrategy(s)}, nil
}

type recorder struct{ warnings []string }

func (r *recorder) AddWarning(_, text string) {
	for _, w := range r.warnings {
		if w == text {
			return
		}
	}
	r.warnings = append(r.warnings, text)
}

// Validate is the server's answer for a write of obj through subresource ("" or "status");
// old is the stored object on an update, nil on a create.
func (o *Oracle) Validate(subresource string, obj, old map[string]any) (errs field.ErrorList, warnings []string, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	rec := &recorder{}
	ctx := warning.WithWarningRecorder(context.Background(), rec)
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
	if old == nil {
		errs = rest.ValidateCreate(ctx, u, o.create)
		if len(errs) == 0 {
			for _, w := range o.create.WarningsOnCreate(ctx, u) {
				rec.AddWarning("", w)
			}
		}
		return errs, rec.warnings, nil
	}
	uOld := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(old)}
	strategy := o.strategy
	if subresource == "status" {
		strategy = o.status
	}
	errs = rest.ValidateUpdate(ctx, u, uOld, strategy)
	if len(errs) == 0 {
		for _, w := range strategy.WarningsOnUpdate(ctx, u, uOld) {
			rec.AddWarning("", w)
		}
	}
	return errs, rec.warnings, nil
}
