package admission

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// A MutatingAdmissionPolicy's mutation is typed with the server's own schema of the kind
// (its OpenAPI v3 document, read back into structured-merge-diff types): here the
// documents are written from the structured-merge-diff types the model already holds, so
// that the helper's plugin reads back exactly those types (list and map types, keys,
// atomic structs, int-or-string scalars).

// openAPIDocs are the OpenAPI v3 documents, by discovery path ("apis/apps/v1"), of every
// served group-version a MutatingAdmissionPolicy of the state may match.
func (c *Chain) openAPIDocs(schemas server.Schemas) map[string]json.RawMessage {
	const group = "admissionregistration.k8s.io"
	groups := map[string]bool{}
	for _, p := range c.cfg.State.List(group, "MutatingAdmissionPolicy", "") {
		for _, r := range unstructured.Objects(unstructured.NestedObject(p, "spec", "matchConstraints"), "resourceRules") {
			for _, g := range unstructured.List(r, "apiGroups") {
				if s, ok := g.(string); ok {
					groups[s] = true
				}
			}
		}
	}
	if len(groups) == 0 {
		return nil
	}
	lister, ok := schemas.(interface{ GVKs() []schema.GVK })
	if !ok {
		return nil
	}
	byGV := map[string][]*schema.Type{}
	for _, gvk := range lister.GVKs() {
		if !groups["*"] && !groups[gvk.Group] {
			continue
		}
		t, ok := schemas.Lookup(gvk)
		if !ok || !t.Served || t.Resource == "" || t.Parseable.Schema == nil || t.Parseable.TypeRef.NamedType == nil {
			continue
		}
		gv := "apis/" + gvk.Group + "/" + gvk.Version
		if gvk.Group == "" {
			gv = "api/" + gvk.Version
		}
		byGV[gv] = append(byGV[gv], t)
	}
	out := map[string]json.RawMessage{}
	for gv, types := range byGV {
		if doc, err := json.Marshal(openAPIDoc(types)); err == nil {
			out[gv] = doc
		}
	}
	return out
}

// openAPIDoc is the document of the kinds of one group-version: every named type they
// reach, the kinds' own with their group, version and kind.
func openAPIDoc(types []*schema.Type) map[string]any {
	components := map[string]any{}
	for _, t := range types {
		w := &openAPIWriter{schema: t.Parseable.Schema, out: components}
		root := *t.Parseable.TypeRef.NamedType
		w.named(root)
		if def, ok := components[root].(map[string]any); ok {
			gvks, _ := def["x-kubernetes-group-version-kind"].([]any)
			def["x-kubernetes-group-version-kind"] = append(gvks, map[string]any{"group": t.GVK.Group, "version": t.GVK.Version, "kind": t.GVK.Kind})
		}
	}
	return map[string]any{"openapi": "3.0.0", "info": map[string]any{"title": "ssa-diff", "version": "v1"}, "paths": map[string]any{},
		"components": map[string]any{"schemas": components}}
}

// openAPIWriter writes the named types of one structured-merge-diff schema.
type openAPIWriter struct {
	schema *smdschema.Schema
	out    map[string]any
}

// commonType reports the types every document's reader knows already (the untyped and
// deduced types), which are referred to, never written.
func commonType(name string) bool { return strings.HasPrefix(name, "__untyped_") }

func (w *openAPIWriter) named(name string) {
	if _, done := w.out[name]; done || commonType(name) {
		return
	}
	def, ok := w.schema.FindNamedType(name)
	if !ok {
		return
	}
	w.out[name] = map[string]any{} // reserved: recursive types stop here
	w.out[name] = w.atom(def.Atom)
}

func (w *openAPIWriter) ref(tr smdschema.TypeRef) map[string]any {
	var s map[string]any
	if tr.NamedType != nil {
		w.named(*tr.NamedType)
		s = map[string]any{"$ref": "#/components/schemas/" + path.Base(*tr.NamedType)}
	} else {
		s = w.atom(tr.Inlined)
	}
	if tr.ElementRelationship != nil {
		switch *tr.ElementRelationship {
		case smdschema.Atomic:
			s["x-kubernetes-map-type"] = "atomic"
		case smdschema.Separable:
			s["x-kubernetes-map-type"] = "granular"
		}
	}
	if tr.Nullable {
		s["nullable"] = true
	}
	return s
}

func (w *openAPIWriter) atom(a smdschema.Atom) map[string]any {
	switch {
	case a.Map != nil && a.List == nil && a.Scalar == nil:
		m := map[string]any{"type": "object"}
		if len(a.Map.Fields) > 0 {
			props := map[string]any{}
			fields := append([]smdschema.StructField(nil), a.Map.Fields...)
			sort.Slice(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
			for _, f := range fields {
				p := w.ref(f.Type)
				if f.Default != nil {
					p["default"] = jsonValue(f.Default)
				}
				props[f.Name] = p
			}
			m["properties"] = props
		}
		if a.Map.ElementType.NamedType != nil || a.Map.ElementType.Inlined != (smdschema.Atom{}) {
			m["additionalProperties"] = w.ref(a.Map.ElementType)
		} else {
			m["additionalProperties"] = false
		}
		switch a.Map.ElementRelationship {
		case smdschema.Atomic:
			m["x-kubernetes-map-type"] = "atomic"
		case smdschema.Separable:
			m["x-kubernetes-map-type"] = "granular"
		}
		return m
	case a.List != nil && a.Map == nil && a.Scalar == nil:
		l := map[string]any{"type": "array", "items": w.ref(a.List.ElementType)}
		switch a.List.ElementRelationship {
		case smdschema.Atomic:
			l["x-kubernetes-list-type"] = "atomic"
		case smdschema.Associative:
			if len(a.List.Keys) > 0 {
				l["x-kubernetes-list-type"] = "map"
				l["x-kubernetes-list-map-keys"] = append([]string(nil), a.List.Keys...)
			} else {
				l["x-kubernetes-list-type"] = "set"
			}
		}
		return l
	case a.Scalar != nil && a.List == nil && a.Map == nil:
		switch *a.Scalar {
		case smdschema.String:
			return map[string]any{"type": "string"}
		case smdschema.Numeric:
			return map[string]any{"type": "number"}
		case smdschema.Boolean:
			return map[string]any{"type": "boolean"}
		}
		return map[string]any{"type": "string", "format": "int-or-string"}
	}
	// A scalar, list or map: untyped, read back as such.
	return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
}

// jsonValue is a default as JSON takes it: the schema's YAML maps keyed by strings.
func jsonValue(v any) any {
	switch x := v.(type) {
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, y := range x {
			out[fmt.Sprint(k)] = jsonValue(y)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, y := range x {
			out[k] = jsonValue(y)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, y := range x {
			out[i] = jsonValue(y)
		}
		return out
	}
	return v
}
