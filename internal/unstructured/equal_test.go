package unstructured

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

var values = []any{
	nil, "", "a", int64(0), int64(1), float64(1), math.NaN(), true, false, 1, int32(1),
	map[string]any(nil), map[string]any{}, map[string]any{"a": int64(1)},
	map[string]any{"a": float64(1)}, map[string]any{"b": int64(1)},
	map[string]any{"a": nil}, map[string]any{"a": []any{}},
	[]any(nil), []any{}, []any{"a"}, []any{"a", "b"}, []any{"b", "a"},
	[]any{map[string]any{"x": math.NaN()}},
	json.RawMessage(nil), json.RawMessage{}, json.RawMessage(`{}`), json.RawMessage(`{"f:a":{}}`),
	map[string]string{"a": "b"}, []string{"a"},
}

// TestEqualIsDeepEqual compares every pair of values, and copies of each.
func TestEqualIsDeepEqual(t *testing.T) {
	for _, a := range values {
		for _, b := range append(values, copyOf(a)) {
			if got, want := Equal(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("Equal(%#v, %#v) = %v; reflect.DeepEqual says %v", a, b, got, want)
			}
		}
	}
}

func copyOf(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var c any
	if json.Unmarshal(b, &c) != nil {
		return v
	}
	return c
}

// FuzzEqual compares Equal with reflect.DeepEqual on values decoded from two JSON texts.
func FuzzEqual(f *testing.F) {
	f.Add([]byte(`{"a":[1,2,{"b":null}]}`), []byte(`{"a":[1,2,{"b":null}]}`))
	f.Add([]byte(`[1,"x",true]`), []byte(`[1,"x",false]`))
	f.Add([]byte(`{}`), []byte(`null`))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		var a, b any
		if json.Unmarshal(x, &a) != nil || json.Unmarshal(y, &b) != nil {
			return
		}
		a, b = int64s(a), int64s(b)
		if got, want := Equal(a, b), reflect.DeepEqual(a, b); got != want {
			t.Fatalf("Equal(%#v, %#v) = %v; reflect.DeepEqual says %v", a, b, got, want)
		}
		if !Equal(a, a) && reflect.DeepEqual(a, a) {
			t.Fatalf("Equal(%#v, itself) is false", a)
		}
	})
}

// int64s turns integral numbers into int64, as this module's decoders give them.
func int64s(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = int64s(x)
		}
	case []any:
		for i, x := range t {
			t[i] = int64s(x)
		}
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
	}
	return v
}

// TestDeepCopy: the copy is equal and shares no map or slice with the original.
func TestDeepCopy(t *testing.T) {
	in := map[string]any{"a": []any{map[string]any{"b": "c"}, int64(1)},
		"d": map[string]any{}, "e": nil, "f": json.RawMessage(`{}`)}
	out := DeepCopy(in).(map[string]any)
	if !Equal(in, out) {
		t.Fatalf("DeepCopy = %#v, want %#v", out, in)
	}
	out["a"].([]any)[0].(map[string]any)["b"] = "x"
	out["d"].(map[string]any)["y"] = true
	if in["a"].([]any)[0].(map[string]any)["b"] != "c" || len(in["d"].(map[string]any)) != 0 {
		t.Fatalf("changing the copy changed the original: %#v", in)
	}
	if c := DeepCopy(map[string]any(nil)).(map[string]any); c == nil {
		t.Fatal("a nil map copies as nil")
	}
}
