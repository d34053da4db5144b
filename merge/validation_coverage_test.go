package merge

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/conversion"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// notPredictedKinds are the served built-in kinds whose validation is not predicted: a
// write of one is answered with a warning naming the kind, never a silent pass (issue 14).
var notPredictedKinds = []string{
	"v1 ComponentStatus", // read-only: the engine refuses every write before validation (TestReadOnlyKind)
}

// TestEveryServedKindIsValidatedOrSaysSo writes a minimal object of every kind the
// server serves by default: either the kind's validation runs, or the result carries the
// NotPredicted warning naming the kind. The list of kinds in the second case is the one
// above, so a port that lands, or a kind that loses its validation, changes this test.
func TestEveryServedKindIsValidatedOrSaysSo(t *testing.T) {
	r := schema.MustNewRegistry(kube.Default())
	var got []string
	for _, gvk := range r.GVKs() {
		typ, _ := r.Lookup(gvk)
		if r.Serving(gvk) != schema.Served || typ.Resource == "" {
			continue
		}
		meta := map[string]any{"name": "x"}
		if typ.Namespaced {
			meta["namespace"] = "default"
		}
		obj := map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind, "metadata": meta}
		if hub := conversion.Hub(gvk.Group, gvk.Kind); hub != "" && hub != gvk.Version {
			// The engine validates at the hub version (the internal version's shape).
			hubType, _ := r.Lookup(schema.GVK{Group: gvk.Group, Version: hub, Kind: gvk.Kind})
			hubObj, err := conversion.Convert(serverconfig.MustFor(kube.Default()), obj, hubType.GVK.APIVersion())
			if err != nil {
				t.Fatalf("%v: %v", gvk, err)
			}
			typ, obj = hubType, hubObj
		}
		v := kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}).Validate(typ, "", obj, nil)
		if v.NotPredicted == "" {
			continue
		}
		if !strings.Contains(v.NotPredicted, typ.GVK.APIVersion()+" "+gvk.Kind) {
			t.Errorf("%v: the warning does not name the kind: %s", gvk, v.NotPredicted)
		}
		got = append(got, gvk.APIVersion()+" "+gvk.Kind)
	}
	if !slices.Equal(got, notPredictedKinds) {
		t.Errorf("kinds whose validation is not predicted:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(notPredictedKinds, "\n"))
	}
}

// The server's warnings keep the order the server sends them in (kubectl prints them so):
// a Deployment with twelve gitRepo volumes is warned about volumes[0] to volumes[11] in
// index order, not in the order of their text (volumes[10] before volumes[2]).
func TestServerWarningsKeepTheirOrder(t *testing.T) {
	var volumes, want []any
	for i := range 12 {
		volumes = append(volumes, map[string]any{"name": fmt.Sprintf("repo-%d", i), "gitRepo": map[string]any{"repository": "https://git.example.com/site.git"}})
		want = append(want, fmt.Sprintf("the server would warn: spec.template.spec.volumes[%d].gitRepo: deprecated in v1.11, and disabled by default in v1.33+", i))
	}
	obj := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "site", "namespace": "web"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "site"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "site"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}, "volumes": volumes}}}}
	res, err := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})).Apply(Request{Object: obj, Manager: "kubectl"})
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	for _, w := range res.Warnings {
		if strings.HasPrefix(w, serverWarningPrefix) {
			got = append(got, w)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("server warnings\n%s\nwant\n%s", fmt.Sprint(got...), fmt.Sprint(want...))
	}
}
