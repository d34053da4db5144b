package judge

import (
	"encoding/json"
	"testing"
)

// sameJSON answers as comparing the printed JSON does, without printing what it can
// compare as it is.
func TestSameJSONAsPrinted(t *testing.T) {
	values := []any{
		nil, true, false, "a", "b", "\xff", "\xfe", "\ufffd", int64(5), float64(5), int(5), float64(5.5),
		json.Number("5"), map[string]any{}, map[string]any(nil), []any{}, []any(nil),
		map[string]any{"a": int64(1)}, map[string]any{"a": float64(1)}, map[string]any{"a": int64(2)},
		map[string]any{"a": int64(1), "b": nil}, []any{"a", int64(1)}, []any{"a", float64(1)}, []any{"a"},
		map[string]any{"a": []any{map[string]any{"x": "\xff"}}}, map[string]any{"a": []any{map[string]any{"x": "\xfe"}}},
	}
	for _, a := range values {
		for _, b := range values {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if want := string(ja) == string(jb); sameJSON(a, b) != want {
				t.Errorf("sameJSON(%#v, %#v) = %v, want %v", a, b, !want, want)
			}
		}
	}
}
