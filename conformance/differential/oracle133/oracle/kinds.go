package oracle

import (
	"fmt"
	"sort"
	"strings"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/spec3"
	smdpath "sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

// BuiltinConverter is the type converter of every built-in kind: client-go's apply
// configurations schema, the same schema ssa-diff embeds, restricted to the versions
// kube-apiserver serves (its type converter is built from the OpenAPI of what it serves).
func BuiltinConverter() managedfields.TypeConverter {
	return servedOnly{applyconfigurations.NewTypeConverter(scheme.Scheme)}
}

// servedOnly refuses the group-versions kube-apiserver 1.37 does not serve by default (its
// default API configuration enables every GA version and no alpha or beta one), as the
// server's type converter knows no type for them: their managedFields entries are dropped
// (the version converter counts the refusal as a missing version).
type servedOnly struct {
	managedfields.TypeConverter
}

func (c servedOnly) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	if strings.Contains(gvk.Version, "alpha") || strings.Contains(gvk.Version, "beta") {
		return nil, runtime.NewNotRegisteredErrForKind("kube-apiserver", gvk)
	}
	return c.TypeConverter.ObjectToTyped(obj, opts...)
}

// StatusReset is the usual pair of reset tables: the main resource resets status, the
// status subresource resets the given paths (spec, usually).
func StatusReset(status ...smdpath.Path) map[string][]smdpath.Path {
	return map[string][]smdpath.Path{"": {smdpath.MakePathOrDie("status")}, "status": status}
}

// CRDKinds builds the kinds of a CustomResourceDefinition the way kube-apiserver's
// customresource handler does: the OpenAPI v3 document of every served version (the
// apiextensions builder), merged, converted by managedfields.NewTypeConverter; the CRD
// field manager chain; the custom resource strategies' reset tables.
func CRDKinds(crd *apiextensionsv1.CustomResourceDefinition) ([]*Kind, error) {
	var specs []*spec3.OpenAPI
	for _, v := range crd.Spec.Versions {
		s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{})
		if err != nil {
			return nil, fmt.Errorf("building the OpenAPI of %s %s: %w", crd.Name, v.Name, err)
		}
		specs = append(specs, s)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, fmt.Errorf("merging the OpenAPI of %s: %w", crd.Name, err)
	}
	tc, err := managedfields.NewTypeConverter(merged.Components.Schemas, crd.Spec.PreserveUnknownFields)
	if err != nil {
		return nil, fmt.Errorf("type converter of %s: %w", crd.Name, err)
	}
	// The customresource handler's converter (strategy None: apiVersion rewritten; a
	// version the CRD does not list refused).
	withDefaults := crd.DeepCopy()
	if withDefaults.Spec.Conversion == nil {
		withDefaults.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
	}
	factory, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, err
	}
	convertor, _, err := factory.NewConverter(withDefaults)
	if err != nil {
		return nil, fmt.Errorf("converter of %s: %w", crd.Name, err)
	}
	var kinds []*Kind
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		k := &Kind{GVK: schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}, Resource: crd.Spec.Names.Plural, CRD: true, Converter: tc, Convertor: convertor}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil && !crd.Spec.PreserveUnknownFields {
			internal := &apiextensionsinternal.CustomResourceValidation{}
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, internal, nil); err != nil {
				return nil, fmt.Errorf("converting the schema of %s %s: %w", crd.Name, v.Name, err)
			}
			st, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
			if err != nil {
				return nil, fmt.Errorf("structural schema of %s %s: %w", crd.Name, v.Name, err)
			}
			st = st.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(st); err != nil {
				return nil, fmt.Errorf("pruning the defaults of %s %s: %w", crd.Name, v.Name, err)
			}
			k.Default = func(obj map[string]any) { structuraldefaulting.Default(obj, st) }
			k.Decode = func(obj map[string]any) {
				structuralpruning.Prune(obj, st, true)
				structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, st)
				structuraldefaulting.Default(obj, st)
			}
		}
		if v.Subresources != nil && v.Subresources.Status != nil {
			k.Reset = map[string][]smdpath.Path{
				"":       {smdpath.MakePathOrDie("status")},
				"status": {smdpath.MakePathOrDie("metadata"), smdpath.MakePathOrDie("spec")},
			}
		}
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].GVK.Version < kinds[j].GVK.Version })
	return kinds, nil
}
