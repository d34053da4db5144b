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
func Equal(a, b interface{}) bool {
	switch x := a.(type) {
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
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
	case []interface{}:
		y, ok := b.([]interface{})
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
