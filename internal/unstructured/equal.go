package unstructured

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Equal reports whether a and b are deeply equal, exactly as reflect.DeepEqual(a, b)
// reports it: same dynamic types, a nil map or slice differs from an empty one, NaN differs
// from itself (but a map or slice is equal to itself whatever it holds). Values of types other than those of decoded JSON are left to
// reflect.DeepEqual.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		if len(x) == 0 {
			return true // both empty, or both nil
		}
		if reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer() {
			return true // the same map, as reflect.DeepEqual decides it (NaNs and all)
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !Equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true // the same elements
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	case json.RawMessage:
		y, ok := b.(json.RawMessage)
		return ok && (x == nil) == (y == nil) && bytes.Equal(x, y)
	}
	return reflect.DeepEqual(a, b)
}

// EqualIgnoringManagedFields is Equal on two objects, metadata.managedFields aside.
func EqualIgnoringManagedFields(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok {
			return false
		}
		if k != "metadata" {
			if !Equal(av, bv) {
				return false
			}
			continue
		}
		am, _ := av.(map[string]any)
		bm, _ := bv.(map[string]any)
		if (am == nil) != (bm == nil) {
			return false
		}
		na, nb := len(am), len(bm)
		if _, ok := am["managedFields"]; ok {
			na--
		}
		if _, ok := bm["managedFields"]; ok {
			nb--
		}
		if na != nb {
			return false
		}
		for mk, mv := range am {
			if mk == "managedFields" {
				continue
			}
			if bmv, ok := bm[mk]; !ok || !Equal(mv, bmv) {
				return false
			}
		}
	}
	return true
}

// EqualNilAsEmpty is Equal except that a missing or null object or list equals an empty
// one, at any depth: what apimachinery's semantic equality (equality.Semantic.DeepEqual)
// answers for decoded objects, as Flux compares them.
func EqualNilAsEmpty(a, b any) bool {
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	switch {
	case (a == nil || aIsMap) && (b == nil || bIsMap) && (aIsMap || bIsMap):
		if len(am) != len(bm) {
			return false
		}
		for k, v := range am {
			w, ok := bm[k]
			if !ok || !EqualNilAsEmpty(v, w) {
				return false
			}
		}
		return true
	case (a == nil || aIsList) && (b == nil || bIsList) && (aIsList || bIsList):
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !EqualNilAsEmpty(al[i], bl[i]) {
				return false
			}
		}
		return true
	default:
		return Equal(a, b)
	}
}

// Same reports whether a and b are the same map (not merely equal ones): whether one was
// passed on where the other was expected.
func Same(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// EqualJSON reports whether a and b encode to the same JSON (encoding/json): numbers of
// different Go types and json.RawMessage text compare as they print.
func EqualJSON(a, b any) bool {
	if Equal(a, b) {
		return true
	}
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
