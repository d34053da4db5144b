package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The ignore rules hide a conflict's field from the report's findings, but the server
// still refuses the apply: exit 3 whatever is ignored (testdata/examples/hpa-owns-replicas,
// recorded from kube-apiserver 1.37.2).
func TestIgnoreKeepsARefusal(t *testing.T) {
	ex := filepath.Join(repoRoot(t), "testdata/examples/hpa-owns-replicas")
	args := []string{"--now", exampleNow, filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json")}
	for _, extra := range [][]string{nil, {"--ignore-path", ".spec.replicas"}, {"--ignore-path", "apps/Deployment:/spec/replicas"}, {"--ignore-manager", "hpa-controller"}} {
		out, _, code := run(t, "", append(extra, args...)...)
		if code != 3 || !strings.Contains(out, "rejected (409 Conflict)") {
			t.Errorf("%q: exit %d\n%s", extra, code, out)
		}
	}
	// With force the takeover from the ignored manager is a notice: --fail-on takeover passes.
	forced := append([]string{"--force-conflicts", "--fail-on", "takeover,conflicts"}, args...)
	if _, _, code := run(t, "", forced...); code != 4 {
		t.Errorf("forced, failing on takeovers: exit %d, want 4", code)
	}
	if out, _, code := run(t, "", append([]string{"--ignore-manager", "hpa-controller"}, forced...)...); code != 1 {
		t.Errorf("forced, the manager ignored: exit %d, want 1\n%s", code, out)
	}
}

func TestNoiseFlagsRefuseBadValues(t *testing.T) {
	for _, c := range []struct{ flag, value, want string }{
		{"--ignore-path", "spec[", "--ignore-path: bad ignore path"},
		{"--ignore-path", "a/b/c:/x", "is not KIND, GROUP/KIND or GROUP/KIND/NAMESPACE/NAME"},
		{"--ignore-manager", "", "an empty manager name"},
		{"--ignore-filename-pattern", "(", "--ignore-filename-pattern \"(\""},
	} {
		_, errs, code := run(t, "", c.flag, c.value, "m.yaml", "l.json")
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%s %q: exit %d, %q", c.flag, c.value, code, errs)
		}
	}
}

func TestSkipAndIgnoreFilenamePattern(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"cm.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\ndata: {k: v}\n",
		"secret.yaml":   "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: x}\nstringData: {k: v}\n",
		"deploy.yaml":   "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: x}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}\n",
		"broken.yaml":   "kind: [\n",
		"sub/keep.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: x}\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errs, code := run(t, "", "--now", exampleNow, "-o", "json", "--skip", "Secret,apps/v1/Deployment", "--ignore-filename-pattern", `broken\.yaml$`, "-f", dir)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{`"name": "a"`, `"name": "b"`} {
		if !strings.Contains(out, want) {
			t.Errorf("%s not reported", want)
		}
	}
	for _, gone := range []string{`"kind": "Secret"`, `"kind": "Deployment"`, "broken.yaml"} {
		if strings.Contains(out, gone) {
			t.Errorf("%s reported", gone)
		}
	}
	if _, _, code := run(t, "", "--now", exampleNow, "-f", dir); code != 2 {
		t.Errorf("without the pattern the broken file is read: exit %d, want 2", code)
	}
}
