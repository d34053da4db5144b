package defaults

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// PatchMeta is what a strategic merge patch of a built-in kind follows: the patchStrategy
// and patchMergeKey struct tags of the fields of the kind's Go type, found field by field as
// kube-apiserver finds them (strategicpatch.PatchMetaFromStruct over the Go type, which the
// server's PATCH handler and kubectl's edit, set and patch commands use). false for a kind
// that is not built in: the server takes no strategic merge patch of a custom resource.
func (r Release) PatchMeta(apiVersion, kind string) (strategicpatch.LookupPatchMeta, bool) {
	t, ok := r.rootType(apiVersion, kind)
	if !ok {
		return nil, false
	}
	return patchMeta{t}, true
}

// patchMeta is one Go type of generatedTypes as strategicpatch.PatchMetaFromStruct sees it:
// PatchMetaFromStruct walks reflect types with encoding/json's field rules; this walks the
// same facts from the generated table (fields by JSON name, inline structs promoted, the
// two tags), and fails where it fails, with its words.
type patchMeta struct{ t int }

// byteElem stands for the uint8 elements of a []byte, which the table does not list.
const byteElem = -1

var _ strategicpatch.LookupPatchMeta = patchMeta{}

// LookupPatchMetadataForStruct is the field key of a struct: its type and tags.
func (p patchMeta) LookupPatchMetadataForStruct(key string) (strategicpatch.LookupPatchMeta, strategicpatch.PatchMeta, error) {
	t := p.t
	if t == byteElem {
		return nil, strategicpatch.PatchMeta{}, fmt.Errorf("merging an object in json but data type is not struct, instead is: uint8")
	}
	if generatedTypes[t].kind == kindPointer {
		t = generatedTypes[t].elem
	}
	if goKind(t) != "struct" {
		return nil, strategicpatch.PatchMeta{}, fmt.Errorf("merging an object in json but data type is not struct, instead is: %s", goKind(t))
	}
	f, ok := fieldByJSONName(t, key)
	if !ok {
		return nil, strategicpatch.PatchMeta{}, fmt.Errorf("unable to find api field in struct %s for the json field %q", goName(t), key)
	}
	var meta strategicpatch.PatchMeta
	// The struct tag split as the library splits it: no tag is one empty strategy.
	meta.SetPatchStrategies(strings.Split(f.patchStrategy(), ","))
	meta.SetPatchMergeKey(f.patchMergeKey())
	return patchMeta{f.typ}, meta, nil
}

// LookupPatchMetadataForSlice is the field key of a struct holding a list: the list's
// element type and the field's tags.
func (p patchMeta) LookupPatchMetadataForSlice(key string) (strategicpatch.LookupPatchMeta, strategicpatch.PatchMeta, error) {
	sub, meta, err := p.LookupPatchMetadataForStruct(key)
	if err != nil {
		return nil, strategicpatch.PatchMeta{}, err
	}
	t := sub.(patchMeta).t
	switch generatedTypes[t].kind {
	case kindBytes:
		return patchMeta{byteElem}, meta, nil
	case kindSlice:
		e := generatedTypes[t].elem
		if k := generatedTypes[e].kind; k == kindSlice || k == kindBytes {
			return nil, strategicpatch.PatchMeta{}, errors.New("unexpected slice of slice")
		}
		return patchMeta{e}, meta, nil
	case kindPointer:
		e := generatedTypes[t].elem
		if generatedTypes[e].kind == kindSlice {
			e = generatedTypes[e].elem
		}
		return patchMeta{e}, meta, nil
	}
	// The library names the kind of the struct looked in, not of the field.
	return nil, strategicpatch.PatchMeta{}, fmt.Errorf("expected slice or array type, but got: %s", goKind(p.t))
}

// Name is the Go kind of the type, as reflect names it.
func (p patchMeta) Name() string { return goKind(p.t) }

// fieldByJSONName finds the field encoding/json would decode key into: an exact match of
// a field's JSON name, else the first that matches ignoring case (the fields of inline
// structs among them, in declaration order).
func fieldByJSONName(t int, key string) (fieldDef, bool) {
	var fold *fieldDef
	var found *fieldDef
	var walk func(t int) bool
	walk = func(t int) bool {
		fields := generatedTypes[t].fields()
		for i := range fields {
			f := &fields[i]
			if f.flags&inline != 0 {
				e := f.typ
				if generatedTypes[e].kind == kindPointer {
					e = generatedTypes[e].elem
				}
				if walk(e) {
					return true
				}
				continue
			}
			if f.name() == key {
				found = f
				return true
			}
			if fold == nil && strings.EqualFold(f.name(), key) {
				fold = f
			}
		}
		return false
	}
	walk(t)
	switch {
	case found != nil:
		return *found, true
	case fold != nil:
		return *fold, true
	}
	return fieldDef{}, false
}

// goKind is reflect's name of the Go kind of generated type t. The table keeps one kind
// of each of signed and unsigned integers and floats: their widths (int32, uint8 …) are
// named by the widest.
func goKind(t int) string {
	if t == byteElem {
		return "uint8"
	}
	switch generatedTypes[t].kind {
	case kindString:
		return "string"
	case kindBool:
		return "bool"
	case kindInt:
		return "int64"
	case kindUint:
		return "uint64"
	case kindFloat:
		return "float64"
	case kindBytes, kindSlice:
		return "slice"
	case kindPointer:
		return "ptr"
	case kindMap:
		return "map"
	case kindRaw:
		if generatedTypes[t].name() == "any" {
			return "interface"
		}
	}
	// Structs, and the types with their own JSON form, which are Go structs.
	return "struct"
}

// goName is the Go name of a struct type: the last part of its OpenAPI name.
func goName(t int) string {
	n := generatedTypes[t].name()
	return n[strings.LastIndex(n, ".")+1:]
}
