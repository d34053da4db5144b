package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The repository of testdata/gitops-e2e: a kustomize base with two overlays (prod patches
// replicas in a file and the memory limit inline; staging patches replicas with a JSON
// patch), a Helm chart rendered by `helm template` on standard input, and the live state a
// real kube-apiserver 1.37.2 holds after the previous revision was synced (record.sh): the
// autoscaler owns prod's replicas, a person raised its memory limit with kubectl edit, Helm
// installed the chart at an older image, and prod had a PodDisruptionBudget the repository
// no longer has. The operator's CRD of BackupPolicy is not in the repository.
const e2eNow = "2026-12-03T12:00:00Z"

// e2eGate is the gate's command line, run in the repository with the chart's rendering on
// standard input.
var e2eGate = []string{"--now", e2eNow, "--applier", "argocd", "--argocd-app", "shop", "-n", "shop-prod", "--prune",
	"--fail-on", "conflicts,rejected,prune,approximate", "--source-root", "charts",
	"-k", "overlays/prod", "-k", "overlays/staging", "-f", "-", "../live.json"}

// runIn runs the binary in dir with stdin.
func runIn(t *testing.T, bin, dir string, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestGitOpsRepositoryEndToEnd(t *testing.T) {
	bin := buildBinary(t)
	base := filepath.Join(repoRoot(t), "testdata", "gitops-e2e")
	repo := filepath.Join(base, "repo")
	helm, err := os.ReadFile(filepath.Join(repo, "helm-rendered.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	gate := func(t *testing.T, format string, extra ...string) (string, string) {
		t.Helper()
		args := append(append(append([]string{}, e2eGate...), extra...), "-o", format)
		out, stderr, code := runIn(t, bin, repo, helm, args...)
		if code != 4 {
			t.Fatalf("-o %s: exit %d, want 4 (conflicts, a prune and an approximation fail the policy)\n%s%s", format, code, out, stderr)
		}
		return out, stderr
	}

	for _, f := range []struct{ format, golden string }{
		{"text", "gitops-e2e.txt"}, {"github", "gitops-e2e.github"}, {"junit", "gitops-e2e.xml"}, {"markdown", "gitops-e2e.md"},
	} {
		t.Run(f.format, func(t *testing.T) {
			out, _ := gate(t, f.format)
			golden(t, f.golden, []byte(out))
			if f.format != "junit" {
				return
			}
			var doc struct {
				Tests    int `xml:"tests,attr"`
				Failures int `xml:"failures,attr"`
			}
			if err := xml.Unmarshal([]byte(out), &doc); err != nil || doc.Tests != 11 || doc.Failures != 5 {
				t.Errorf("JUnit: %d tests, %d failures (%v); want 11 objects (10 applied, 1 pruned), 5 failing", doc.Tests, doc.Failures, err)
			}
		})
	}

	// Every annotation is at a line of a file of the repository, and a conflict's at the
	// line that sets its field: the patch of the overlay, or the chart's template.
	t.Run("annotations", func(t *testing.T) {
		out, _ := gate(t, "github")
		cmd := regexp.MustCompile(`^::(error|warning|notice) file=([^,]+),line=([0-9]+),title=([^,]+)::(.+)$`)
		want := map[string]string{ // the field of each conflict → where it is set
			"replicas": "overlays/prod/replicas.yaml",
			"memory":   "overlays/prod/kustomization.yaml",
			"image":    "charts/redis/templates/statefulset.yaml",
		}
		seen := map[string]bool{}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		for _, l := range lines[:len(lines)-1] {
			m := cmd.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("malformed or without a file: %q", l)
				continue
			}
			text, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(m[2])))
			if err != nil {
				if m[2] == "../live.json" && strings.Contains(m[4], "prune") {
					continue // a pruned object is where the dump has it
				}
				t.Errorf("annotation on a file that is not there: %v", err)
				continue
			}
			n, _ := strconv.Atoi(m[3])
			fileLines := strings.Split(string(text), "\n")
			if n < 1 || n > len(fileLines) {
				t.Errorf("line %d out of %s", n, m[2])
				continue
			}
			if !strings.HasSuffix(m[4], "%3A conflict") {
				continue
			}
			f := conflictField.FindStringSubmatch(m[5])
			if f == nil {
				t.Errorf("no field in %q", m[5])
				continue
			}
			if want[f[1]] != m[2] || !strings.Contains(fileLines[n-1], f[1]+":") {
				t.Errorf("the conflict on %s is at %s:%d (%q), want the line that sets it in %s", f[1], m[2], n, fileLines[n-1], want[f[1]])
			}
			seen[f[1]] = true
		}
		if len(seen) != len(want) {
			t.Errorf("conflicts annotated: %v, want %v", seen, want)
		}
	})

	// The predictions are the real server's answers (server-dry-run.json, recorded by
	// record.sh), except the custom kind ssa-diff has no schema for — which --crd fixes.
	t.Run("server", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(base, "server-dry-run.json"))
		if err != nil {
			t.Fatal(err)
		}
		var recorded struct{ Items []map[string]interface{} }
		if err := json.Unmarshal(data, &recorded); err != nil {
			t.Fatal(err)
		}
		for _, crd := range []bool{false, true} {
			args := append([]string{}, e2eGate...)
			if crd {
				args = append(args, "--crd", "../operator-crd.yaml")
			}
			out, _, _ := runIn(t, bin, repo, helm, append(args, "-o", "json")...)
			validateReport(t, []byte(out))
			var rep struct {
				Results []struct {
					Kind, Namespace, Name, Action string
					Object                        map[string]interface{}
					Approximations                []struct{ Reason string }
				}
				Summary struct{ Pruned, Approximate int }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Summary.Pruned != 1 {
				t.Errorf("%d pruned, want the PodDisruptionBudget", rep.Summary.Pruned)
			}
			compared := 0
			for _, want := range recorded.Items {
				md := want["metadata"].(map[string]interface{})
				for _, r := range rep.Results {
					if r.Kind != want["kind"] || r.Namespace != md["namespace"] || r.Name != md["name"] {
						continue
					}
					compared++
					same := reflect.DeepEqual(withoutVolatile(want), withoutVolatile(r.Object))
					switch {
					case r.Kind == "BackupPolicy" && !crd:
						if same || len(r.Approximations) == 0 || r.Approximations[0].Reason != "no-schema" {
							t.Errorf("%s %s without its CRD: same as the server %v, approximations %v", r.Kind, r.Name, same, r.Approximations)
						}
					case !same:
						got, _ := json.MarshalIndent(withoutVolatile(r.Object), "", " ")
						exp, _ := json.MarshalIndent(withoutVolatile(want), "", " ")
						t.Errorf("%s %s/%s (crd %v) is not the server's:\n%s\nwant\n%s", r.Kind, r.Namespace, r.Name, crd, got, exp)
					}
				}
			}
			if compared != len(recorded.Items) {
				t.Errorf("compared %d of the %d recorded objects", compared, len(recorded.Items))
			}
			if crd && rep.Summary.Approximate != 0 {
				t.Errorf("with the CRD, %d approximate results", rep.Summary.Approximate)
			}
		}
	})
}

// withoutVolatile is an object without what a dry-run and a prediction made at other
// times differ in: resourceVersion and managedFields times.
func withoutVolatile(obj map[string]interface{}) interface{} {
	b, _ := json.Marshal(obj)
	var c map[string]interface{}
	_ = json.Unmarshal(b, &c)
	if md, ok := c["metadata"].(map[string]interface{}); ok {
		delete(md, "resourceVersion")
		if mf, ok := md["managedFields"].([]interface{}); ok {
			for _, e := range mf {
				if em, ok := e.(map[string]interface{}); ok {
					delete(em, "time")
				}
			}
		}
	}
	return c
}
