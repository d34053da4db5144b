package cli

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFirstMistakes: each first mistake of a newcomer (issue 41) answered with what
// happened and what to do, and its exit status; every answer pinned by
// cli/testdata/golden/mistakes.txt (-update rewrites it). The inputs are in
// cli/testdata/mistakes.
func TestFirstMistakes(t *testing.T) {
	root := repoRoot(t)
	dir := filepath.Join(root, "cli", "testdata", "mistakes")
	ex := filepath.Join(root, "testdata", "examples", "hpa-owns-replicas")
	in := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name  string
		stdin string
		args  []string
		exit  int
	}{
		{"a lone live object without managedFields (predicted as the server answers one whose managedFields were cleared, with a warning)", "", []string{in("lone-manifest.yaml"), in("lone-live.json")}, 3},
		{"apiVersion: app/v1", "", []string{in("group-typo.yaml")}, 3},
		{"kind: Deploymnet", "", []string{in("kind-typo.yaml")}, 3},
		{"kind: configmap", "", []string{in("kind-lowercase.yaml")}, 3},
		{"a custom resource's kind misspelt", "", []string{"--crd", in("crd.yaml"), in("cr-kind-typo.yaml")}, 3},
		{"MANIFESTS and LIVE swapped", "", []string{filepath.Join(ex, "live.json"), filepath.Join(ex, "manifest.yaml")}, 2},
		{"a manifest exported from the cluster", "", []string{in("exported.yaml")}, 3},
		{"-f URL", "", []string{"-f", "https://example.com/app.yaml"}, 2},
		{"- -", "", []string{"-", "-"}, 2},
		{"an empty file", "", []string{in("empty.yaml")}, 2},
		{"a directory holding a Helm chart", "", []string{in("chart")}, 2},
		{"an unsubstituted variable", "", []string{in("unsubstituted.yaml")}, 3},
		{"an unknown flag", "", []string{"--frobnicate", in("kind-typo.yaml")}, 2},
		{"--kube-version nearest without a version record", "", []string{"--kube-version", "nearest", filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json")}, 3},
	}
	var got strings.Builder
	paths := regexp.MustCompile(regexp.QuoteMeta(root + string(filepath.Separator)))
	for _, c := range cases {
		args := append([]string{"--now", exampleNow, "--color", "never"}, c.args...)
		out, errs, code := run(t, c.stdin, args...)
		if code != c.exit {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.name, code, c.exit, out, errs)
		}
		got.WriteString("# " + c.name + " (exit " + strconv.Itoa(code) + ")\n")
		got.WriteString(paths.ReplaceAllString(out+errs, ""))
	}
	golden(t, "mistakes.txt", []byte(got.String()))
}

// TestKubectlHabits: -R, --concurrency and --server-side accepted as kubectl means them,
// --server-side in each of its forms with the kubectl and Helm appliers.
func TestKubectlHabits(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // the --server-side value read, or the error
	}{
		{[]string{"--server-side", "m.yaml"}, "true"},
		{[]string{"--server-side=true", "m.yaml"}, "true"},
		{[]string{"--server-side", "true", "m.yaml"}, "true"},
		{[]string{"--server-side=false", "m.yaml"}, "error: --server-side=false: ssa-diff predicts server-side applies only"},
		{[]string{"--server-side", "false", "m.yaml"}, "error: --server-side=false: ssa-diff predicts server-side applies only"},
		{[]string{"--server-side=auto", "m.yaml"}, "error: --server-side=auto"},
		{[]string{"--server-side=yes", "m.yaml"}, `error: --server-side must be auto, true or false, not "yes"`},
		{[]string{"--applier", "helm", "--helm-release", "web", "--server-side", "m.yaml"}, "true"},
		{[]string{"--applier", "helm", "--helm-release", "web", "--server-side=auto", "m.yaml"}, "auto"},
		{[]string{"--applier", "helm", "--helm-release", "web", "--server-side=false", "m.yaml"}, "false"},
		{[]string{"--applier", "helm", "--helm-release", "web", "--server-side", "false", "m.yaml"}, "false"},
		{[]string{"--applier", "helm", "--helm-release", "web", "--server-side", "auto", "m.yaml", "live.json"}, "auto"},
		{[]string{"--applier", "helm", "--helm-release", "web", "m.yaml"}, ""},
		{[]string{"-R", "--server-side", "m.yaml"}, "true"},
		{[]string{"--recursive=false", "m.yaml"}, "error: --recursive=false"},
		{[]string{"--concurrency", "3", "--jobs", "2", "m.yaml"}, "error: --concurrency is --jobs"},
	} {
		var out, errb strings.Builder
		cfg, _ := parseFlags("ssa-diff", c.args, &out, &errb)
		got := errb.String()
		if cfg != nil {
			got = cfg.helmValue("server-side")
			if len(cfg.manifests) != 1 || cfg.manifests[0] != "m.yaml" {
				t.Errorf("%q: manifests %q", c.args, cfg.manifests)
			}
		}
		if !strings.HasPrefix(got, c.want) || (cfg != nil && got != c.want) {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
	var out, errb strings.Builder
	if cfg, _ := parseFlags("ssa-diff", []string{"--concurrency", "3", "m.yaml"}, &out, &errb); cfg == nil || cfg.jobs != 3 {
		t.Errorf("--concurrency 3: %+v %s", cfg, errb.String())
	}
}
