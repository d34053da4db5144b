package fieldpath

import (
	"testing"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// rules.md conflict.path-text: paths print as the server prints them.
func TestPathString(t *testing.T) {
	port := smdpath.KeyByFields("containerPort", 80, "protocol", "TCP")
	for _, tc := range []struct {
		p    smdpath.Path
		want string
	}{
		{smdpath.MakePathOrDie("metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration"), ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"},
		{smdpath.MakePathOrDie("spec", "containers", smdpath.KeyByFields("name", "x"), "ports", port), `.spec.containers[name="x"].ports[containerPort=80,protocol="TCP"]`},
		{smdpath.MakePathOrDie("metadata", "finalizers", value.NewValueInterface("a")), `.metadata.finalizers[="a"]`},
		{smdpath.MakePathOrDie("spec", "args", 3), ".spec.args[3]"},
	} {
		if got := PathString(tc.p); got != tc.want {
			t.Errorf("PathString = %s, want %s", got, tc.want)
		}
	}
}

// PathString prints every element as structured-merge-diff's Path.String does, the
// elements it writes itself (field names, positions, string and integer keys and values)
// and those it leaves to PathElement.String (floats, booleans, null, lists, maps) alike.
func TestPathStringSameAsStructuredMergeDiff(t *testing.T) {
	for _, p := range []smdpath.Path{
		nil,
		smdpath.MakePathOrDie("spec", "template", "spec", "containers", smdpath.KeyByFields("name", "a\"b\u00e9\x01\u2028"), "env", smdpath.KeyByFields("name", "")),
		smdpath.MakePathOrDie("spec", "ports", smdpath.KeyByFields("port", -1, "protocol", "UDP")),
		smdpath.MakePathOrDie("spec", "ports", smdpath.KeyByFields("port", 8.5, "protocol", "UDP")),
		smdpath.MakePathOrDie("spec", "ports", smdpath.KeyByFields("port", 80.0)),
		smdpath.MakePathOrDie("spec", "x", smdpath.KeyByFields("on", true, "off", nil)),
		smdpath.MakePathOrDie("spec", "x", smdpath.KeyByFields("l", []any{"a", 1}, "m", map[string]any{"k": "v"})),
		smdpath.MakePathOrDie("metadata", "finalizers", value.NewValueInterface(int64(7))),
		smdpath.MakePathOrDie("metadata", "finalizers", value.NewValueInterface(2.5)),
		smdpath.MakePathOrDie("metadata", "finalizers", value.NewValueInterface(false)),
		smdpath.MakePathOrDie("metadata", "finalizers", value.NewValueInterface(nil)),
		smdpath.MakePathOrDie("metadata", "finalizers", value.NewValueInterface([]any{"x"})),
		smdpath.MakePathOrDie("spec", "args", 0, "", -3),
		{smdpath.PathElement{}},
	} {
		if got, want := PathString(p), p.String(); got != want {
			t.Errorf("PathString = %q, structured-merge-diff prints %q", got, want)
		}
	}
}

func TestJSONPointer(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"containers": []any{
		map[string]any{"name": "a"},
		map[string]any{"name": "b/c", "ports": []any{map[string]any{"containerPort": int64(80), "protocol": "TCP"}}},
	}}}
	p := smdpath.MakePathOrDie("spec", "containers", smdpath.KeyByFields("name", "b/c"), "ports", smdpath.KeyByFields("containerPort", 80, "protocol", "TCP"), "containerPort")
	got, ok := JSONPointer(p, obj)
	if !ok || got != "/spec/containers/1/ports/0/containerPort" {
		t.Errorf("JSONPointer = %q, %v", got, ok)
	}
	if _, ok := JSONPointer(smdpath.MakePathOrDie("spec", "containers", smdpath.KeyByFields("name", "zz")), obj); ok {
		t.Error("JSONPointer found an item that is not there")
	}
}

// ItemKey names an item by its key fields in the keys' order, reports the first key field
// it omits, and leaves out the ones omitted excuses.
func TestItemKey(t *testing.T) {
	item := map[string]any{"containerPort": int64(80), "name": "http"}
	pe, missing, ok := ItemKey(item, []string{"containerPort", "protocol"}, nil)
	if ok || missing != "protocol" {
		t.Fatalf("without protocol: %v %q %v; want the missing key protocol", pe, missing, ok)
	}
	pe, _, ok = ItemKey(item, []string{"containerPort", "protocol"}, func(n string) bool { return n == "protocol" })
	if !ok || pe.String() != `[containerPort=80]` {
		t.Fatalf("protocol excused: %v %v; want [containerPort=80]", pe, ok)
	}
	pe, _, ok = ItemKey(item, []string{"name", "containerPort"}, nil)
	if !ok || pe.String() != `[name="http",containerPort=80]` {
		t.Fatalf("both keys: %v %v", pe, ok)
	}
	if got := KeyNames(pe); len(got) != 2 || got[0] != "name" || got[1] != "containerPort" {
		t.Fatalf("KeyNames = %v", got)
	}
	if !ItemMatches(item, pe) {
		t.Fatalf("the key names no item")
	}
	if KeyNames(smdpath.PathElement{}) != nil {
		t.Fatal("a field name has key names")
	}
}

// TestEqualsItemIsEquals holds equalsItem's unboxed comparisons to value.Equals on every
// pair of a set of values of each kind, as keys and items are (decoded JSON's types, and
// the values structured-merge-diff reads keys as).
func TestEqualsItemIsEquals(t *testing.T) {
	items := []any{"a", "", "1", int64(1), int64(0), int64(-3), float64(1), float64(1.5), true, false, nil,
		map[string]any{"a": "b"}, []any{"a"}, []any{}, int(1), int32(1), "true"}
	wants := make([]value.Value, 0, len(items))
	for _, it := range items {
		wants = append(wants, value.NewValueInterface(it))
	}
	for _, j := range []string{`"a"`, `1`, `1.0`, `1.5`, `"1"`, `true`, `null`, `{"a":"b"}`, `["a"]`, `0`, `""`} {
		v, err := value.FromJSON([]byte(j))
		if err != nil {
			t.Fatal(err)
		}
		wants = append(wants, v)
	}
	for _, w := range wants {
		for _, it := range items {
			if got, want := equalsItem(w, it), value.Equals(w, value.NewValueInterface(it)); got != want {
				t.Errorf("equalsItem(%v, %#v) = %v, value.Equals says %v", value.ToString(w), it, got, want)
			}
		}
	}
}
