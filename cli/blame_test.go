package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestBlameGolden(t *testing.T) {
	live := filepath.Join(repoRoot(t), "testdata", "examples", "csa-to-ssa-migration", "live.json")
	out, stderr, code := run(t, "", "blame", "--now", exampleNow, live)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "blame-csa.txt", []byte(out))

	full, _, _ := run(t, "", "blame", "--time", "full", live)
	if !strings.Contains(full, "kubectl-client-side-apply (Update)  2026-12-02T09:36:49Z    API_URL: https://api.example.com") {
		t.Errorf("--time full:\n%s", full)
	}

	js, _, code := run(t, "", "blame", "-o", "json", live)
	var objs []struct {
		Kind   string
		Fields []struct {
			Path   string
			Owners []struct{ Manager, Operation string }
		}
	}
	if err := json.Unmarshal([]byte(js), &objs); err != nil || code != 0 || len(objs) != 1 {
		t.Fatalf("exit %d, %v\n%s", code, err, js)
	}
	found := false
	for _, f := range objs[0].Fields {
		if f.Path == ".data.DEBUG" && len(f.Owners) == 1 && f.Owners[0].Manager == "kubectl-client-side-apply" && f.Owners[0].Operation == "Update" {
			found = true
		}
	}
	if !found {
		t.Errorf("no owner for .data.DEBUG: %+v", objs[0].Fields)
	}
}

func TestBlameUsage(t *testing.T) {
	if _, stderr, code := run(t, "", "blame"); code != 2 || !strings.Contains(stderr, "want exactly one LIVE argument") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	if _, stderr, code := run(t, "", "blame", "--time", "soon", "x"); code != 2 || !strings.Contains(stderr, "--time must be") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	if out, _, code := run(t, "", "blame", "--help"); code != 0 || !strings.Contains(out, "ssa-diff blame [flags] LIVE") {
		t.Errorf("exit %d, %q", code, out)
	}
	dir := writeFiles(t, map[string]string{"l.json": `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}`})
	out, stderr, code := run(t, "", "blame", filepath.Join(dir, "l.json"))
	if code != 0 || !strings.Contains(stderr, "has no metadata.managedFields") || !strings.Contains(out, "  k: v") {
		t.Errorf("exit %d, stderr %q, out %q", code, stderr, out)
	}
}
