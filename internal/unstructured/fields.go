package unstructured

import (
	"math"
	"sort"
)

// Field accessors. Each reads one field of an object in the unstructured form and answers
// the zero value when the field is absent, null or of another type; none of them panics.

// Str is the string field k of m, "" when absent.
func Str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// Object is the object field k of m, nil when absent.
func Object(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

// EnsureObject is the object field k of m, made (and set) when absent, null or not an
// object.
func EnsureObject(m map[string]any, k string) map[string]any {
	if o, ok := m[k].(map[string]any); ok {
		return o
	}
	o := map[string]any{}
	m[k] = o
	return o
}

// List is the list field k of m, nil when absent.
func List(m map[string]any, k string) []any {
	l, _ := m[k].([]any)
	return l
}

// Objects are the items of the list field k of m that are objects, in order.
func Objects(m map[string]any, k string) []map[string]any {
	var out []map[string]any
	for _, item := range List(m, k) {
		if o, ok := item.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// NestedObject follows object fields from m, nil when one is missing or not an object.
func NestedObject(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		if m == nil {
			return nil
		}
		m = Object(m, k)
	}
	return m
}

// Nested is the value at keys, following object fields from m; nil when one is missing.
func Nested(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

// Int is v as an integer, when it is one: int64 (what decoding gives), int, int32, or a
// float64 holding a whole number within int64's range (as the API server's unstructured
// converter reads one).
func Int(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case float64:
		if x == math.Trunc(x) && x >= math.MinInt64 && x <= math.MaxInt64 {
			return int64(x), true
		}
	}
	return 0, false
}

// SortedKeys are the keys of an object, sorted: the order the API server walks and prints
// objects in.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// WithoutManagedFields is a shallow copy of obj whose metadata has no managedFields.
func WithoutManagedFields(obj map[string]any) map[string]any {
	return WithMetadata(obj, func(md map[string]any) { delete(md, "managedFields") })
}

// WithMetadata is a shallow copy of obj whose metadata, itself a shallow copy, edit has
// changed: obj and its metadata map are left as they are. Without a metadata object it is
// obj itself, unedited.
func WithMetadata(obj map[string]any, edit func(md map[string]any)) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj
	}
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	m := make(map[string]any, len(md))
	for k, v := range md {
		m[k] = v
	}
	edit(m)
	c["metadata"] = m
	return c
}
