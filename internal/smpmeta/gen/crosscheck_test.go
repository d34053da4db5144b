package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/smpmeta"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes/scheme"
)

// TestMetadataMatchesTheGoTypes holds package smpmeta to apimachinery's reflection on
// k8s.io/api's Go types (what Helm and the server use): for every native kind the registry
// serves, every field that holds a struct, a list or a map, down the type tree, gets the
// same patch strategies and merge key, and the same lookups fail.
func TestMetadataMatchesTheGoTypes(t *testing.T) {
	s := runtime.NewScheme()
	must(scheme.AddToScheme(s))
	must(apiextv1beta1.AddToScheme(s))
	must(apiextv1.AddToScheme(s))
	reg := schema.MustNewRegistry(kube.Default())
	var problems []string
	kinds := 0
	for gvk, typ := range s.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") || strings.HasSuffix(gvk.Kind, "Options") {
			continue
		}
		st, ok := reg.Lookup(schema.GVK{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind})
		if !ok || st.Deduced {
			continue
		}
		if !smpmeta.Native(st.GVK) {
			problems = append(problems, fmt.Sprintf("%v: not native", gvk))
		}
		kinds++
		ref, err := strategicpatch.NewPatchMetaFromStruct(reflect.New(typ).Interface())
		if err != nil {
			t.Fatal(err)
		}
		compare(gvk.String(), reflect.New(typ).Interface(), ref, smpmeta.For(st), typ, 0, &problems)
	}
	sort.Strings(problems)
	if kinds < 100 {
		t.Errorf("%d kinds compared", kinds)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// compare walks the Go type's JSON fields that hold structs, lists or maps.
func compare(path string, _ any, want, got strategicpatch.LookupPatchMeta, typ reflect.Type, depth int, problems *[]string) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || depth > 8 {
		return
	}
	for _, name := range jsonFields(typ) {
		f := fieldByJSON(typ, name)
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if reflect.PointerTo(ft).Implements(unmarshaler) {
			// Its JSON is its own (a quantity, a time, int-or-string, a schema or a bool):
			// no patch holds its Go fields.
			continue
		}
		var wSub, gSub strategicpatch.LookupPatchMeta
		var wPM, gPM strategicpatch.PatchMeta
		var wErr, gErr error
		elem := ft
		switch ft.Kind() {
		case reflect.Slice:
			if ft.Elem().Kind() == reflect.Uint8 {
				continue // []byte: a string in JSON
			}
			wSub, wPM, wErr = want.LookupPatchMetadataForSlice(name)
			gSub, gPM, gErr = got.LookupPatchMetadataForSlice(name)
			elem = ft.Elem()
		case reflect.Struct, reflect.Map:
			wSub, wPM, wErr = want.LookupPatchMetadataForStruct(name)
			gSub, gPM, gErr = got.LookupPatchMetadataForStruct(name)
		default:
			continue
		}
		p := path + "." + name
		if (wErr == nil) != (gErr == nil) {
			*problems = append(*problems, fmt.Sprintf("%s: reflection %v, smpmeta %v", p, wErr, gErr))
			continue
		}
		if wErr != nil {
			continue
		}
		if !reflect.DeepEqual(wPM.GetPatchStrategies(), gPM.GetPatchStrategies()) || wPM.GetPatchMergeKey() != gPM.GetPatchMergeKey() {
			*problems = append(*problems, fmt.Sprintf("%s: reflection %q %q, smpmeta %q %q", p, wPM.GetPatchStrategies(), wPM.GetPatchMergeKey(), gPM.GetPatchStrategies(), gPM.GetPatchMergeKey()))
		}
		if elem.Kind() == reflect.Map {
			continue
		}
		compare(p, nil, wSub, gSub, elem, depth+1, problems)
	}
}

var unmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, jsonFields(ft)...)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

func fieldByJSON(t reflect.Type, name string) reflect.StructField {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && n == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if sf := fieldByJSON(ft, name); sf.Name != "" {
					return sf
				}
				continue
			}
		}
		if n == "" {
			n = f.Name
		}
		if n == name {
			return f
		}
	}
	return reflect.StructField{}
}
