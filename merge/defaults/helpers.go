package defaults

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

// str returns a string field, "" when absent.
func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// object returns an object field, nil when absent.
func object(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

// ensureObject returns an object field, creating it when absent or null.
func ensureObject(m map[string]any, k string) map[string]any {
	if o, ok := m[k].(map[string]any); ok {
		return o
	}
	o := map[string]any{}
	m[k] = o
	return o
}

// list returns a list field, nil when absent.
func list(m map[string]any, k string) []any {
	l, _ := m[k].([]any)
	return l
}

// objects returns the object items of a list field.
func objects(m map[string]any, k string) []map[string]any {
	var out []map[string]any
	for _, item := range list(m, k) {
		if o, ok := item.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// integer returns an integer field and whether it is set.
func integer(m map[string]any, k string) (int64, bool) {
	return asInt(m[k])
}

// path follows object fields, returning nil when one is missing.
func path(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		if m == nil {
			return nil
		}
		m = object(m, k)
	}
	return m
}
