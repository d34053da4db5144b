package unstructured

import (
	"encoding/json"
	"math"
)

// AsDecoded is obj when its numbers are already what Kubernetes' JSON decoding makes
// them (what the decoders of this module give), a copy made by CopyAsDecoded otherwise:
// for readers that never change obj (the engine: FuzzEngine checks it). Unlike Normalize,
// which also accepts what YAML decoders give, it takes the shapes of decoded JSON.
func AsDecoded(obj map[string]any) map[string]any {
	if obj == nil || isDecoded(obj) {
		return obj
	}
	return CopyAsDecoded(obj)
}

func isDecoded(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			return true // no range over it: starting an iteration costs more than the map (fieldsV1's leaves are all {})
		}
		for _, x := range t {
			if !isDecoded(x) {
				return false
			}
		}
	case []any:
		for _, x := range t {
			if !isDecoded(x) {
				return false
			}
		}
	case float64:
		return !(t == math.Trunc(t) && math.Abs(t) < 1<<53)
	case string, bool, int64, nil, json.RawMessage:
	default:
		return false
	}
	return true
}

// CopyAsDecoded makes numbers what Kubernetes' JSON decoding makes them: integers as
// int64, other numbers as float64. It returns a copy.
func CopyAsDecoded(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	return asDecoded(obj).(map[string]any)
}

func asDecoded(v any) any {
	switch t := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(t))
		if len(t) == 0 {
			return c
		}
		for k, x := range t {
			c[k] = asDecoded(x)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = asDecoded(x)
		}
		return c
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
		return t
	case float32:
		return asDecoded(float64(t))
	case int:
		return int64(t)
	case int32:
		return int64(t)
	case uint64:
		return int64(t)
	default:
		return v
	}
}
