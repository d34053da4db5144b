package schema

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/validation/spec"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

const crdAPIVersion = "apiextensions.k8s.io/v1"

// AddCRD adds the custom resource kinds defined by CustomResourceDefinitions
// (apiextensions.k8s.io/v1): every version the CRD lists, with its schema,
// scope, plural and subresources. data is YAML or JSON; it may hold several
// YAML documents, each a CRD or a List of CRDs (as `kubectl get crd -o
// yaml` prints), and empty documents. origin names the input in errors and
// in Type.Origin (usually the file name).
//
// Either every CRD of data is added or, on error, none is. Errors are
// *Error values naming origin, the CRD and the offending field path.
// Kinds already known (built-in or from earlier inputs) are replaced.
func (r *Registry) AddCRD(origin string, data []byte) error {
	docs, err := decodeDocuments(data)
	if err != nil {
		return &Error{Origin: origin, Document: -1, Err: err}
	}
	var all []*Type
	var errs []error
	for i, d := range docs {
		docIndex := i
		if len(docs) == 1 {
			docIndex = -1
		}
		if d.err != nil {
			errs = append(errs, &Error{Origin: origin, Document: docIndex, Err: d.err})
			continue
		}
		if d.obj == nil {
			continue
		}
		objs := []map[string]any{d.obj}
		items, isList := listItems(d.obj)
		if isList {
			objs = items
		}
		for j, obj := range objs {
			types, err := r.crdTypes(origin, docIndex, obj, false)
			if err != nil {
				prefix := ""
				if isList {
					prefix = fmt.Sprintf("items[%d].", j)
				}
				addLines(err, d, prefix)
				errs = append(errs, err)
				continue
			}
			all = append(all, types...)
		}
	}
	if len(errs) > 0 {
		return joinErrors(errs)
	}
	r.putCRD(all)
	return nil
}

// joinErrors returns the only error as it is, or all of them joined (one
// per line).
func joinErrors(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// AddCRDObject adds one CustomResourceDefinition given as a decoded object
// (the CLI finds CRDs among its inputs). See AddCRD.
func (r *Registry) AddCRDObject(origin string, obj map[string]any) error {
	norm, _ := unstructured.Normalize(obj).(map[string]any)
	types, err := r.crdTypes(origin, -1, norm, false)
	if err != nil {
		return err
	}
	r.putCRD(types)
	return nil
}

// AddStoredCRDObject adds one CustomResourceDefinition as the API server holds it (read
// from a cluster or a dump of one): the schema of objects that exist, not a request. The
// server accepted it once, maybe under rules since tightened (a legacy CRD whose schema
// breaks the structural rules: an array without items, no type at the root), and types its
// objects as apiextensions-apiserver does (its OpenAPI builder's AllowNonStructural): a
// version's schema is used as far as it can be read, a schema the field manager cannot
// type makes its versions deduced. Only a CRD that names no kind fails.
func (r *Registry) AddStoredCRDObject(origin string, obj map[string]any) error {
	norm, _ := unstructured.Normalize(obj).(map[string]any)
	types, err := r.crdTypes(origin, -1, norm, true)
	if err != nil {
		return err
	}
	r.putCRD(types)
	return nil
}

// listItems returns the items of a v1 List (or any *List kind with items).
func listItems(obj map[string]any) ([]map[string]any, bool) {
	kind, _ := obj["kind"].(string)
	if !strings.HasSuffix(kind, "List") {
		return nil, false
	}
	raw, ok := obj["items"].([]any)
	if !ok {
		return nil, false
	}
	items := make([]map[string]any, 0, len(raw))
	for _, it := range raw {
		m, _ := it.(map[string]any)
		items = append(items, m)
	}
	return items, true
}

// crdVersion is what one entry of spec.versions says.
type crdVersion struct {
	name      string
	path      fieldPath
	schema    any // openAPIV3Schema, nil if absent
	status    bool
	scale     *ScaleSubresource
	modelName string
	served    bool
	storage   bool
}

// crdTypes converts one CRD into one Type per version; stored reads it as the server holds
// it (AddStoredCRDObject).
func (r *Registry) crdTypes(origin string, doc int, obj map[string]any, stored bool) ([]*Type, error) {
	e := &Error{Origin: origin, Document: doc}
	fail := func(path fieldPath, format string, args ...any) error {
		e.Path = string(path)
		e.Err = fmt.Errorf(format, args...)
		return e
	}
	if obj == nil {
		return nil, fail("", "not an object")
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if meta, ok := obj["metadata"].(map[string]any); ok {
		e.Object, _ = meta["name"].(string)
	}
	if kind != "CustomResourceDefinition" || !strings.HasPrefix(apiVersion, "apiextensions.k8s.io/") {
		return nil, fail("", "not a CustomResourceDefinition (apiVersion %q, kind %q)", apiVersion, kind)
	}
	if apiVersion != crdAPIVersion {
		return nil, fail("apiVersion", "%s is not served since Kubernetes 1.22: convert the CRD to %s", apiVersion, crdAPIVersion)
	}
	crdSpec, ok := obj["spec"].(map[string]any)
	if !ok {
		return nil, fail("spec", "required")
	}
	group, err := requiredString(crdSpec, "group")
	if err != nil {
		return nil, fail("spec.group", "%v", err)
	}
	names, ok := crdSpec["names"].(map[string]any)
	if !ok {
		return nil, fail("spec.names", "required")
	}
	kindName, err := requiredString(names, "kind")
	if err != nil {
		return nil, fail("spec.names.kind", "%v", err)
	}
	plural, err := requiredString(names, "plural")
	if err != nil {
		return nil, fail("spec.names.plural", "%v", err)
	}
	scope, err := requiredString(crdSpec, "scope")
	if err != nil {
		return nil, fail("spec.scope", "%v", err)
	}
	if scope != "Namespaced" && scope != "Cluster" {
		return nil, fail("spec.scope", "unsupported value %q: must be Namespaced or Cluster", scope)
	}
	preserveUnknownFields := false
	if raw, ok := crdSpec["preserveUnknownFields"]; ok && raw != nil {
		b, ok := raw.(bool)
		if !ok {
			return nil, fail("spec.preserveUnknownFields", "must be a boolean, not %s", unstructured.Describe(raw))
		}
		preserveUnknownFields = b
	}
	conversion := ConversionNone
	if conv, ok := crdSpec["conversion"].(map[string]any); ok {
		switch strategy, _ := conv["strategy"].(string); strategy {
		case "", string(ConversionNone):
		case string(ConversionWebhook):
			conversion = ConversionWebhook
		default:
			return nil, fail("spec.conversion.strategy", "unsupported value %q: must be None or Webhook", strategy)
		}
	}
	rawVersions, ok := crdSpec["versions"].([]any)
	if !ok || len(rawVersions) == 0 {
		return nil, fail("spec.versions", "must have at least one version")
	}
	if e.Object == "" {
		e.Object = plural + "." + group
	}

	var versions []crdVersion
	seen := map[string]bool{}
	for i, rv := range rawVersions {
		path := fieldPath("spec.versions").index(i)
		v, ok := rv.(map[string]any)
		if !ok {
			return nil, fail(path, "must be an object, not %s", unstructured.Describe(rv))
		}
		cv := crdVersion{path: path}
		if cv.name, err = requiredString(v, "name"); err != nil {
			return nil, fail(path.child("name"), "%v", err)
		}
		if seen[cv.name] {
			return nil, fail(path.child("name"), "duplicate version %q", cv.name)
		}
		seen[cv.name] = true
		cv.storage, _ = v["storage"].(bool)
		switch served := v["served"].(type) {
		case bool:
			cv.served = served
		case nil:
			// Absent is false, as the server decodes it: the version is not served.
		default:
			return nil, fail(path.child("served"), "must be a boolean, not %s", unstructured.Describe(served))
		}
		cv.modelName = modelName(group, cv.name, kindName)
		if s, ok := v["schema"].(map[string]any); ok {
			cv.schema = s["openAPIV3Schema"]
		}
		if sub, ok := v["subresources"].(map[string]any); ok {
			if st, ok := sub["status"]; ok && st != nil {
				cv.status = true
			}
			if sc, ok := sub["scale"].(map[string]any); ok {
				scale := &ScaleSubresource{}
				scalePath := path.child("subresources").child("scale")
				if scale.SpecReplicasPath, err = requiredString(sc, "specReplicasPath"); err != nil {
					return nil, fail(scalePath.child("specReplicasPath"), "%v", err)
				}
				if scale.StatusReplicasPath, err = requiredString(sc, "statusReplicasPath"); err != nil {
					return nil, fail(scalePath.child("statusReplicasPath"), "%v", err)
				}
				scale.LabelSelectorPath, _ = sc["labelSelectorPath"].(string)
				cv.scale = scale
			}
		}
		versions = append(versions, cv)
	}

	// The structural schema of each version: validated as written (the
	// form defaulting walks), then with the metadata the API server adds
	// (the form the SMD type is built from).
	models := map[string]*spec.Schema{}
	plain := map[string]*spec.Schema{}
	validations := map[string]*crdschema.Schema{}
	var pathErrs []error
	for _, cv := range versions {
		if cv.schema == nil {
			continue
		}
		p := &problems{}
		base := cv.path.child("schema").child("openAPIV3Schema")
		plain[cv.name] = (&structuralConverter{problems: p}).convert(cv.schema, base, rootLevel)
		if !stored {
			for _, pe := range p.list {
				pathErrs = append(pathErrs, &Error{Origin: origin, Document: doc, Object: e.Object, Path: string(pe.path), Err: errors.New(pe.msg)})
			}
			if len(p.list) > 0 {
				continue
			}
		}
		parsed, err := crdschema.Parse(cv.schema)
		switch {
		case err == nil:
			validations[cv.name] = parsed
		case !stored:
			pathErrs = append(pathErrs, &Error{Origin: origin, Document: doc, Object: e.Object, Path: string(base), Err: err})
			continue
		}
		m := (&structuralConverter{injectMeta: true, problems: &problems{}}).convert(cv.schema, base, rootLevel)
		m.AddExtension(extGVK, []any{map[string]any{"group": group, "version": cv.name, "kind": kindName}})
		models[cv.modelName] = m
	}
	if len(pathErrs) > 0 {
		return nil, joinErrors(pathErrs)
	}

	var parsed *smdschema.Schema
	if len(models) > 0 {
		converted, err := schemaconv.ToSchemaFromOpenAPI(models, preserveUnknownFields)
		switch {
		case err == nil:
			types := r.withBuiltinDependencies(converted.Types, preserveUnknownFields)
			sort.Slice(types, func(i, j int) bool { return types[i].Name < types[j].Name })
			parsed = &smdschema.Schema{Types: types}
		case stored:
			// The field manager of a CRD it cannot type falls back to the deduced type.
			models = nil
		default:
			return nil, fail("spec.versions", "converting the schemas to structured-merge-diff types: %w", err)
		}
	}

	storageVersion := ""
	for _, cv := range versions {
		if cv.storage {
			storageVersion = cv.name
		}
	}
	crdOrigin := e.Object
	if origin != "" {
		crdOrigin = origin + ": " + e.Object
	}
	out := make([]*Type, 0, len(versions))
	for _, cv := range versions {
		t := &Type{
			GVK:            GVK{Group: group, Version: cv.name, Kind: kindName},
			Resource:       plural,
			Namespaced:     scope == "Namespaced",
			Status:         cv.status,
			Scale:          cv.scale,
			Source:         SourceCRD,
			Origin:         crdOrigin,
			Validation:     &crdschema.Validation{Schema: validations[cv.name], PreserveUnknownFields: preserveUnknownFields},
			Served:         cv.served,
			Conversion:     conversion,
			StorageVersion: storageVersion,
		}
		if _, ok := models[cv.modelName]; ok {
			name := cv.modelName
			t.Parseable = typed.ParseableType{Schema: parsed, TypeRef: smdschema.TypeRef{NamedType: &name}}
			d := &structuralDefaulter{root: plain[cv.name], prunesNulls: !preserveUnknownFields}
			t.Default, t.DefaultKeepingNulls = d.apply, d.applyKeepingNulls
			if d.prunesNulls {
				t.PruneNulls = d.pruneNulls
				root := plain[cv.name]
				t.PruneUnknown = func(obj map[string]any) { pruneUnknown(obj, root, true) }
			}
		} else {
			t.Parseable = typed.DeducedParseableType
			t.Deduced = true
		}
		out = append(out, t)
	}
	return out, nil
}

// modelName names a CRD version's type as the API server does:
// the group reversed, the version and the kind ("com.example.ops.v1.Backup").
func modelName(group, version, kind string) string {
	parts := strings.Split(group, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".") + "." + version + "." + kind
}

func requiredString(m map[string]any, key string) (string, error) {
	raw, ok := m[key]
	if !ok || raw == nil {
		return "", errors.New("required")
	}
	s, ok := raw.(string)
	if !ok {
		return "", fmt.Errorf("must be a string, not %s", unstructured.Describe(raw))
	}
	if s == "" {
		return "", errors.New("must not be empty")
	}
	return s, nil
}

// withBuiltinDependencies appends the built-in types that types refer to
// but do not define (ObjectMeta and what it refers to), so that the result
// is a complete schema. When the CRD sets spec.preserveUnknownFields, the
// API server converts those built-in types with unknown fields preserved
// too; the copies are adjusted the same way.
func (r *Registry) withBuiltinDependencies(types []smdschema.TypeDef, preserveUnknownFields bool) []smdschema.TypeDef {
	defined := make(map[string]bool, len(types))
	for _, td := range types {
		defined[td.Name] = true
	}
	var queue []string
	enqueue := func(name string) {
		if !defined[name] {
			defined[name] = true
			queue = append(queue, name)
		}
	}
	for i := range types {
		forEachNamedRef(&types[i].Atom, enqueue)
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		td, ok := r.release.Type(name)
		if !ok {
			continue // left unresolved; SMD reports it when the type is used
		}
		if preserveUnknownFields {
			td = smdschema.TypeDef{Name: td.Name, Atom: preserveUnknown(td.Atom)}
		}
		types = append(types, td)
		forEachNamedRef(&td.Atom, enqueue)
	}
	return types
}

// forEachNamedRef calls f with every type name an atom refers to.
func forEachNamedRef(a *smdschema.Atom, f func(string)) {
	visit := func(tr *smdschema.TypeRef) {
		if tr.NamedType != nil {
			f(*tr.NamedType)
		}
		forEachNamedRef(&tr.Inlined, f)
	}
	if a.List != nil {
		visit(&a.List.ElementType)
	}
	if a.Map != nil {
		for i := range a.Map.Fields {
			visit(&a.Map.Fields[i].Type)
		}
		visit(&a.Map.ElementType)
	}
}

// preserveUnknown returns a copy of an atom in which every struct (a map
// without an element type) accepts unknown fields with the deduced type,
// as kube-openapi's converter builds it when unknown fields are preserved.
func preserveUnknown(a smdschema.Atom) smdschema.Atom {
	out := smdschema.Atom{Scalar: a.Scalar}
	if a.List != nil {
		l := *a.List
		l.ElementType = preserveUnknownRef(l.ElementType)
		out.List = &l
	}
	if a.Map != nil {
		m := &smdschema.Map{
			Unions:              a.Map.Unions,
			ElementType:         preserveUnknownRef(a.Map.ElementType),
			ElementRelationship: a.Map.ElementRelationship,
		}
		if a.Map.ElementType.NamedType == nil && a.Map.ElementType.Inlined == (smdschema.Atom{}) {
			deduced := "__untyped_deduced_"
			m.ElementType = smdschema.TypeRef{NamedType: &deduced}
		}
		m.Fields = make([]smdschema.StructField, len(a.Map.Fields))
		for i, f := range a.Map.Fields {
			f.Type = preserveUnknownRef(f.Type)
			m.Fields[i] = f
		}
		out.Map = m
	}
	return out
}

func preserveUnknownRef(tr smdschema.TypeRef) smdschema.TypeRef {
	if tr.Inlined != (smdschema.Atom{}) {
		tr.Inlined = preserveUnknown(tr.Inlined)
	}
	return tr
}
