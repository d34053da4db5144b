package defaulting

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// TestPatchMetaMatchesStructTags holds internal/defaults' PatchMeta, the strategic merge
// patch metadata read from the generated table, to strategicpatch.PatchMetaFromStruct over
// the Go types themselves (what kube-apiserver and kubectl use): for every served kind,
// every field a patch can reach — struct fields, through pointers and lists, not inside
// the types with a JSON form of their own (Quantity, IntOrString, Time …), whose JSON is no
// object of their fields — gives the same patch strategies, merge key and error. The kind
// names (Name) are compared but for the width of numbers, which the table does not keep
// (int32 is named int64): only an error about merging into a number could say it.
func TestPatchMetaMatchesStructTags(t *testing.T) {
	rel := defaults.MustFor(linkedMinor)
	kinds := 0
	for gvk, typ := range scheme().AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || !rel.Known(gvk.GroupVersion().String(), gvk.Kind) {
			continue
		}
		ours, ok := rel.PatchMeta(gvk.GroupVersion().String(), gvk.Kind)
		if !ok {
			t.Errorf("%v: no PatchMeta", gvk)
			continue
		}
		theirs, err := strategicpatch.NewPatchMetaFromStruct(reflect.New(typ).Interface())
		if err != nil {
			t.Fatal(err)
		}
		kinds++
		comparePatchMeta(t, gvk.String(), ours, theirs, typ, map[reflect.Type]bool{})
	}
	if kinds < 70 {
		t.Errorf("%d kinds compared", kinds)
	}
}

// jsonFields are the JSON names of a struct's fields as encoding/json sees them, inline
// structs' promoted.
func jsonFields(typ reflect.Type) []string {
	var out []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if (f.Anonymous && name == "") || strings.Contains(opts, "inline") {
			if ft.Kind() == reflect.Struct {
				out = append(out, jsonFields(ft)...)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

func comparePatchMeta(t *testing.T, path string, ours, theirs strategicpatch.LookupPatchMeta, typ reflect.Type, seen map[reflect.Type]bool) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || seen[typ] || ownJSON(typ) {
		return
	}
	seen[typ] = true
	for _, k := range append(jsonFields(typ), "noSuchField") {
		p := path + "." + k
		os, om, oerr := ours.LookupPatchMetadataForStruct(k)
		ts, tm, terr := theirs.LookupPatchMetadataForStruct(k)
		if (oerr == nil) != (terr == nil) || oerr != nil && oerr.Error() != terr.Error() {
			t.Errorf("%s: error %v, the Go type's %v", p, oerr, terr)
			continue
		}
		if oerr != nil {
			continue
		}
		if !reflect.DeepEqual(om.GetPatchStrategies(), tm.GetPatchStrategies()) || om.GetPatchMergeKey() != tm.GetPatchMergeKey() {
			t.Errorf("%s: strategies %q key %q, the Go type's %q %q", p, om.GetPatchStrategies(), om.GetPatchMergeKey(), tm.GetPatchStrategies(), tm.GetPatchMergeKey())
		}
		ft := ts.(strategicpatch.PatchMetaFromStruct).T
		if os.Name() != ts.Name() && !numeric(ts.Name()) {
			t.Errorf("%s: kind %s, the Go type's %s", p, os.Name(), ts.Name())
		}
		base := ft
		for base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		switch base.Kind() {
		case reflect.Struct:
			comparePatchMeta(t, p, os, ts, base, seen)
		case reflect.Slice:
			oe, _, oerr := ours.LookupPatchMetadataForSlice(k)
			te, _, terr := theirs.LookupPatchMetadataForSlice(k)
			if (oerr == nil) != (terr == nil) {
				t.Errorf("%s[]: error %v, the Go type's %v", p, oerr, terr)
				continue
			}
			if oerr == nil {
				comparePatchMeta(t, p+"[]", oe, te, te.(strategicpatch.PatchMetaFromStruct).T, seen)
			}
		}
	}
}

// ownJSON reports a type with a JSON form of its own.
func ownJSON(typ reflect.Type) bool {
	m, u := reflect.TypeFor[json.Marshaler](), reflect.TypeFor[json.Unmarshaler]()
	return typ.Implements(m) || reflect.PointerTo(typ).Implements(m) || reflect.PointerTo(typ).Implements(u)
}

// numeric reports a number kind's name.
func numeric(kind string) bool {
	return strings.HasPrefix(kind, "int") || strings.HasPrefix(kind, "uint") || strings.HasPrefix(kind, "float")
}
