//lint:file-ignore SA1019 the generator builds against every minor from 1.32 (go.1.3x.mod); k8s.io/apiextensions-api, which 1.38 points to, exists only from 1.38

package main

import (
	"fmt"
	"reflect"
	"sort"

	yaml "go.yaml.in/yaml/v2"
	apiextensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/runtime"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	utilopenapi "k8s.io/apiserver/pkg/util/openapi"
	"k8s.io/client-go/kubernetes/scheme"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset/scheme"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
	openapiutil "k8s.io/kube-openapi/pkg/util"
	"k8s.io/kube-openapi/pkg/validation/spec"
	generatedopenapi "k8s.io/kubernetes/pkg/generated/openapi"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// kind is one entry of the GVK index.
type kind struct {
	group, version, kind string
	typeName             string
	goType               reflect.Type // the k8s.io/api (or extension) Go type
	resourceInfo
}

// source is one scheme whose kinds the index takes.
type source struct {
	name   string
	scheme *runtime.Scheme
	// groups limits which groups of the scheme are taken from this source
	// (nil: all). The extension clientsets' schemes also register the
	// meta.k8s.io option kinds for their group versions.
	groups map[string]bool
}

func sources() []source {
	return []source{
		{name: "k8s.io/client-go", scheme: scheme.Scheme},
		{name: "k8s.io/apiextensions-apiserver", scheme: apiextensionsscheme.Scheme, groups: map[string]bool{"apiextensions.k8s.io": true}},
		{name: "k8s.io/kube-aggregator", scheme: aggregatorscheme.Scheme, groups: map[string]bool{"apiregistration.k8s.io": true}},
	}
}

// serverTypeConverter builds the type converter exactly as kube-apiserver builds its field
// manager's (k8s.io/apiserver pkg/server, GenericAPIServer.getOpenAPIModels): the OpenAPI
// v3 definitions of the resources' kinds, built by kube-openapi's builder3 from
// k8s.io/kubernetes' generated definitions (pkg/generated/openapi, which holds the types of
// k8s.io/api, apiextensions-apiserver and kube-aggregator) with the configuration
// kube-apiserver gives them (pkg/controlplane/apiserver BuildGenericConfig: the definitions
// with disabled features' changes reverted, the definition namer of the schemes; of
// DefaultOpenAPIV3Config's fields, builder3 reads only these two for definitions), then
// managedfields.NewTypeConverter(models, false).
func serverTypeConverter(names []string) (managedfields.TypeConverter, error) {
	var schemes []*runtime.Scheme
	for _, src := range sources() {
		schemes = append(schemes, src.scheme)
	}
	namer := openapinamer.NewDefinitionNamer(schemes...)
	cfg := &common.OpenAPIV3Config{
		GetDefinitions:    utilopenapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions),
		GetDefinitionName: namer.GetDefinitionName,
	}
	cfg.Definitions = cfg.GetDefinitions(func(name string) spec.Ref {
		defName, _ := cfg.GetDefinitionName(name)
		return spec.MustCreateRef("#/components/schemas/" + common.EscapeJsonPointer(defName))
	})
	models, err := builder3.BuildOpenAPIDefinitionsForResources(cfg, names...)
	if err != nil {
		return nil, fmt.Errorf("building the OpenAPI definitions: %w", err)
	}
	return managedfields.NewTypeConverter(models, false)
}

// collect converts an empty object of every kind that has a typed client (clients) with
// the server's type converter. It returns the SMD types (sorted by name) and the kinds.
func collect(clients map[gvKind]clientFact, m minor) ([]smdschema.TypeDef, []kind, error) {
	var kinds []kind
	var names []string
	seen := map[string]bool{}
	for _, src := range sources() {
		for gvk, t := range src.scheme.AllKnownTypes() {
			if gvk.Version == runtime.APIVersionInternal || src.groups != nil && !src.groups[gvk.Group] {
				continue
			}
			if _, ok := clients[gvKind{gvk.Group, gvk.Version, gvk.Kind}]; !ok {
				continue // lists, options, subresource bodies (Scale, TokenRequest): never applied
			}
			obj, err := src.scheme.New(gvk)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: new %v: %w", src.name, gvk, err)
			}
			name := openapiutil.GetCanonicalTypeName(obj)
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
			kinds = append(kinds, kind{group: gvk.Group, version: gvk.Version, kind: gvk.Kind, goType: t})
		}
	}
	sort.Strings(names)
	tc, err := serverTypeConverter(names)
	if err != nil {
		return nil, nil, err
	}
	// The converter's schema is of the structured-merge-diff major version the release links
	// (v4 at 1.32 and 1.33, v6 from 1.34): it is read through its YAML form, which is the same
	// in both, into this generator's own version (schemaOf).
	var all any
	for i := range kinds {
		k := &kinds[i]
		obj, err := schemeOf(k.group).New(gvkOf(k))
		if err != nil {
			return nil, nil, err
		}
		obj.GetObjectKind().SetGroupVersionKind(gvkOf(k))
		tv, err := tc.ObjectToTyped(obj)
		if err != nil {
			return nil, nil, fmt.Errorf("%s/%s %s: %w", k.group, k.version, k.kind, err)
		}
		ref := tv.TypeRef()
		if ref.NamedType == nil {
			return nil, nil, fmt.Errorf("%s/%s %s converts to an unnamed type", k.group, k.version, k.kind)
		}
		k.typeName = *ref.NamedType
		if all == nil {
			all = tv.Schema()
		} else if tv.Schema() != all {
			return nil, nil, fmt.Errorf("%s/%s %s has a schema of its own", k.group, k.version, k.kind)
		}
	}
	if all == nil {
		return nil, nil, fmt.Errorf("no kind converted")
	}
	allSchema, err := schemaOf(all)
	if err != nil {
		return nil, nil, err
	}
	server := append([]smdschema.TypeDef(nil), allSchema.Types...)
	for i := range server {
		if err := normalizeDefaults(&server[i].Atom); err != nil {
			return nil, nil, fmt.Errorf("type %s: %w", server[i].Name, err)
		}
	}
	var roots []string
	for _, k := range kinds {
		roots = append(roots, k.typeName)
	}
	types, err := mergeApplyConfigurations(server, roots)
	if err != nil {
		return nil, nil, err
	}
	typeNames := map[string]bool{}
	for _, td := range types {
		typeNames[td.Name] = true
	}

	sort.Slice(kinds, func(i, j int) bool {
		a, b := kinds[i], kinds[j]
		if a.group != b.group {
			return a.group < b.group
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.version < b.version
	})
	for i := range kinds {
		k := &kinds[i]
		info, err := m.resourceInfo(k.group, k.version, k.kind)
		if err != nil {
			return nil, nil, err
		}
		k.resourceInfo = info
		if !typeNames[k.typeName] {
			return nil, nil, fmt.Errorf("%s/%s, Kind=%s: type %s is not in the schema", k.group, k.version, k.kind, k.typeName)
		}
	}
	return types, kinds, nil
}

// schemaOf reads a structured-merge-diff schema of any major version (a *schema.Schema of the
// release's version) as this generator's version: through its YAML form.
func schemaOf(s any) (*smdschema.Schema, error) {
	if v6, ok := s.(*smdschema.Schema); ok {
		return v6, nil
	}
	text, err := yaml.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshalling the server's schema: %w", err)
	}
	out := &smdschema.Schema{}
	if err := yaml.UnmarshalStrict(text, out); err != nil {
		return nil, fmt.Errorf("reading the server's schema (%T): %w", s, err)
	}
	return out, nil
}

func schemeOf(group string) *runtime.Scheme {
	for _, src := range sources()[1:] {
		if src.groups[group] {
			return src.scheme
		}
	}
	return scheme.Scheme
}

func gvkOf(k *kind) k8sschema.GroupVersionKind {
	return k8sschema.GroupVersionKind{Group: k.group, Version: k.version, Kind: k.kind}
}

// normalizeDefaults writes the default values of an atom's fields (and of inlined atoms
// below it) as SMD's YAML parser reads them: the OpenAPI definitions hold them as
// encoding/json decodes them (map[string]any, float64), schema.yaml and apply
// configurations as yaml.v2 decodes them (map[any]any, int). SMD reads either as the same
// value.
func normalizeDefaults(a *smdschema.Atom) error {
	if a.List != nil {
		if err := normalizeDefaults(&a.List.ElementType.Inlined); err != nil {
			return err
		}
	}
	if a.Map == nil {
		return nil
	}
	if err := normalizeDefaults(&a.Map.ElementType.Inlined); err != nil {
		return err
	}
	for i := range a.Map.Fields {
		f := &a.Map.Fields[i]
		if err := normalizeDefaults(&f.Type.Inlined); err != nil {
			return err
		}
		if f.Default == nil {
			continue
		}
		text, err := yaml.Marshal(f.Default)
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		var v any
		if err := yaml.Unmarshal(text, &v); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		f.Default = v
	}
	return nil
}
