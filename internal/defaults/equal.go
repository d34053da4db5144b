package defaults

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Equality names the comparison a registry strategy makes between the old
// and the new object once both are decoded into their Go type.
type Equality uint8

const (
	// Semantic is apimachinery's equality.Semantic.DeepEqual, what most
	// strategies use: quantities compare by value ("1Gi" equals "1024Mi"),
	// times by instant, and an empty list or map equals a missing one.
	Semantic Equality = iota
	// Reflect is reflect.DeepEqual, what the webhook configurations and
	// NetworkPolicy use: quantities compare as written, and an empty list or
	// map differs from a missing one. Objects that went through Default hold
	// no empty collections; HasEmptyCollection finds those of a request.
	Reflect
)

// Equal reports whether a and b, two values of the field at path (JSON field
// names from the object's root; none compares whole objects) of a built-in
// kind, are equal once decoded into the kind's Go type and compared with eq.
// Decoding gives the Go zero value to what is missing or null, drops fields
// the type does not know, and holds numbers in the field's Go type, so a
// float64 field holding 0 equals one holding 0.0, and an absent string equals
// "". Where a value does not fit its Go type, or the kind or path is unknown,
// the values compare as decoded JSON (unstructured.Equal).
func (r Release) Equal(apiVersion, kind string, eq Equality, a, b any, path ...string) bool {
	if unstructured.Equal(a, b) {
		return true // the same JSON decodes to the same Go value
	}
	t, ok := r.rootType(apiVersion, kind)
	if ok {
		t, ok = fieldType(t, path)
	}
	if !ok {
		return unstructured.Equal(a, b)
	}
	return equalAs(t, eq, a, b)
}

// fieldType follows path from type t through struct fields (inline ones
// included) and pointers.
func fieldType(t int, path []string) (int, bool) {
	for _, name := range path {
		for generatedTypes[t].kind == kindPointer {
			t = generatedTypes[t].elem
		}
		if generatedTypes[t].kind != kindStruct {
			return 0, false
		}
		f, ok := structField(&generatedTypes[t], name)
		if !ok {
			return 0, false
		}
		t = f
	}
	return t, true
}

func structField(td *typeDef, name string) (int, bool) {
	for _, f := range td.fields() {
		if f.flags&inline != 0 {
			if t, ok := structField(&generatedTypes[f.typ], name); ok {
				return t, true
			}
			continue
		}
		if f.name() == name {
			return f.typ, true
		}
	}
	return 0, false
}

// equalAs compares a and b as values of Go type t.
func equalAs(t int, eq Equality, a, b any) bool {
	td := &generatedTypes[t]
	switch td.kind {
	case kindString:
		x, okx := stringOrZero(a)
		y, oky := stringOrZero(b)
		if okx && oky {
			return x == y
		}
	case kindBool:
		x, okx := boolOrZero(a)
		y, oky := boolOrZero(b)
		if okx && oky {
			return x == y
		}
	case kindInt, kindUint:
		x, okx := intOrZero(a)
		y, oky := intOrZero(b)
		if okx && oky {
			return x == y
		}
	case kindFloat:
		x, okx := floatOrZero(a)
		y, oky := floatOrZero(b)
		if okx && oky {
			return x == y
		}
	case kindBytes:
		// Storage keeps whether a []byte was empty or missing, which JSON
		// does not show (omitempty): compare the bytes.
		x, okx := bytesOrNil(a)
		y, oky := bytesOrNil(b)
		if okx && oky {
			return bytes.Equal(x, y)
		}
	case kindPointer:
		if a == nil || b == nil {
			return a == nil && b == nil
		}
		return equalAs(td.elem, eq, a, b)
	case kindSlice:
		x, okx := listOrNil(a)
		y, oky := listOrNil(b)
		if okx && oky {
			if len(x) != len(y) {
				return false
			}
			if eq == Reflect && (x == nil) != (y == nil) {
				return false
			}
			for i := range x {
				if !equalAs(td.elem, eq, x[i], y[i]) {
					return false
				}
			}
			return true
		}
	case kindMap:
		x, okx := mapOrNil(a)
		y, oky := mapOrNil(b)
		if okx && oky {
			if len(x) != len(y) {
				return false
			}
			if eq == Reflect && (x == nil) != (y == nil) {
				return false
			}
			for k, v := range x {
				w, ok := y[k]
				if !ok || !equalAs(td.elem, eq, v, w) {
					return false
				}
			}
			return true
		}
	case kindStruct:
		x, okx := mapOrNil(a)
		y, oky := mapOrNil(b)
		if okx && oky {
			return equalFields(td, eq, x, y)
		}
	case kindQuantity:
		x, okx := quantityOrZero(a)
		y, oky := quantityOrZero(b)
		if okx && oky {
			if eq == Reflect {
				return x.String() == y.String()
			}
			return x.Cmp(y) == 0
		}
	case kindIntOrString:
		x, okx := intOrString(a)
		y, oky := intOrString(b)
		if okx && oky {
			return x == y
		}
	case kindTime, kindMicroTime:
		x, okx := timeOrZero(a)
		y, oky := timeOrZero(b)
		if okx && oky {
			return x.Equal(y)
		}
	case kindDuration:
		x, okx := durationOrZero(a)
		y, oky := durationOrZero(b)
		if okx && oky {
			return x == y
		}
	case kindRaw:
		// Raw extensions and JSON values are held as the bytes of their
		// encoding: equal when they encode alike.
		return unstructured.EqualJSON(a, b)
	case kindSchemaOrBool, kindSchemaOrArray, kindSchemaOrStringArray:
		x, okx := decodeUnion(td.kind, a)
		y, oky := decodeUnion(td.kind, b)
		if okx && oky {
			if x.allows != y.allows || (x.schema == nil) != (y.schema == nil) || len(x.list) != len(y.list) {
				return false
			}
			if x.schema != nil && !equalAs(td.elem, eq, x.schema, y.schema) {
				return false
			}
			for i := range x.list {
				if td.kind == kindSchemaOrStringArray {
					if !unstructured.Equal(x.list[i], y.list[i]) {
						return false
					}
				} else if !equalAs(td.elem, eq, x.list[i], y.list[i]) {
					return false
				}
			}
			return true
		}
	}
	return unstructured.Equal(a, b)
}

// union is the Go value of an apiextensions schema union: JSONSchemaPropsOrBool
// ({Allows, Schema}), JSONSchemaPropsOrArray ({Schema, JSONSchemas}) or
// JSONSchemaPropsOrStringArray ({Schema, Property}).
type union struct {
	allows bool
	schema map[string]any
	list   []any
}

// decodeUnion reads a union as its UnmarshalJSON does: a boolean sets Allows,
// an object is the schema (and Allows true), a list the other member.
func decodeUnion(k typeKind, v any) (union, bool) {
	switch x := v.(type) {
	case nil:
		return union{}, true
	case map[string]any:
		return union{allows: k == kindSchemaOrBool, schema: x}, true
	case bool:
		return union{allows: x}, k == kindSchemaOrBool
	case []any:
		return union{list: x}, k != kindSchemaOrBool
	}
	return union{}, false
}

// intOrString is an IntOrString as its Go value: missing is the integer 0.
func intOrString(v any) (any, bool) {
	if s, ok := v.(string); ok {
		return s, true
	}
	n, ok := intOrZero(v)
	return n, ok
}

// equalFields compares the fields of struct td; those missing are zero.
func equalFields(td *typeDef, eq Equality, x, y map[string]any) bool {
	for _, f := range td.fields() {
		if f.flags&inline != 0 {
			if !equalFields(&generatedTypes[f.typ], eq, x, y) {
				return false
			}
			continue
		}
		if !equalAs(f.typ, eq, x[f.name()], y[f.name()]) {
			return false
		}
	}
	return true
}

// HasEmptyCollection reports whether requested, a value of the field at path
// of a built-in kind as a request decoded it (before defaulting), holds an
// empty list or map that defaulting left empty in defaulted, the same value
// after Default. Decoding makes that a non-nil empty Go value, which
// reflect.DeepEqual tells from the nil that storage (protobuf) gives back for
// every empty collection: a strategy comparing with Reflect sees a change.
func (r Release) HasEmptyCollection(apiVersion, kind string, requested, defaulted any, path ...string) bool {
	t, ok := r.rootType(apiVersion, kind)
	if ok {
		t, ok = fieldType(t, path)
	}
	return ok && hasEmpty(t, requested, defaulted)
}

func hasEmpty(t int, req, def any) bool {
	td := &generatedTypes[t]
	switch td.kind {
	case kindPointer:
		if req != nil {
			return hasEmpty(td.elem, req, def)
		}
	case kindSlice:
		x, ok := req.([]any)
		if !ok {
			return false
		}
		y, _ := def.([]any)
		if len(x) == 0 {
			return len(y) == 0
		}
		if len(x) != len(y) {
			return false // defaulting does not add or drop items; give up
		}
		for i := range x {
			if hasEmpty(td.elem, x[i], y[i]) {
				return true
			}
		}
	case kindMap:
		x, ok := req.(map[string]any)
		if !ok {
			return false
		}
		y, _ := def.(map[string]any)
		if len(x) == 0 {
			return len(y) == 0
		}
		for k, v := range x {
			if hasEmpty(td.elem, v, y[k]) {
				return true
			}
		}
	case kindStruct:
		x, ok := req.(map[string]any)
		if !ok {
			return false
		}
		y, _ := def.(map[string]any)
		return structHasEmpty(td, x, y)
	}
	return false
}

func structHasEmpty(td *typeDef, x, y map[string]any) bool {
	for _, f := range td.fields() {
		if f.flags&inline != 0 {
			if structHasEmpty(&generatedTypes[f.typ], x, y) {
				return true
			}
			continue
		}
		if v, ok := x[f.name()]; ok && hasEmpty(f.typ, v, y[f.name()]) {
			return true
		}
	}
	return false
}

func stringOrZero(v any) (string, bool) {
	if v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok
}

func boolOrZero(v any) (bool, bool) {
	if v == nil {
		return false, true
	}
	b, ok := v.(bool)
	return b, ok
}

func intOrZero(v any) (int64, bool) {
	if v == nil {
		return 0, true
	}
	return unstructured.Int(v)
}

func floatOrZero(v any) (float64, bool) {
	switch x := v.(type) {
	case nil:
		return 0, true
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}

func bytesOrNil(v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case string:
		b, err := base64.StdEncoding.DecodeString(x)
		return b, err == nil
	}
	return nil, false
}

func listOrNil(v any) ([]any, bool) {
	if v == nil {
		return nil, true
	}
	l, ok := v.([]any)
	return l, ok
}

func mapOrNil(v any) (map[string]any, bool) {
	if v == nil {
		return nil, true
	}
	m, ok := v.(map[string]any)
	return m, ok
}

func quantityOrZero(v any) (resource.Quantity, bool) {
	if v == nil {
		return resource.Quantity{}, true
	}
	s, err := CanonicalQuantity(v)
	if err != nil {
		return resource.Quantity{}, false
	}
	q, err := resource.ParseQuantity(s)
	return q, err == nil
}

func timeOrZero(v any) (time.Time, bool) {
	switch x := v.(type) {
	case nil:
		return time.Time{}, true
	case string:
		t, err := time.Parse(time.RFC3339, x)
		return t, err == nil
	}
	return time.Time{}, false
}

func durationOrZero(v any) (time.Duration, bool) {
	switch x := v.(type) {
	case nil:
		return 0, true
	case string:
		d, err := time.ParseDuration(x)
		return d, err == nil
	}
	return 0, false
}

// String names an Equality.
func (e Equality) String() string {
	switch e {
	case Semantic:
		return "semantic"
	case Reflect:
		return "reflect"
	}
	return fmt.Sprintf("Equality(%d)", uint8(e))
}
