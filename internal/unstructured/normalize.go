package unstructured

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Normalize returns a copy of a decoded JSON value in the form the API server's decoder
// gives: objects map[string]any, lists []any, integers int64, other numbers float64. It
// accepts what JSON and YAML decoders produce (json.Number, int, map[any]any …).
func Normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = Normalize(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[fmt.Sprint(k)] = Normalize(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = Normalize(x)
		}
		return out
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			return f
		}
		return string(v)
	case int:
		return int64(v)
	case int8:
		return int64(v)
	case int16:
		return int64(v)
	case int32:
		return int64(v)
	case uint:
		return uintValue(uint64(v))
	case uint8:
		return int64(v)
	case uint16:
		return int64(v)
	case uint32:
		return int64(v)
	case uint64:
		return uintValue(v)
	case float32:
		return float64(v)
	}
	return v
}

func uintValue(u uint64) any {
	if u <= math.MaxInt64 {
		return int64(u)
	}
	return float64(u)
}

// Describe names the JSON type of a decoded value for error messages.
func Describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", v)
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case json.Number, int, int32, int64, uint, uint32, uint64, float32, float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
