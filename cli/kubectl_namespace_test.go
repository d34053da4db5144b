package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A --kubectl command naming its object without -n leaves the namespace to kubectl's
// context, as a manifest without one does: with one live object of that name, the
// command is predicted in its namespace, with a warning; with -n given, another
// namespace is another object.
func TestKubectlCommandWithoutNamespaceTakesTheLiveObjects(t *testing.T) {
	live := filepath.Join(repoRoot(t), "conformance", "testdata", "verbs", "kubectl-label-add", "live.json")

	out, stderr, code := run(t, "", "--kubectl", "label deployment web tier=gold", live)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (an update)\n%s%s", code, out, stderr)
	}
	for _, want := range []string{"Deployment kubectl-label-add/web: update", "+ .metadata.labels.tier", `live object's namespace "kubectl-label-add"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, stderr, code = run(t, "", "-n", "other", "--kubectl", "label deployment web tier=gold", live)
	if code != 2 || !strings.Contains(out, "Deployment.apps other/web, whose live state was not given") {
		t.Errorf("with -n other: exit %d, want 2 naming other/web\n%s%s", code, out, stderr)
	}
}
