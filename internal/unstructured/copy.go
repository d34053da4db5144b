package unstructured

// DeepCopy copies the maps and slices of a decoded JSON value (each map and slice new, nil
// ones made empty); strings, numbers, booleans and values of other types are shared.
func DeepCopy(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		c := make(map[string]interface{}, len(t))
		for k, x := range t {
			c[k] = DeepCopy(x)
		}
		return c
	case []interface{}:
		c := make([]interface{}, len(t))
		for i, x := range t {
			c[i] = DeepCopy(x)
		}
		return c
	}
	return v
}
