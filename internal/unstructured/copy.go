package unstructured

// DeepCopy copies the maps and slices of a decoded JSON value (each map and slice new, nil
// ones made empty); strings, numbers, booleans and values of other types are shared.
func DeepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(t))
		if len(t) == 0 {
			return c // no range over it: starting an iteration costs more than the map (fieldsV1's leaves are all {})
		}
		for k, x := range t {
			c[k] = DeepCopy(x)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = DeepCopy(x)
		}
		return c
	}
	return v
}

// DeepCopyObject is DeepCopy of an object, nil for nil.
func DeepCopyObject(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	return DeepCopy(obj).(map[string]any)
}

// HasNull reports whether v holds a null anywhere (v itself included).
func HasNull(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		if len(t) == 0 {
			return false
		}
		for _, x := range t {
			if HasNull(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if HasNull(x) {
				return true
			}
		}
	}
	return false
}
