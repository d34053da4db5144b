package crdvalidation

import (
	"context"
	"encoding/json"

	"github.com/ssa-diff/ssa-diff/schema"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
)

// DefaultedCRD is a v1 CRD with the server's v1 defaults, as both sides receive it (the
// engine defaults CRDs before it validates them).
func DefaultedCRD(crd map[string]any) (map[string]any, *apiextensionsv1.CustomResourceDefinition, error) {
	b, err := json.Marshal(crd)
	if err != nil {
		return nil, nil, err
	}
	v1 := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(b, v1); err != nil {
		return nil, nil, err
	}
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(v1)
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(v1)
	if err != nil {
		return nil, nil, err
	}
	return m, v1, nil
}

// ValidateCRDServer is the server's validation of a CRD write (old nil: a create).
func ValidateCRDServer(obj, old *apiextensionsv1.CustomResourceDefinition) (errs field.ErrorList, warnings []string, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	rec := &recorder{}
	ctx := warning.WithWarningRecorder(context.Background(), rec)
	s := customresourcedefinition.NewStrategy(typer{})
	in := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(obj.DeepCopy(), in, nil); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}, nil, nil
	}
	if old == nil {
		s.PrepareForCreate(ctx, in)
		errs = rest.ValidateCreate(ctx, in, s)
		if len(errs) == 0 {
			for _, w := range s.WarningsOnCreate(ctx, in) {
				rec.AddWarning("", w)
			}
		}
		return errs, rec.warnings, nil
	}
	oldIn := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(old.DeepCopy(), oldIn, nil); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}, nil, nil
	}
	s.PrepareForUpdate(ctx, in, oldIn)
	errs = rest.ValidateUpdate(ctx, in, oldIn, s)
	if len(errs) == 0 {
		for _, w := range s.WarningsOnUpdate(ctx, in, oldIn) {
			rec.AddWarning("", w)
		}
	}
	return errs, rec.warnings, nil
}

// ValidateCRDOurs is ssa-diff's validation of the same write.
func ValidateCRDOurs(obj, old map[string]any) (errs field.ErrorList, warnings []string, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	t, _ := schema.MustNewRegistry(linkedMinor).Lookup(schema.GVK{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"})
	var oldCopy map[string]any
	if old != nil {
		oldCopy = runtime.DeepCopyJSON(old)
	}
	v := model().Validate(t, "", runtime.DeepCopyJSON(obj), oldCopy)
	if v.NotPredicted != "" {
		return nil, nil, v.NotPredicted
	}
	return v.Errors, v.Warnings, nil
}
