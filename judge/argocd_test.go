package judge_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/gitopsconfig"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// argoDryRun is the dry-run of Argo CD's server-side diff on e: the target applied to live
// with force by argocd-controller, the server's answer or its refusal.
func argoDryRun(e *merge.Engine, live map[string]any) func(map[string]any) (map[string]any, error) {
	return func(obj map[string]any) (map[string]any, error) {
		res, err := e.Apply(merge.Request{Live: live, Object: obj, Manager: "argocd-controller", Force: true, Now: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return nil, err
		}
		if res.Rejection != nil {
			return nil, res.Rejection
		}
		return res.Object, nil
	}
}

// argoIgnore reads ignoreDifferences as an Application holding them is read.
func argoIgnore(t *testing.T, raw []byte) *judge.Ignore {
	t.Helper()
	app := []byte(`{"apiVersion":"argoproj.io/v1alpha1","kind":"Application","metadata":{"name":"shop"},"spec":{"ignoreDifferences":` + string(raw) + `}}`)
	a, err := gitopsconfig.ReadApplication(app)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := a.IgnoreRules()
	if err != nil {
		t.Fatal(err)
	}
	ig, err := judge.NewIgnore(rules...)
	if err != nil {
		t.Fatal(err)
	}
	return ig
}

// Argo CD shows a Deployment Synced or OutOfSync, with the diff it shows, as argo-cd
// v3.6.2's StateDiffs with server-side diff does against a real kube-apiserver 1.37.2
// (testdata/argocd-diff/record.sh, driven by test/argocddiff): another manager's label is
// no difference, an image edited on the cluster or changed in Git is; another applier's
// replicas are, unless ignoreDifferences names them (a JSON pointer, a jq path or the
// manager), and a rule for another kind ignores nothing.
func TestArgoCDCompareIsArgoCDs(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "argocd-diff", "*", "want.json"))
	if err != nil || len(dirs) < 10 {
		t.Fatalf("%d cases: %v", len(dirs), err)
	}
	reg := schema.MustNewRegistry(kube.Minor(37))
	e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Minor(37)}))
	typ, ok := reg.Lookup(schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"})
	if !ok {
		t.Fatal("no Deployment")
	}
	for _, want := range dirs {
		dir := filepath.Dir(want)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			read := func(name string, v any) []byte {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if v != nil {
					if err := json.Unmarshal(b, v); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
				return b
			}
			var live, target map[string]any
			read("live.json", &live)
			read("manifest.json", &target)
			var argo struct {
				Modified                      bool
				NormalizedLive, PredictedLive map[string]any
			}
			read("want.json", &argo)
			got := judge.ArgoCDCompare(judge.ArgoCDDiffInput{Target: target, Live: live, Manager: "argocd-controller",
				Ignore: argoIgnore(t, read("ignore.json", nil)), Type: &typ.Parseable, DryRun: argoDryRun(e, live)})
			wantStatus := judge.ArgoCDSynced
			if argo.Modified {
				wantStatus = judge.ArgoCDOutOfSync
			}
			if got.Status != wantStatus {
				t.Errorf("status %s (%s), Argo CD's %s", got.Status, got.Error, wantStatus)
			}
			for _, side := range []struct {
				name      string
				got, want map[string]any
			}{{"normalizedLive", got.NormalizedLive, argo.NormalizedLive}, {"predictedLive", got.PredictedLive, argo.PredictedLive}} {
				g, _ := json.Marshal(side.got)
				w, _ := json.Marshal(side.want)
				var gv, wv any
				_ = json.Unmarshal(g, &gv)
				_ = json.Unmarshal(w, &wv)
				if !reflect.DeepEqual(gv, wv) {
					gi, _ := json.MarshalIndent(gv, "", " ")
					wi, _ := json.MarshalIndent(wv, "", " ")
					t.Errorf("%s:\n%s\nArgo CD's:\n%s", side.name, gi, wi)
				}
			}
		})
	}
}
