package conformance

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/judge/advice"
)

// TestHelmAdvice holds the advice for Helm's fights to recorded commands: each fight gets
// its fix in the chart's values or Helm's flags (replicas under an autoscaler, a CA
// injector's caBundle, a field another program writes, a change by hand), and a failed
// server-side upgrade over a client-side release is told that its migration stays.
func TestHelmAdvice(t *testing.T) {
	for _, c := range []struct {
		dir, kind string
		id, fix   string
	}{
		{"h4-hpa-owns-replicas/03-upgrade", "Deployment", advice.IDFightsController, "set the value that renders it to null"},
		{"h4-webhook-cabundle/03-upgrade", "MutatingWebhookConfiguration", advice.IDFightsController, "leave caBundle out of the chart's webhook configuration"},
		{"h4-conflict-other-applier/03-upgrade", "ConfigMap", "", ""},
		{"h4-conflict-kubectl-edit/03-upgrade", "ConfigMap", advice.IDOverridesManualChange, "put it into the chart's values"},
		{"h3-to-h4-failed-migration-residue/03-upgrade", "Deployment", advice.IDHelmStaleMigration, "`helm upgrade --force-conflicts`"},
		{"h3-to-h4-server-side-migrates/02-upgrade", "Deployment", advice.IDClientSideApplyLeftovers, "nothing to do"},
	} {
		hc, err := LoadHelmCase(filepath.Join("testdata", "helm", "recorded", c.dir))
		if err != nil {
			t.Fatal(err)
		}
		out, err := ReplayHelm(hc)
		if err != nil {
			t.Fatal(err)
		}
		reg, _ := hc.Registry()
		var found bool
		for _, r := range out.Objects {
			if r.Target.Object["kind"] != c.kind || r.Result == nil {
				continue
			}
			found = true
			_, ns, name := objectMeta(r.Target.Object, hc.HelmRequest.Namespace)
			live := findObject(hc.LiveItems, r.Result.Endpoint.GVK.Group, c.kind, ns, name)
			got := advice.Analyze(advice.Input{Live: live, Manifest: r.Target.Object, Result: r.Result, Manager: appliers.HelmManager, Applier: appliers.HelmApplier},
				advice.Options{Schemas: reg, Now: hc.NowTime()})
			var ids []string
			ok := c.id == ""
			for _, a := range got {
				ids = append(ids, a.ID)
				if a.ID == advice.IDFightsController && c.id != advice.IDFightsController {
					t.Errorf("%s: fights-controller for %v", c.dir, a.Managers)
				}
				if a.ID == c.id && strings.Contains(a.Fix, c.fix) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s: no %s advice with %q; got %v: %v", c.dir, c.id, c.fix, ids, got)
			}
		}
		if !found {
			t.Errorf("%s: no %s predicted", c.dir, c.kind)
		}
	}
}

func objectMeta(obj map[string]any, ns string) (kind, namespace, name string) {
	kind, _ = obj["kind"].(string)
	md, _ := obj["metadata"].(map[string]any)
	namespace, _ = md["namespace"].(string)
	name, _ = md["name"].(string)
	if namespace == "" && !clusterScoped(kind) {
		namespace = ns
	}
	return
}
