package smpmeta

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// tag is a field's patchStrategy and patchMergeKey struct tags.
type tag struct{ strategy, key string }

// Native reports whether a Helm client knows gvk as a Go type (client-go's scheme and
// apiextensions.k8s.io v1 and v1beta1), and so patches it with a strategic merge patch.
func Native(gvk schema.GVK) bool {
	return nativeKinds()[gvk.Group+"/"+gvk.Version+"/"+gvk.Kind] ||
		gvk.Group == "" && nativeKinds()[gvk.Version+"/"+gvk.Kind]
}

// For is the patch metadata of objects of type t, read from its schema: the metadata of
// the Go struct of a built-in kind.
func For(t *schema.Type) strategicpatch.LookupPatchMeta {
	p := t.Parseable
	return node{s: p.Schema, ref: p.TypeRef}
}

// node is one type of the schema, as the struct field that holds it.
type node struct {
	s   *smdschema.Schema
	ref smdschema.TypeRef
	// list is set on the node of a list's element (LookupPatchMetadataForSlice).
}

var _ strategicpatch.LookupPatchMeta = node{}

func (n node) atom() (smdschema.Atom, bool) { return n.s.Resolve(n.ref) }

// shape is the reflect.Kind name of the Go type the node stands for, as upstream prints it.
func (n node) shape() string {
	a, ok := n.atom()
	switch {
	case !ok:
		return "invalid"
	case a.Map != nil && a.List == nil && a.Scalar == nil:
		if isStruct(a.Map) {
			return "struct"
		}
		return "map"
	case a.List != nil && a.Map == nil:
		return "slice"
	case a.Scalar != nil && a.Map == nil && a.List == nil:
		switch *a.Scalar {
		case smdschema.Numeric:
			return "int64"
		case smdschema.Boolean:
			return "bool"
		}
		return "string"
	}
	// An untyped value (runtime.RawExtension, apiextensions JSON) is a struct in Go.
	return "struct"
}

func isStruct(m *smdschema.Map) bool {
	return m.ElementType.NamedType == nil && m.ElementType.Inlined.Equals(&smdschema.Atom{})
}

// typeName is the Go name of a named struct type (the last part of its OpenAPI name).
func (n node) typeName() string {
	if n.ref.NamedType == nil {
		return ""
	}
	name := *n.ref.NamedType
	return name[strings.LastIndex(name, ".")+1:]
}

// LookupPatchMetadataForStruct finds field key of a struct, as encoding/json would (its
// exact name, else one equal but for case), and says how to patch it.
func (n node) LookupPatchMetadataForStruct(key string) (strategicpatch.LookupPatchMeta, strategicpatch.PatchMeta, error) {
	var pm strategicpatch.PatchMeta
	a, ok := n.atom()
	if shape := n.shape(); !ok || shape != "struct" {
		return nil, pm, fmt.Errorf("merging an object in json but data type is not struct, instead is: %s", shape)
	}
	var found *smdschema.StructField
	if a.Map != nil {
		for i := range a.Map.Fields {
			f := &a.Map.Fields[i]
			if f.Name == key {
				found = f
				break
			}
			if found == nil && strings.EqualFold(f.Name, key) {
				found = f
			}
		}
	}
	if found == nil {
		return nil, pm, fmt.Errorf("unable to find api field in struct %s for the json field %q", n.typeName(), key)
	}
	var t tag
	if n.ref.NamedType != nil {
		t = tagged()[*n.ref.NamedType][found.Name]
	}
	pm.SetPatchStrategies(strings.Split(t.strategy, ","))
	pm.SetPatchMergeKey(t.key)
	return node{s: n.s, ref: found.Type}, pm, nil
}

// LookupPatchMetadataForSlice is LookupPatchMetadataForStruct for a list-valued field:
// the metadata of its items.
func (n node) LookupPatchMetadataForSlice(key string) (strategicpatch.LookupPatchMeta, strategicpatch.PatchMeta, error) {
	sub, pm, err := n.LookupPatchMetadataForStruct(key)
	if err != nil {
		return nil, strategicpatch.PatchMeta{}, err
	}
	field := sub.(node)
	a, ok := field.atom()
	if !ok || a.List == nil || a.Map != nil || a.Scalar != nil {
		// Upstream names the kind of the struct the field is in.
		return nil, strategicpatch.PatchMeta{}, fmt.Errorf("expected slice or array type, but got: %s", n.shape())
	}
	return node{s: n.s, ref: a.List.ElementType}, pm, nil
}

// Name is the kind of Go type the node stands for ("struct", "map", "slice", …).
func (n node) Name() string { return n.shape() }
