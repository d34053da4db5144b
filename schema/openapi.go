package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/validation/spec"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"
)

// v2Warning is returned for every OpenAPI v2 document.
const v2Warning = "OpenAPI v2 carries no default values for built-in types: list items keyed by a " +
	"field the server defaults (a container port's protocol: TCP, ...) will not match live items that " +
	"have the default; custom resource schemas are simplified in v2 and get no structural defaulting " +
	"here; prefer the OpenAPI v3 documents (/openapi/v3/...)"

// AddOpenAPI adds the kinds of an OpenAPI document as a cluster serves it:
// v3 (/openapi/v3/apis/<group>/<version>, /openapi/v3/api/v1) or v2
// (/openapi/v2), detected from the document, JSON or YAML. Every model
// with an x-kubernetes-group-version-kind extension becomes the Type of
// those GVKs, replacing what the registry knew (the embedded built-in
// schema, a CRD, an earlier document). The REST resource, scope and
// subresources come from the document's paths, or else from what the
// registry knew. Kinds outside the built-in API groups get structural
// defaulting from the document's `default` values (v3 only: v2 drops
// nullable, which defaulting needs).
//
// The warnings say what the document cannot tell (v2 has no defaults).
func (r *Registry) AddOpenAPI(origin string, data []byte) (warnings []string, err error) {
	fail := func(path string, err error) error {
		return &Error{Origin: origin, Document: -1, Path: path, Err: err}
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, fail("", errors.New("empty document"))
	}
	if data[0] != '{' {
		j, err := yaml.YAMLToJSON(data)
		if err != nil {
			return nil, fail("", fmt.Errorf("invalid YAML: %w", err))
		}
		data = j
	}

	var doc openAPIDocument
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fail("", fmt.Errorf("not an OpenAPI document: %w", err))
	}
	var (
		models  map[string]*spec.Schema
		source  Source
		defined string
	)
	switch {
	case strings.HasPrefix(doc.OpenAPI, "3."):
		source, defined = SourceOpenAPIV3, "components.schemas"
		if doc.Components != nil {
			models = doc.Components.Schemas
		}
	case doc.Swagger == "2.0":
		source, defined = SourceOpenAPIV2, "definitions"
		models = doc.Definitions
		warnings = append(warnings, origin+": "+v2Warning)
	default:
		return nil, fail("", errors.New(`not an OpenAPI document: neither "openapi": "3.x" nor "swagger": "2.0"`))
	}
	if len(models) == 0 {
		return nil, fail(defined, errors.New("no schemas"))
	}

	modelNames := make([]string, 0, len(models))
	for name := range models {
		modelNames = append(modelNames, name)
	}
	sort.Strings(modelNames)
	for _, name := range modelNames {
		if models[name] == nil {
			return nil, fail(defined+"."+name, errors.New("the model is null"))
		}
		normalizeDefaults(models[name])
	}
	converted, err := convertModels(models)
	if err != nil {
		return nil, fail(defined, fmt.Errorf("converting to structured-merge-diff types: %w", err))
	}
	sort.Slice(converted.Types, func(i, j int) bool { return converted.Types[i].Name < converted.Types[j].Name })
	parsed := &smdschema.Schema{Types: converted.Types}
	resources := resourcesFromPaths(doc.Paths)

	var added []*Type
	names := make([]string, 0, len(models))
	for name := range models {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		model := models[name]
		if strings.HasPrefix(name, "io.k8s.apimachinery.") {
			continue // DeleteOptions, WatchEvent, Status...: not objects anyone applies
		}
		for _, gvk := range modelGVKs(model.Extensions) {
			typeName := name
			t := &Type{
				GVK:       gvk,
				Parseable: typed.ParseableType{Schema: parsed, TypeRef: smdschema.TypeRef{NamedType: &typeName}},
				Source:    source,
				Origin:    origin,
				// A cluster's document lists what it serves.
				Served: true,
			}
			existing, _ := r.current(gvk)
			if existing != nil {
				t.Conversion = existing.Conversion
			}
			if info, ok := resources[gvk]; ok {
				t.Resource, t.Namespaced, t.Status = info.resource, info.namespaced, info.status
				if info.scale {
					t.Scale = &ScaleSubresource{}
					if existing != nil && existing.Scale != nil {
						*t.Scale = *existing.Scale
					}
				}
			} else if existing != nil {
				t.Resource, t.Namespaced, t.Status, t.Scale = existing.Resource, existing.Namespaced, existing.Status, existing.Scale
			}
			switch {
			case existing != nil && existing.Default != nil:
				t.Default, t.DefaultKeepingNulls, t.PruneNulls = existing.Default, existing.DefaultKeepingNulls, existing.PruneNulls
			case source == SourceOpenAPIV3 && !r.isBuiltinGroup(gvk.Group):
				d := &structuralDefaulter{root: model, prunesNulls: true}
				t.Default, t.DefaultKeepingNulls, t.PruneNulls = d.apply, d.applyKeepingNulls, d.pruneNulls
			}
			added = append(added, t)
		}
	}
	if len(added) == 0 {
		warnings = append(warnings, origin+": no model carries "+extGVK+": no kinds added")
	}
	r.put(added)
	return warnings, nil
}

// normalizeDefaults rewrites the default values of a decoded document's
// schema in the API server's form: kube-openapi decodes every number as a
// float64, where the server holds integers as int64.
func normalizeDefaults(s *spec.Schema) {
	if s == nil {
		return
	}
	if s.Default != nil {
		s.Default = integralFloats(s.Default)
	}
	for name, p := range s.Properties {
		normalizeDefaults(&p)
		s.Properties[name] = p
	}
	if s.Items != nil {
		normalizeDefaults(s.Items.Schema)
		for i := range s.Items.Schemas {
			normalizeDefaults(&s.Items.Schemas[i])
		}
	}
	if s.AdditionalProperties != nil {
		normalizeDefaults(s.AdditionalProperties.Schema)
	}
	for i := range s.AllOf {
		normalizeDefaults(&s.AllOf[i])
	}
}

// integralFloats returns v with every float64 that holds an integer as an
// int64.
func integralFloats(v any) any {
	switch v := v.(type) {
	case float64:
		if v == math.Trunc(v) && v >= math.MinInt64 && v < math.MaxInt64 {
			return int64(v)
		}
		return v
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = integralFloats(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = integralFloats(x)
		}
		return out
	}
	return v
}

// isBuiltinGroup reports an API group of the embedded built-in kinds: their
// defaulting is Go code in the API server, not schema defaults.
func (r *Registry) isBuiltinGroup(group string) bool {
	return r.BuiltinGroup(group)
}

// modelGVKs reads the x-kubernetes-group-version-kind extension.
func modelGVKs(ext spec.Extensions) []GVK {
	raw, ok := ext[extGVK]
	if !ok {
		return nil
	}
	var list []any
	switch v := raw.(type) {
	case []any:
		list = v
	case map[string]any:
		list = []any{v}
	}
	var out []GVK
	for _, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		g, _ := m["group"].(string)
		v, _ := m["version"].(string)
		k, _ := m["kind"].(string)
		if v != "" && k != "" {
			out = append(out, GVK{Group: g, Version: v, Kind: k})
		}
	}
	return out
}

// openAPIDocument is the part of an OpenAPI v3 or v2 document that
// matters here: the schemas and the kinds of the paths' operations.
type openAPIDocument struct {
	OpenAPI     string                  `json:"openapi"`
	Swagger     string                  `json:"swagger"`
	Definitions map[string]*spec.Schema `json:"definitions"`
	Components  *struct {
		Schemas map[string]*spec.Schema `json:"schemas"`
	} `json:"components"`
	Paths map[string]pathItem `json:"paths"`
}

type pathItem struct {
	Get, Put, Patch, Post, Delete *operation
}

func (p pathItem) operations() []*operation {
	var out []*operation
	for _, op := range []*operation{p.Get, p.Put, p.Patch, p.Post, p.Delete} {
		if op != nil {
			out = append(out, op)
		}
	}
	return out
}

type operation struct {
	GVK any `json:"x-kubernetes-group-version-kind"`
}

type pathResource struct {
	resource      string
	namespaced    bool
	status, scale bool
}

// resourcesFromPaths reads the REST resources from a document's paths:
// /apis/<group>/<version>[/namespaces/{namespace}]/<plural>/{name}[/<sub>],
// with the kind from the operations' x-kubernetes-group-version-kind.
func resourcesFromPaths(paths map[string]pathItem) map[GVK]pathResource {
	type gvr struct{ group, version, resource string }
	kinds := map[gvr]GVK{}
	scope := map[gvr]bool{}
	subs := map[gvr]map[string]bool{}
	for p, item := range paths {
		group, version, segs, ok := splitAPIPath(p)
		if !ok || len(segs) == 0 || segs[0] == "watch" {
			continue
		}
		namespaced := false
		if len(segs) >= 2 && segs[0] == "namespaces" && segs[1] == "{namespace}" {
			namespaced, segs = true, segs[2:]
		}
		if len(segs) < 2 || segs[1] != "{name}" || len(segs) > 3 {
			continue
		}
		key := gvr{group, version, segs[0]}
		if len(segs) == 3 {
			if subs[key] == nil {
				subs[key] = map[string]bool{}
			}
			subs[key][segs[2]] = true
			continue
		}
		for _, op := range item.operations() {
			if gvks := modelGVKs(spec.Extensions{extGVK: op.GVK}); len(gvks) == 1 {
				kinds[key] = gvks[0]
				scope[key] = namespaced
				break
			}
		}
	}
	out := map[GVK]pathResource{}
	for key, gvk := range kinds {
		out[gvk] = pathResource{
			resource:   key.resource,
			namespaced: scope[key],
			status:     subs[key]["status"],
			scale:      subs[key]["scale"],
		}
	}
	return out
}

// splitAPIPath splits /api/v1/... and /apis/<group>/<version>/...
func splitAPIPath(p string) (group, version string, rest []string, ok bool) {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(segs) >= 2 && segs[0] == "api":
		return "", segs[1], segs[2:], true
	case len(segs) >= 3 && segs[0] == "apis":
		return segs[1], segs[2], segs[3:], true
	}
	return "", "", nil, false
}

// convertModels is schemaconv.ToSchemaFromOpenAPI, with a panic on a malformed document
// (a null schema deep inside, say) turned into an error.
func convertModels(models map[string]*spec.Schema) (out *smdschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("malformed schema: %v", r)
		}
	}()
	out, err = schemaconv.ToSchemaFromOpenAPI(models, false)
	if err != nil {
		// One line per model, met in Go's map order: sorted, the message is stable.
		lines := strings.Split(err.Error(), "\n")
		sort.Strings(lines)
		err = errors.New(strings.Join(lines, "\n"))
	}
	return out, err
}
