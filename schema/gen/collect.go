package main

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	apiextensionsapply "k8s.io/apiextensions-apiserver/pkg/client/applyconfiguration"
	apiextensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	aggregatorapply "k8s.io/kube-aggregator/pkg/client/applyconfiguration"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset/scheme"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// kind is one entry of the GVK index.
type kind struct {
	group, version, kind string
	typeName             string
	goType               reflect.Type // the k8s.io/api (or extension) Go type
	resourceInfo
}

// source is one scheme and the apply-configuration type converter that
// knows the SMD types of its kinds.
type source struct {
	name      string
	scheme    *runtime.Scheme
	converter managedfields.TypeConverter
	// groups limits which groups of the scheme are taken from this source
	// (nil: all). The extension clientsets' schemes also register the
	// meta.k8s.io option kinds for their group versions.
	groups map[string]bool
}

func sources() []source {
	return []source{
		{
			name:      "k8s.io/client-go",
			scheme:    scheme.Scheme,
			converter: applyconfigurations.NewTypeConverter(scheme.Scheme),
		},
		{
			name:      "k8s.io/apiextensions-apiserver",
			scheme:    apiextensionsscheme.Scheme,
			converter: apiextensionsapply.NewTypeConverter(apiextensionsscheme.Scheme),
			groups:    map[string]bool{"apiextensions.k8s.io": true},
		},
		{
			name:      "k8s.io/kube-aggregator",
			scheme:    aggregatorscheme.Scheme,
			converter: aggregatorapply.NewTypeConverter(aggregatorscheme.Scheme),
			groups:    map[string]bool{"apiregistration.k8s.io": true},
		},
	}
}

// collect converts an empty object of every GVK of every source. GVKs
// that do not convert have no apply configuration (lists, options,
// subresource request bodies such as Scale or TokenRequest) and are
// skipped, as are the meta.k8s.io option kinds registered in every group
// version. It returns the merged SMD types (sorted by name) and the kinds.
func collect() ([]smdschema.TypeDef, []kind, error) {
	typesByName := map[string]smdschema.TypeDef{}
	typeOrigin := map[string]string{}
	var kinds []kind
	for _, src := range sources() {
		var schemaOfSource *smdschema.Schema
		for gvk := range src.scheme.AllKnownTypes() {
			if gvk.Version == runtime.APIVersionInternal {
				continue
			}
			if src.groups != nil && !src.groups[gvk.Group] {
				continue
			}
			obj, err := src.scheme.New(gvk)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: new %v: %w", src.name, gvk, err)
			}
			obj.GetObjectKind().SetGroupVersionKind(gvk)
			tv, err := src.converter.ObjectToTyped(obj)
			if err != nil {
				continue // no apply configuration: never applied
			}
			ref := tv.TypeRef()
			if ref.NamedType == nil {
				return nil, nil, fmt.Errorf("%s: %v converts to an unnamed type", src.name, gvk)
			}
			name := *ref.NamedType
			if strings.HasPrefix(name, "io.k8s.apimachinery.") {
				continue // DeleteOptions and friends, registered in every group version
			}
			if schemaOfSource == nil {
				schemaOfSource = tv.Schema()
			} else if tv.Schema() != schemaOfSource {
				return nil, nil, fmt.Errorf("%s: %v has a schema of its own", src.name, gvk)
			}
			kinds = append(kinds, kind{group: gvk.Group, version: gvk.Version, kind: gvk.Kind, typeName: name, goType: src.scheme.AllKnownTypes()[gvk]})
		}
		if schemaOfSource == nil {
			return nil, nil, fmt.Errorf("%s: no kind converted", src.name)
		}
		for _, td := range schemaOfSource.Types {
			if prev, ok := typesByName[td.Name]; ok {
				if !equalTypeDef(&prev, &td) {
					return nil, nil, fmt.Errorf("type %s differs between %s and %s", td.Name, typeOrigin[td.Name], src.name)
				}
				continue
			}
			typesByName[td.Name] = td
			typeOrigin[td.Name] = src.name
		}
	}

	types := make([]smdschema.TypeDef, 0, len(typesByName))
	for _, td := range typesByName {
		types = append(types, td)
	}
	sort.Slice(types, func(i, j int) bool { return types[i].Name < types[j].Name })

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
		info, ok := versionOverrides[gvKind{k.group, k.version, k.kind}]
		if !ok {
			info, ok = resources[groupKind{k.group, k.kind}]
		}
		if !ok {
			return nil, nil, fmt.Errorf("%s/%s, Kind=%s: not in the resource table (table.go): add it", k.group, k.version, k.kind)
		}
		k.resourceInfo = info
		if _, ok := typesByName[k.typeName]; !ok {
			return nil, nil, fmt.Errorf("%s/%s, Kind=%s: type %s is not in the schema", k.group, k.version, k.kind, k.typeName)
		}
	}
	return types, kinds, nil
}
