package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// Helpers over the encoded form that defaulters see: after Normalize, a
// field whose Go value is zero is either absent or holds its zero value, so
// "unset" checks treat both alike.

// unset reports whether a field holds its Go zero value (absent, null, "",
// 0, false, or an empty list or map).
func unset(m map[string]any, k string) bool {
	switch x := m[k].(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// isNil reports whether a pointer, list or map field is nil (absent or null).
func isNil(m map[string]any, k string) bool {
	return m[k] == nil
}

// setIfUnset sets a field that holds its Go zero value.
func setIfUnset(m map[string]any, k string, v any) {
	if unset(m, k) {
		m[k] = v
	}
}

// setIfNil sets a pointer field that is nil.
func setIfNil(m map[string]any, k string, v any) {
	if m[k] == nil {
		m[k] = v
	}
}

// integer returns an integer field and whether it is set.
func integer(m map[string]any, k string) (int64, bool) {
	return unstructured.Int(m[k])
}
