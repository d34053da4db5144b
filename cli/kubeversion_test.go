package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
)

// A MutatingAdmissionPolicy of admissionregistration.k8s.io/v1: served from 1.36, not by
// 1.33 to 1.35 (schema/testdata/served).
const mutatingPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: add-label
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"team": "a"}}}'
  reinvocationPolicy: Never
`

// kubeReport is what these tests read of a JSON report.
type kubeReport struct {
	Options struct {
		KubernetesVersion string `json:"kubernetesVersion"`
	} `json:"options"`
	Results []struct {
		Action string `json:"action"`
	} `json:"results"`
}

// --kube-version: the whole prediction follows the minor given (here, the versions it
// serves), in any of the spellings users have at hand; the JSON report says which.
func TestKubeVersionFlag(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(manifest, []byte(mutatingPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flag, minor, action string
	}{
		{"v1.33.13", "1.33", "rejected"},
		{"1.34", "1.34", "rejected"},
		{"v1.35", "1.35", "rejected"},
		{"1.36.3", "1.36", "create"},
		{"v1.37.2", "1.37", "create"},
		{"", "1.37", "create"},
	} {
		args := []string{"-o", "json", nowFlag}
		if c.flag != "" {
			args = append(args, "--kube-version", c.flag)
		}
		out, stderr, _ := run(t, "", append(args, manifest)...)
		var rep kubeReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("--kube-version %q: %v\n%s", c.flag, err, stderr)
		}
		if rep.Options.KubernetesVersion != c.minor || len(rep.Results) != 1 || rep.Results[0].Action != c.action {
			t.Errorf("--kube-version %q: kubernetesVersion %q, results %+v; want %s, %s", c.flag, rep.Options.KubernetesVersion, rep.Results, c.minor, c.action)
		}
	}
	for flag, msg := range map[string]string{
		"1.31": "--kube-version 1.31: ssa-diff predicts Kubernetes 1.32, 1.33, 1.34, 1.35, 1.36, 1.37 or 1.38",
		"1.39": "--kube-version 1.39: ssa-diff predicts Kubernetes",
		"x":    `--kube-version: version "x" of Kubernetes`,
	} {
		out, stderr, code := run(t, "", "--kube-version", flag, manifest)
		if code != 2 || out != "" || !strings.Contains(stderr, msg) {
			t.Errorf("--kube-version %s: exit %d, stderr %q, want 2 and %q", flag, code, stderr, msg)
		}
	}
}

// A dump that --save-live wrote names the cluster's version: the run predicts that minor
// unless --kube-version says otherwise.
func TestKubeVersionFromSavedDump(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(manifest, []byte(mutatingPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	dump := func(server string) string {
		p := filepath.Join(dir, "live-"+server+".json")
		doc := `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"ssa-diff.github.io/v1alpha1","kind":"LiveStateRead",` +
			`"metadata":{"name":"live-state"},"context":"ci","serverVersion":"` + server + `","resources":[]}]}`
		if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		server string
		args   []string
		code   int
		minor  string
		stderr string
	}{
		{"v1.35.4", nil, 3, "1.35", ""}, // refused (404): exit 3
		{"v1.36.3", nil, 1, "1.36", ""},
		{"v1.35.4", []string{"--kube-version", "1.37"}, 1, "1.37", "predicting 1.37 as --kube-version says"},
		{"v1.31.0", nil, 2, "", "runs Kubernetes v1.31.0, which ssa-diff does not predict"},
		{"v1.31.0", []string{"--kube-version", "nearest"}, 3, "1.32", "predicting 1.32, the nearest supported minor"},
	} {
		args := append([]string{"-o", "json", nowFlag}, c.args...)
		out, stderr, code := run(t, "", append(args, manifest, dump(c.server))...)
		var rep kubeReport
		_ = json.Unmarshal([]byte(out), &rep)
		if code != c.code || rep.Options.KubernetesVersion != c.minor || !strings.Contains(stderr, c.stderr) {
			t.Errorf("dump of %s %q: exit %d, kubernetesVersion %q; want %d, %q, stderr with %q\nstderr: %s", c.server, c.args, code, rep.Options.KubernetesVersion, c.code, c.minor, c.stderr, stderr)
		}
	}
}

// The report's schema lists exactly the supported minors.
func TestReportSchemaListsTheMinors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "report.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties struct {
			Options struct {
				Properties struct {
					KubernetesVersion struct {
						Enum []string `json:"enum"`
					} `json:"kubernetesVersion"`
				} `json:"properties"`
			} `json:"options"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, v := range kube.Minors() {
		want = append(want, v.String())
	}
	if got := doc.Properties.Options.Properties.KubernetesVersion.Enum; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("docs/report.schema.json lists the minors %v, ssa-diff predicts %v", got, want)
	}
}
