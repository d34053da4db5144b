package defaults

import (
	"reflect"
	"strings"
	"testing"
)

// The generated tables are records without pointers (strings are positions in
// generatedStrings, fields and kinds runs of their tables): the linker puts them in
// .noptrdata, so the runtime builds no pointer mask of them at start-up and the collector
// never scans them. A string, slice or pointer in a record would move all of it back to
// .data (some 450 KB, 0.2 M instructions of every run's start).
func TestGeneratedTablesHoldNoPointers(t *testing.T) {
	for _, v := range []any{generatedTypes, generatedFields, generatedKinds, generatedReleases} {
		if path := pointerIn(reflect.TypeOf(v), reflect.TypeOf(v).String()); path != "" {
			t.Errorf("%s holds a pointer", path)
		}
	}
}

// pointerIn names the first part of a value of type ty that holds a pointer; "" if none.
func pointerIn(ty reflect.Type, path string) string {
	switch ty.Kind() {
	case reflect.Array:
		return pointerIn(ty.Elem(), path+"[]")
	case reflect.Struct:
		for i := range ty.NumField() {
			if p := pointerIn(ty.Field(i).Type, path+"."+ty.Field(i).Name); p != "" {
				return p
			}
		}
		return ""
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return ""
	}
	return path + " (" + ty.Kind().String() + ")"
}

// Every position a record holds is inside the table it points into, and every struct's
// run of fields and every release's run of kinds follows the previous one.
func TestGeneratedPositionsInRange(t *testing.T) {
	next := int32(0)
	for i, td := range generatedTypes {
		if int(td.nameAt) >= len(generatedStrings) || int(td.pkgAt) >= len(generatedStrings) || td.elem < 0 || td.elem >= len(generatedTypes) {
			t.Fatalf("type %d: out of range: %+v", i, td)
		}
		if td.fieldsEnd > td.fieldsAt {
			if td.fieldsAt != next {
				t.Fatalf("type %d (%s): fields from %d, want %d", i, td.name(), td.fieldsAt, next)
			}
			next = td.fieldsEnd
		}
		for _, f := range td.fields() {
			for _, s := range []text{f.nameAt, f.markerAt, f.patchStrategyAt, f.patchMergeKeyAt} {
				if int(s) >= len(generatedStrings) {
					t.Fatalf("type %d (%s): a field's string %d out of range", i, td.name(), s)
				}
			}
			if f.typ < 0 || f.typ >= len(generatedTypes) {
				t.Fatalf("type %d (%s): field %s of type %d", i, td.name(), f.name(), f.typ)
			}
		}
	}
	if int(next) != len(generatedFields) {
		t.Errorf("the types' fields end at %d of %d", next, len(generatedFields))
	}
	next = 0
	for _, r := range generatedReleases {
		if r.kindsAt != next || r.kindsEnd < r.kindsAt {
			t.Fatalf("1.%d: kinds %d to %d, want from %d", r.minor, r.kindsAt, r.kindsEnd, next)
		}
		next = r.kindsEnd
		for _, k := range r.kinds() {
			if int(k.keyAt) >= len(generatedStrings) || k.typ < 0 || k.typ >= len(generatedTypes) {
				t.Fatalf("1.%d: kind out of range: %+v", r.minor, k)
			}
		}
	}
	if int(next) != len(generatedKinds) {
		t.Errorf("the releases' kinds end at %d of %d", next, len(generatedKinds))
	}
}

// A type's package is its name up to the last dot (the generator writes it beside the
// name, so that the walk does not search each name for it).
func TestTypePackageIsTheNameUpToTheLastDot(t *testing.T) {
	for i := range generatedTypes {
		td := &generatedTypes[i]
		want := ""
		if j := strings.LastIndexByte(td.name(), '.'); j >= 0 {
			want = td.name()[:j]
		}
		if td.pkg() != want {
			t.Errorf("type %d (%s): package %q, want %q", i, td.name(), td.pkg(), want)
		}
	}
}
