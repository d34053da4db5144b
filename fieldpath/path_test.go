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
