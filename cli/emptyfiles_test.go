package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// An empty manifest file beside others is left out with a warning, as kubectl leaves it:
// it is no object, so the report counts only the others (issue #41's object counts).
// Alone, the run is refused before any report, as kubectl refuses it (exit 2).
func TestEmptyFileBesideOthersIsLeftOut(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"empty.yaml":      "",
		"separators.yaml": "---\n# nothing\n---\n",
		"cm.yaml":         "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {a: b}\n",
	})
	out, stderr, code := run(t, "", "-o", "json", "--now", "2026-01-01T00:00:00Z",
		"-f", filepath.Join(dir, "empty.yaml"), "-f", filepath.Join(dir, "separators.yaml"), "-f", filepath.Join(dir, "cm.yaml"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a change predicted)\n%s", code, stderr)
	}
	for _, name := range []string{"empty.yaml: no objects: the file is empty: left out", "separators.yaml: no objects: the file holds only blanks, comments and document separators: left out"} {
		if !strings.Contains(stderr, name) {
			t.Errorf("stderr lacks %q:\n%s", name, stderr)
		}
	}
	var rep struct {
		Results []struct {
			Action string `json:"action"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Action != "create" {
		t.Errorf("results %+v, want the ConfigMap's create alone", rep.Results)
	}
}

func TestEmptyFilesAloneAreRefused(t *testing.T) {
	dir := writeFiles(t, map[string]string{"empty.yaml": "", "separators.yaml": "---\n# nothing\n---\n"})
	for _, name := range []string{"empty.yaml", "separators.yaml"} {
		out, stderr, code := run(t, "", "-o", "json", filepath.Join(dir, name))
		if code != 2 || out != "" {
			t.Errorf("%s: exit %d, stdout %q, want 2 and nothing", name, code, out)
		}
		if !strings.Contains(stderr, `kubectl apply answers "error: no objects passed to apply"`) || !strings.Contains(stderr, name+": no objects") {
			t.Errorf("%s: stderr %s", name, stderr)
		}
	}
}
