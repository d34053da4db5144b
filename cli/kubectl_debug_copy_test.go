package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kubectl debug --copy-to predicts the POST of the copy (rules.md kubectl.debug-copy): a
// create, and when LIVE holds a pod of the copy's name beside the pod copied, the server's
// 409 as kubectl prints it.
func TestKubectlDebugCopyNameTaken(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "conformance", "testdata", "verbs", "kubectl-debug-copy")
	line := "debug web -n kubectl-debug-copy --copy-to=web-debug --image=busybox:1.36 -c debugger"
	args := []string{"--kube-version", "1.37", "--now", "2026-12-06T01:50:40Z", "--kubectl", line}

	out, stderr, code := run(t, "", append(args, filepath.Join(dir, "live.json"))...)
	if code != 1 || !strings.Contains(out, "web-debug") {
		t.Fatalf("the copy: exit %d, want 1 (a create)\n%s%s", code, out, stderr)
	}

	var items []any
	for _, f := range []string{"live.json", "want.json"} { // the pod copied, and a pod named as the copy
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		var obj any
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatal(err)
		}
		items = append(items, obj)
	}
	list, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	live := filepath.Join(t.TempDir(), "live.json")
	if err := os.WriteFile(live, list, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = run(t, "", append(args, live)...)
	if want := `Error from server (AlreadyExists): pods "web-debug" already exists`; code != 3 || !strings.Contains(out, want) {
		t.Errorf("a pod named as the copy: exit %d, want 3 and %q\n%s%s", code, want, out, stderr)
	}
}
