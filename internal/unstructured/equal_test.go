package unstructured

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

var values = []interface{}{
	nil, "", "a", int64(0), int64(1), float64(1), math.NaN(), true, false, 1, int32(1),
	map[string]interface{}(nil), map[string]interface{}{}, map[string]interface{}{"a": int64(1)},
	map[string]interface{}{"a": float64(1)}, map[string]interface{}{"b": int64(1)},
	map[string]interface{}{"a": nil}, map[string]interface{}{"a": []interface{}{}},
	[]interface{}(nil), []interface{}{}, []interface{}{"a"}, []interface{}{"a", "b"}, []interface{}{"b", "a"},
	[]interface{}{map[string]interface{}{"x": math.NaN()}},
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

func copyOf(v interface{}) interface{} {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var c interface{}
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
		var a, b interface{}
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
func int64s(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = int64s(x)
		}
	case []interface{}:
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
	in := map[string]interface{}{"a": []interface{}{map[string]interface{}{"b": "c"}, int64(1)},
		"d": map[string]interface{}{}, "e": nil, "f": json.RawMessage(`{}`)}
	out := DeepCopy(in).(map[string]interface{})
	if !Equal(in, out) {
		t.Fatalf("DeepCopy = %#v, want %#v", out, in)
	}
	out["a"].([]interface{})[0].(map[string]interface{})["b"] = "x"
	out["d"].(map[string]interface{})["y"] = true
	if in["a"].([]interface{})[0].(map[string]interface{})["b"] != "c" || len(in["d"].(map[string]interface{})) != 0 {
		t.Fatalf("changing the copy changed the original: %#v", in)
	}
	if c := DeepCopy(map[string]interface{}(nil)).(map[string]interface{}); c == nil {
		t.Fatal("a nil map copies as nil")
	}
}
