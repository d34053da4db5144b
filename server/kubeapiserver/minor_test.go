package kubeapiserver

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
)

// TestModelDefaultsAtItsMinor: the model decodes and defaults built-in kinds with the
// release of its Config.Version. A 1.36 model is built by hand: New accepts the minors
// version.Supported lists.
func TestModelDefaultsAtItsMinor(t *testing.T) {
	for _, v := range kube.Minors() {
		m, err := New(Config{Minor: v})
		if err != nil {
			t.Fatal(err)
		}
		if m.defaults.Minor() != v {
			t.Errorf("New(%s) defaults at %s", v, m.defaults.Minor())
		}
	}
	typ := &schema.Type{GVK: schema.GVK{Group: "apps", Version: "v1", Kind: "StatefulSet"}, Source: schema.SourceBuiltin}
	for minor, want := range map[int]bool{36: false, 37: true} {
		d, ok := defaults.For(kube.Minor(minor))
		if !ok {
			t.Fatalf("no defaulting of 1.%d", minor)
		}
		m := &Model{cfg: Config{Minor: kube.Minor(minor)}, defaults: d}
		obj := map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": map[string]any{"name": "s"},
			"spec": map[string]any{"selector": map[string]any{}, "template": map[string]any{}}}
		if err := m.Default(typ, obj); err != nil {
			t.Fatal(err)
		}
		// MaxUnavailableStatefulSet is on by default from 1.37.
		_, has := unstructured.NestedObject(obj, "spec", "updateStrategy", "rollingUpdate")["maxUnavailable"]
		if has != want {
			t.Errorf("1.%d: rollingUpdate.maxUnavailable defaulted %v, want %v", minor, has, want)
		}
	}
}
