package recorded

import (
	"strings"
	"testing"
)

func TestDecodeJSONIntegers(t *testing.T) {
	v := DecodeJSON(t, []byte(`{"a":1,"b":1.5,"c":[2]}`)).(map[string]any)
	if _, ok := v["a"].(int64); !ok {
		t.Errorf("a = %T, want int64", v["a"])
	}
	if _, ok := v["b"].(float64); !ok {
		t.Errorf("b = %T, want float64", v["b"])
	}
	if _, ok := v["c"].([]any)[0].(int64); !ok {
		t.Errorf("c[0] = %T, want int64", v["c"].([]any)[0])
	}
}

func TestDiff(t *testing.T) {
	want := map[string]any{"spec": map[string]any{"replicas": int64(1), "a": "x"}, "l": []any{"p"}}
	got := map[string]any{"spec": map[string]any{"replicas": int64(2)}, "l": []any{"q"}}
	d := Diff(want, got)
	for _, s := range []string{".l[0]: want \"p\", got \"q\"", ".spec.a: want present=true \"x\", got present=false", ".spec.replicas: want 1, got 2"} {
		if !strings.Contains(d, s) {
			t.Errorf("Diff lacks %q:\n%s", s, d)
		}
	}
	if d := Diff(want, want); d != "" {
		t.Errorf("Diff of equal objects = %q", d)
	}
}

func TestStoredObjects(t *testing.T) {
	objs := StoredObjects(t)
	for name, obj := range objs {
		if obj["kind"] == nil || obj["kind"] == "Status" {
			t.Errorf("%s: kind %v", name, obj["kind"])
		}
	}
}
