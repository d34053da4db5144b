package report

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
)

// TestPrunes: a live ConfigMap kubectl applied that no manifest names is a prune result,
// named and located at its live source; the one a manifest names is not.
func TestPrunes(t *testing.T) {
	live, errs := input.Split(input.Parse("live.yaml", []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: old
  namespace: shop
  annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}"}
`)))
	manifests, errs2 := input.Split(input.Parse("m.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\n")))
	if len(errs)+len(errs2) > 0 {
		t.Fatal(errs, errs2)
	}
	reg := schema.MustNewRegistry(kube.Newest())
	scope := func(gvk schema.GVK) (bool, bool) {
		if t, ok := reg.Lookup(gvk); ok {
			return t.Namespaced, true
		}
		return false, false
	}
	m := input.Match(manifests, live, scope, "default")
	run := &predict.Run{Applier: appliers.KubectlApply{FieldManager: "kubectl", Prune: &appliers.KubectlPrune{}}, Schemas: reg}
	got := Prunes(run, m.Pairs, live, "")
	if len(got) != 1 {
		t.Fatalf("%d prunes, want 1", len(got))
	}
	res := got[0]
	if res.Action != ActionPrune || !res.Changed || res.Name != "old" || res.Namespace != "shop" || res.Kind != "ConfigMap" ||
		res.Source.Line != 8 || res.LiveSource == nil || *res.LiveSource != res.Source || res.Prune == nil || res.Prune.Applier != "kubectl" || res.Prune.Message == "" || res.Live == nil {
		t.Errorf("prune result %+v", res)
	}
}
