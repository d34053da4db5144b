package schema

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// The OpenAPI vendor extensions of structural schemas that matter here.
const (
	extPreserveUnknown = "x-kubernetes-preserve-unknown-fields"
	extEmbedded        = "x-kubernetes-embedded-resource"
	extIntOrString     = "x-kubernetes-int-or-string"
	extListType        = "x-kubernetes-list-type"
	extListMapKeys     = "x-kubernetes-list-map-keys"
	extMapType         = "x-kubernetes-map-type"
	extGVK             = "x-kubernetes-group-version-kind"

	objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
)

type level int

const (
	rootLevel level = iota
	fieldLevel
	itemLevel
)

// structuralConverter turns the openAPIV3Schema of one CRD version (as
// decoded from YAML or JSON) into a kube-openapi schema, checking the
// structural-schema rules the API server enforces when it accepts a CRD
// (so that a schema the server would reject is reported, with its path,
// instead of silently giving a different type).
//
// With injectMeta it also does what the API server does before it builds
// the SMD type of a custom resource: apiVersion and kind become strings and
// metadata a reference to ObjectMeta, at the root and on every
// x-kubernetes-embedded-resource node. Without it, the result is the
// schema as written, which is what defaulting walks.
type structuralConverter struct {
	injectMeta bool
	problems   *problems
}

func (c *structuralConverter) convert(v any, path fieldPath, lvl level) *spec.Schema {
	m, ok := v.(map[string]any)
	if !ok {
		c.problems.add(path, "must be an object, not %s", unstructured.Describe(v))
		return &spec.Schema{}
	}
	s := &spec.Schema{}
	if _, ok := m["$ref"]; ok {
		c.problems.add(path.child("$ref"), "$ref is not supported in CustomResourceDefinition schemas")
	}

	typ := c.str(m, "type", path)
	badType := false
	switch typ {
	case "", "object", "array", "string", "integer", "number", "boolean":
	default:
		c.problems.add(path.child("type"), "unsupported value %q: must be one of array, boolean, integer, number, object, string", typ)
		typ, badType = "", true
	}
	if typ != "" {
		s.Type = spec.StringOrArray{typ}
	}
	s.Format = c.str(m, "format", path)
	s.Nullable = c.boolean(m, "nullable", path)
	if d, ok := m["default"]; ok && d != nil {
		s.Default = unstructured.Normalize(d)
	}

	preserve := c.boolean(m, extPreserveUnknown, path)
	if _, set := m[extPreserveUnknown]; set && !preserve {
		c.problems.add(path.child(extPreserveUnknown), "must be true or undefined")
	}
	embedded := c.boolean(m, extEmbedded, path)
	intOrString := c.boolean(m, extIntOrString, path)
	listType := c.str(m, extListType, path)
	mapType := c.str(m, extMapType, path)
	var keys []string
	if raw, ok := m[extListMapKeys]; ok {
		list, ok := raw.([]any)
		if !ok {
			c.problems.add(path.child(extListMapKeys), "must be a list of strings, not %s", unstructured.Describe(raw))
		}
		for i, k := range list {
			ks, ok := k.(string)
			if !ok {
				c.problems.add(path.child(extListMapKeys).index(i), "must be a string, not %s", unstructured.Describe(k))
				continue
			}
			keys = append(keys, ks)
		}
	}

	ext := spec.Extensions{}
	if preserve {
		ext[extPreserveUnknown] = true
	}
	if embedded {
		ext[extEmbedded] = true
	}
	if intOrString {
		ext[extIntOrString] = true
	}
	if listType != "" {
		ext[extListType] = listType
	}
	if len(keys) > 0 {
		ks := make([]any, len(keys))
		for i, k := range keys {
			ks[i] = k
		}
		ext[extListMapKeys] = ks
	}
	if mapType != "" {
		ext[extMapType] = mapType
	}
	if len(ext) > 0 {
		s.Extensions = ext
	}

	// properties
	if raw, ok := m["properties"]; ok && raw != nil {
		props, ok := raw.(map[string]any)
		if !ok {
			c.problems.add(path.child("properties"), "must be an object, not %s", unstructured.Describe(raw))
		} else {
			s.Properties = make(map[string]spec.Schema, len(props))
			for _, name := range unstructured.SortedKeys(props) {
				s.Properties[name] = *c.convert(props[name], path.child("properties").child(name), fieldLevel)
			}
		}
	}

	// additionalProperties
	if raw, ok := m["additionalProperties"]; ok && raw != nil {
		switch ap := raw.(type) {
		case bool:
			s.AdditionalProperties = &spec.SchemaOrBool{Allows: ap}
		case map[string]any:
			s.AdditionalProperties = &spec.SchemaOrBool{Allows: true, Schema: c.convert(ap, path.child("additionalProperties"), fieldLevel)}
		default:
			c.problems.add(path.child("additionalProperties"), "must be a boolean or a schema, not %s", unstructured.Describe(raw))
		}
		if s.AdditionalProperties != nil {
			if lvl == rootLevel {
				c.problems.add(path.child("additionalProperties"), "must not be used at the root")
			}
			if embedded {
				c.problems.add(path.child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set")
			}
			if len(s.Properties) > 0 && (!s.AdditionalProperties.Allows || s.AdditionalProperties.Schema != nil) {
				c.problems.add(path.child("additionalProperties"), "additionalProperties and properties are mutual exclusive")
			}
		}
	}

	// items
	if raw, ok := m["items"]; ok && raw != nil {
		switch it := raw.(type) {
		case map[string]any:
			s.Items = &spec.SchemaOrArray{Schema: c.convert(it, path.child("items"), itemLevel)}
		case []any:
			c.problems.add(path.child("items"), "must be a single schema, not a list of schemas")
		default:
			c.problems.add(path.child("items"), "must be a schema, not %s", unstructured.Describe(raw))
		}
	}

	if !badType {
		c.checkStructural(s, path, lvl, typ, preserve, embedded, intOrString)
	}
	c.checkListAndMapTypes(s, path, typ, listType, keys, mapType)

	if c.injectMeta && (lvl == rootLevel || embedded) {
		if s.Properties == nil {
			s.Properties = map[string]spec.Schema{}
		}
		s.Properties["apiVersion"] = spec.Schema{SchemaProps: spec.SchemaProps{Type: spec.StringOrArray{"string"}}}
		s.Properties["kind"] = spec.Schema{SchemaProps: spec.SchemaProps{Type: spec.StringOrArray{"string"}}}
		s.Properties["metadata"] = *spec.RefSchema("#/components/schemas/" + objectMetaName)
	}
	return s
}

// checkStructural applies the structural-schema invariants that decide the
// shape of the SMD type.
func (c *structuralConverter) checkStructural(s *spec.Schema, path fieldPath, lvl level, typ string, preserve, embedded, intOrString bool) {
	if typ == "array" && s.Items == nil {
		c.problems.add(path.child("items"), "must be specified")
	}
	switch {
	case embedded && typ != "object":
		c.problems.add(path.child("type"), "must be object if x-kubernetes-embedded-resource is true")
	case typ == "" && !intOrString && !preserve:
		switch lvl {
		case rootLevel:
			c.problems.add(path.child("type"), "must not be empty at the root")
		case itemLevel:
			c.problems.add(path.child("type"), "must not be empty for specified array items")
		default:
			c.problems.add(path.child("type"), "must not be empty for specified object fields")
		}
	}
	if lvl == rootLevel && typ != "" && typ != "object" {
		c.problems.add(path.child("type"), "must be object at the root")
	}
	if intOrString && preserve {
		c.problems.add(path.child(extPreserveUnknown), "must be false if x-kubernetes-int-or-string is true")
	}
	if intOrString && embedded {
		c.problems.add(path.child(extEmbedded), "must be false if x-kubernetes-int-or-string is true")
	}
	if embedded && !preserve && len(s.Properties) == 0 {
		c.problems.add(path.child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields")
	}
	if lvl == rootLevel || embedded {
		for _, f := range []string{"apiVersion", "kind"} {
			if p, ok := s.Properties[f]; ok && (len(p.Type) != 1 || p.Type[0] != "string") {
				c.problems.add(path.child("properties").child(f).child("type"), "must be string")
			}
		}
		if p, ok := s.Properties["metadata"]; ok && (len(p.Type) != 1 || p.Type[0] != "object") {
			c.problems.add(path.child("properties").child("metadata").child("type"), "must be object")
		}
	}
}

// checkListAndMapTypes applies the rules for x-kubernetes-list-type,
// x-kubernetes-list-map-keys and x-kubernetes-map-type.
func (c *structuralConverter) checkListAndMapTypes(s *spec.Schema, path fieldPath, typ, listType string, keys []string, mapType string) {
	if mapType != "" {
		if typ != "object" {
			c.problems.add(path.child("type"), "must be object if x-kubernetes-map-type is specified")
		}
		if mapType != "atomic" && mapType != "granular" {
			c.problems.add(path.child(extMapType), "unsupported value %q: must be atomic or granular", mapType)
		}
	}
	if listType != "" {
		if typ != "array" {
			c.problems.add(path.child("type"), "must be array if x-kubernetes-list-type is specified")
		}
		if listType != "atomic" && listType != "set" && listType != "map" {
			c.problems.add(path.child(extListType), "unsupported value %q: must be atomic, set or map", listType)
		}
	}
	if len(keys) > 0 && listType != "map" {
		c.problems.add(path.child(extListType), "must be map if x-kubernetes-list-map-keys is non-empty")
	}
	if listType != "map" {
		return
	}
	if len(keys) == 0 {
		c.problems.add(path.child(extListMapKeys), "must not be empty if x-kubernetes-list-type is map")
	}
	if s.Items == nil || s.Items.Schema == nil {
		return
	}
	item := s.Items.Schema
	if len(item.Type) != 1 || item.Type[0] != "object" {
		c.problems.add(path.child("items").child("type"), "must be object if parent array's x-kubernetes-list-type is map")
		return
	}
	seen := map[string]bool{}
	for _, k := range keys {
		p, ok := item.Properties[k]
		if !ok {
			c.problems.add(path.child(extListMapKeys), "entries must all be names of item properties: %q is not", k)
		} else if len(p.Type) == 1 && (p.Type[0] == "array" || p.Type[0] == "object") {
			c.problems.add(path.child("items").child("properties").child(k).child("type"), "must be a scalar type if parent array's x-kubernetes-list-type is map")
		}
		if seen[k] {
			c.problems.add(path.child(extListMapKeys), "must not contain duplicate entries: %q", k)
		}
		seen[k] = true
	}
}

func (c *structuralConverter) str(m map[string]any, key string, path fieldPath) string {
	raw, ok := m[key]
	if !ok || raw == nil {
		return ""
	}
	s, ok := raw.(string)
	if !ok {
		c.problems.add(path.child(key), "must be a string, not %s", unstructured.Describe(raw))
	}
	return s
}

func (c *structuralConverter) boolean(m map[string]any, key string, path fieldPath) bool {
	raw, ok := m[key]
	if !ok || raw == nil {
		return false
	}
	b, ok := raw.(bool)
	if !ok {
		c.problems.add(path.child(key), "must be a boolean, not %s", unstructured.Describe(raw))
	}
	return b
}
