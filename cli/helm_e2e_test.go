package cli

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/conformance"
	"github.com/ssa-diff/ssa-diff/internal/helmrelease"
	"github.com/ssa-diff/ssa-diff/merge"
)

// helmArgs is the command line that predicts a recorded Helm command (the case's own
// arguments read as Helm reads them), run in the case's folder.
func helmArgs(c *conformance.HelmCase) []string {
	r := c.HelmRequest
	args := []string{"-o", "json", "--applier", "helm", "--helm-command", r.Command, "--helm-release", r.Release, "-n", r.Namespace}
	if c.Now != "" {
		args = append(args, "--now", c.Now)
	}
	if r.Driver == "configmap" {
		args = append(args, "--helm-driver", "configmap")
	}
	if r.Command == "rollback" && len(r.Args) > 2 {
		args = append(args, "--helm-revision", r.Args[2])
	}
	for _, a := range r.Args[3:] {
		name, value, hasValue := strings.Cut(a, "=")
		if name == "--dry-run" && !hasValue {
			value = "unset"
		}
		switch name {
		case "--server-side":
			args = append(args, "--server-side", value)
		case "--force-conflicts", "--take-ownership", "--skip-crds":
			args = append(args, a)
		case "--install":
			args = append(args, "--helm-install")
		case "--dry-run":
			args = append(args, "--helm-dry-run="+value)
		}
	}
	if len(c.CRDs) > 0 {
		args = append(args, "--crd", "crds.yaml")
	}
	if c.Rendered != nil {
		args = append(args, "manifest.yaml")
	}
	return append(args, "live.json")
}

// TestHelmScenariosThroughTheCommand runs the binary on every recorded Helm 4 command
// (conformance/testdata/helm/recorded) as a user would: the exit status says whether Helm
// fails (3) and whether anything changes (1), each object's predicted object and
// managedFields are the server's, and the objects reported as pruned are the ones Helm
// deleted.
func TestHelmScenariosThroughTheCommand(t *testing.T) {
	bin := buildBinary(t)
	cases, err := conformance.LoadHelmCases(filepath.Join(repoRoot(t), "conformance", "testdata", "helm", "recorded"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 50 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			out, stderr, code := runBinary(t, bin, c.Dir, helmArgs(c)...)
			if errs := schemaErrors(t, []byte(out)); len(errs) > 0 {
				t.Fatalf("the report does not satisfy the schema: %v (stderr %q)", errs, stderr)
			}
			var rep struct {
				Results []struct {
					APIVersion string         `json:"apiVersion"`
					Kind       string         `json:"kind"`
					Namespace  string         `json:"namespace"`
					Name       string         `json:"name"`
					Action     string         `json:"action"`
					Object     map[string]any `json:"object"`
				} `json:"results"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			changed := false
			for _, l := range c.LiveItems {
				if helmrelease.IsRecord(l) {
					continue
				}
				w := find(c.WantItems, l)
				changed = changed || w == nil || !reflect.DeepEqual(comparable(l), comparable(w))
			}
			for _, w := range c.WantItems {
				changed = changed || !helmrelease.IsRecord(w) && find(c.LiveItems, w) == nil
			}
			want := map[bool]int{true: 1, false: 0}[changed]
			if c.HelmResponse.HelmExit != 0 {
				want = 3
			}
			if code != want {
				t.Errorf("exit %d, want %d (helm exited %d); stderr:\n%s", code, want, c.HelmResponse.HelmExit, stderr)
			}
			for _, r := range rep.Results {
				ref := map[string]any{"apiVersion": r.APIVersion, "kind": r.Kind, "metadata": map[string]any{"namespace": r.Namespace, "name": r.Name}}
				live, after := find(c.LiveItems, ref), find(c.WantItems, ref)
				key := r.Kind + " " + r.Namespace + "/" + r.Name
				if r.Action == "prune" {
					if after != nil || live == nil {
						t.Errorf("%s: predicted pruned; live %v, after the command %v", key, live != nil, after != nil)
					}
					continue
				}
				if r.Object == nil || after == nil || r.Kind == "CustomResourceDefinition" {
					continue
				}
				one := &conformance.Case{Name: c.Name, Live: live, Want: after, Now: c.Now}
				one.Response.Code = 200
				for _, p := range conformance.Compare(one, &merge.Result{Action: merge.ActionUpdate, Object: r.Object}, false) {
					if !strings.HasPrefix(p, "predicted update, server wrote") {
						t.Errorf("%s: %s", key, p)
					}
				}
			}
			for _, l := range c.LiveItems {
				if find(c.WantItems, l) != nil || helmrelease.IsRecord(l) {
					continue
				}
				pruned := false
				for _, r := range rep.Results {
					md, _ := l["metadata"].(map[string]any)
					pruned = pruned || r.Action == "prune" && r.Kind == l["kind"] && r.Name == md["name"]
				}
				if !pruned {
					t.Errorf("%s was deleted by Helm, not reported as pruned", strconv.Quote(l["kind"].(string)))
				}
			}
		})
	}
}

// find is the object of items with obj's kind, namespace and name.
func find(items []map[string]any, obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	for _, it := range items {
		imd, _ := it["metadata"].(map[string]any)
		if it["kind"] == obj["kind"] && imd["name"] == md["name"] && (imd["namespace"] == md["namespace"] || md["namespace"] == "" && imd["namespace"] == nil) {
			return it
		}
	}
	return nil
}
