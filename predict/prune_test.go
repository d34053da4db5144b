package predict

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// TestPrunedIsWhatNoManifestNames: kubectl --prune --all deletes the live objects kubectl
// apply made (their last-applied annotation) that no manifest names, in the namespaces the
// apply visits — those of its namespaced objects, and -n when given — and cluster-scoped
// ones; a named object, one kubectl did not make and one in another namespace stay.
func TestPrunedIsWhatNoManifestNames(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	cm := schema.GVK{Version: "v1", Kind: "ConfigMap"}
	ns := schema.GVK{Version: "v1", Kind: "Namespace"}
	made := func(gvk schema.GVK, namespace, name string) LiveObject {
		md := map[string]any{"name": name, "annotations": map[string]any{merge.LastAppliedAnnotation: "{}"}}
		if namespace != "" {
			md["namespace"] = namespace
		}
		obj := map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind, "metadata": md}
		return LiveObject{GVK: gvk, Namespace: namespace, Name: name, Decode: func() (map[string]any, error) { return obj, nil }}
	}
	notMade := made(cm, "shop", "by-hand")
	notMade.Decode = func() (map[string]any, error) {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "by-hand", "namespace": "shop"}}, nil
	}
	live := []LiveObject{
		made(cm, "shop", "settings"), // named: applied
		made(cm, "shop", "old"),      // pruned
		notMade,                      // not kubectl's
		made(cm, "billing", "old"),   // a namespace not visited (unless -n billing)
		made(ns, "", "legacy"),       // cluster-scoped: pruned
	}
	applied := []Applied{{ID: Identity{Kind: "ConfigMap", Namespace: "shop", Name: "settings"}, GVK: cm}}
	run := &Run{Applier: appliers.KubectlApply{FieldManager: "kubectl", Prune: &appliers.KubectlPrune{}}, Schemas: reg}
	for _, c := range []struct {
		visitedAlso string
		want        []int
	}{
		{"", []int{1, 4}},
		{"billing", []int{1, 3, 4}},
	} {
		got := run.Pruned(applied, live, c.visitedAlso)
		var idx []int
		for _, p := range got {
			idx = append(idx, p.Index)
			if p.Why == "" || p.Object == nil {
				t.Errorf("%+v: no reason or no object", p)
			}
		}
		if len(idx) != len(c.want) {
			t.Fatalf("-n %q: pruned %v, want %v", c.visitedAlso, idx, c.want)
		}
		for i := range idx {
			if idx[i] != c.want[i] {
				t.Errorf("-n %q: pruned %v, want %v", c.visitedAlso, idx, c.want)
			}
		}
	}
	if got := (&Run{Applier: appliers.KubectlApply{}, Schemas: reg}).Pruned(applied, live, ""); len(got) != 0 {
		t.Errorf("kubectl without --prune prunes %v", got)
	}
}
