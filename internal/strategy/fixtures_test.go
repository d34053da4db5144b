package strategy

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

// withoutAssigned removes what the server assigns (and managedFields, which
// field management predicts) from a recorded object.
func withoutAssigned(obj map[string]any, assigned []AssignedField) map[string]any {
	out := unstructured.DeepCopy(obj).(map[string]any)
	delete(unstructured.Object(out, "metadata"), "managedFields")
	for _, a := range assigned {
		var cur any = out
		for i, e := range a.Path {
			last := i == len(a.Path)-1
			switch x := e.(type) {
			case string:
				m, ok := cur.(map[string]any)
				if !ok {
					cur = nil
					break
				}
				if last {
					delete(m, x)
				}
				cur = m[x]
			case int:
				l, ok := cur.([]any)
				if !ok || x >= len(l) {
					cur = nil
					break
				}
				cur = l[x]
			}
		}
	}
	return out
}

// Every recorded create through apply: the manifest, run through Create,
// is the object the server returned, apart from what it assigns.
func TestCreateMatchesRecordedServer(t *testing.T) {
	dir := testkit.RecordedDir(t)
	cases, _ := filepath.Glob(filepath.Join(dir, "*", "case.yaml"))
	n := 0
	for _, c := range cases {
		cd := filepath.Dir(c)
		want := testkit.CaseFile(t, cd, "want.json")
		if testkit.CaseFile(t, cd, "live.json") != nil || want == nil || want["kind"] == "Status" {
			continue
		}
		cfg := testkit.ReadObject(t, c)
		req, _ := cfg["request"].(map[string]any)
		if req["verb"] != "apply" {
			continue
		}
		manifest := testkit.CaseFile(t, cd, "manifest.yaml")
		av, _ := manifest["apiVersion"].(string)
		kind, _ := manifest["kind"].(string)
		if !defaults.MustFor(kube.Default()).Known(av, kind) {
			continue
		}
		n++
		t.Run(filepath.Base(cd), func(t *testing.T) {
			got := unstructured.DeepCopy(manifest).(map[string]any)
			if err := Create(serverconfig.MustFor(kube.Default()), av, kind, got); err != nil {
				t.Fatal(err)
			}
			assigned := Assigned(av, kind, got, true)
			g, w := withoutAssigned(got, assigned), withoutAssigned(want, assigned)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("predicted object differs from the recorded one:\n%s", testkit.Diff(w, g))
			}
		})
	}
	if n == 0 {
		t.Fatal("no recorded creates of built-in kinds")
	}
}
