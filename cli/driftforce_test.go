package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// driftForce is the recorded case of cli/testdata/drift-force (record.sh, kube-apiserver
// 1.37.2): the drift example's history, and a manifest that sets a field kubectl edit owns.
var driftForce = []string{"cli/testdata/drift-force/manifest.yaml", "cli/testdata/drift-force/live.json"}

// A refused apply's drift says what the apply with --force-conflicts does to each field,
// as the server's answer to the forced apply shows it, in every format.
func TestDriftWithForceIsTheServersAnswer(t *testing.T) {
	t.Chdir(repoRoot(t))
	dir := filepath.Join("cli", "testdata", "drift-force")
	js, stderr, code := run(t, "", append([]string{"--now", exampleNow, "-o", "json"}, driftForce...)...)
	if code != 3 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	validateReport(t, []byte(js))
	golden(t, "drift-force.json", []byte(js))
	var rep struct {
		Results []struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
			Drift []struct {
				Path, Pointer, Fate string
				Live                any
				Default             bool
				WithForce           *struct{ Fate string } `json:"withForce"`
			} `json:"drift"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("%v: %s", err, js)
	}
	refused, err := os.ReadFile(filepath.Join(dir, "server-refused.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(refused), "\n"); "error: "+rep.Results[0].Error.Message != first {
		t.Errorf("refusal %q, the server's %q", rep.Results[0].Error.Message, first)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "server-forced.json"))
	if err != nil {
		t.Fatal(err)
	}
	var forced map[string]any
	if err := json.Unmarshal(raw, &forced); err != nil {
		t.Fatal(err)
	}
	changes := 0
	for _, d := range rep.Results[0].Drift {
		if !d.Default {
			changes++
		}
		if d.Fate != "refused" || d.WithForce == nil {
			t.Errorf("%s: fate %s, with force %v", d.Path, d.Fate, d.WithForce)
			continue
		}
		// The server's forced answer: the field with the live value is kept, without it removed.
		want := "removed"
		if v, ok := atPointer(forced, d.Pointer); ok && reflect.DeepEqual(v, d.Live) {
			want = "kept"
		}
		if d.WithForce.Fate != want {
			t.Errorf("%s: with force %s, the server's answer says %s", d.Path, d.WithForce.Fate, want)
		}
	}
	if changes != 4 {
		t.Errorf("%d fields drifted from the manifest, want 4: %+v", changes, rep.Results[0].Drift)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	if _, stderr, code := run(t, "", append([]string{"--now", exampleNow, "-o", "json", "--report-html", page}, driftForce...)...); code != 3 {
		t.Fatalf("--report-html: exit %d: %s", code, stderr)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	checkPageShowsReport(t, []byte(js), string(html))
	if !strings.Contains(string(html), "with --force-conflicts: removed by the apply") {
		t.Errorf("the html page does not say what --force-conflicts does to the drift")
	}
	text, _, _ := run(t, "", append([]string{"--now", exampleNow, "--color", "never"}, driftForce...)...)
	golden(t, "drift-force.txt", []byte(text))
	md, _, _ := run(t, "", append([]string{"--now", exampleNow, "-o", "markdown"}, driftForce...)...)
	golden(t, "drift-force.md", []byte(md))
	for name, out := range map[string]string{"text": text, "markdown": md} {
		if !strings.Contains(out, "with --force-conflicts: removed by the apply") {
			t.Errorf("%s does not say what --force-conflicts does to the drift:\n%s", name, out)
		}
	}
}

// atPointer is the value at a JSON pointer of obj (keys and list indexes, no escapes
// beyond ~0 and ~1).
func atPointer(obj any, ptr string) (any, bool) {
	cur := obj
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i := 0
			for _, r := range tok {
				if r < '0' || r > '9' {
					return nil, false
				}
				i = i*10 + int(r-'0')
			}
			if i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Fields nobody owns are drift with no owners ("none"), their fate the server's answer
// (cli/testdata/drift-unowned, recorded by its record.sh from kube-apiserver 1.37.2): with
// some managedFields the apply removes the unowned key of a map it prunes and keeps the
// others; without any, the server gives them all to before-first-apply and keeps them.
func TestDriftUnownedIsTheServersAnswer(t *testing.T) {
	t.Chdir(repoRoot(t))
	dir := filepath.Join("cli", "testdata", "drift-unowned")
	manifest := filepath.Join(dir, "manifest.yaml")
	raw, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	none := filepath.Join(t.TempDir(), "manifest-none.yaml")
	if err := os.WriteFile(none, []byte(strings.Replace(string(raw), "partial", "none", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, manifest, live, server string
		want                         map[string]string
	}{
		{"partial", manifest, "live.json", "server-dry-run.json", map[string]string{
			".data.x": "removed", ".data.z": "removed", ".metadata.labels.b": "kept"}},
		{"none", none, "live-none.json", "server-dry-run-none.json", map[string]string{
			".data.x": "kept", ".data.z": "kept", ".metadata.labels.b": "kept"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"--now", exampleNow, "--field-manager", "me", c.manifest, filepath.Join(dir, c.live)}
			js, stderr, code := run(t, "", append([]string{"-o", "json"}, args...)...)
			if code != 1 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			validateReport(t, []byte(js))
			var rep struct {
				Results []struct {
					Drift []struct {
						Path, Pointer, Fate string
						Live                any
						Owners              []any
					} `json:"drift"`
				} `json:"results"`
			}
			if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Results) != 1 {
				t.Fatalf("%v: %s", err, js)
			}
			b, err := os.ReadFile(filepath.Join(dir, c.server))
			if err != nil {
				t.Fatal(err)
			}
			var server map[string]any
			if err := json.Unmarshal(b, &server); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, d := range rep.Results[0].Drift {
				got[d.Path] = d.Fate
				want := "removed"
				if v, ok := atPointer(server, d.Pointer); ok && reflect.DeepEqual(v, d.Live) {
					want = "kept"
				}
				if d.Fate != want {
					t.Errorf("%s: %s, the server's answer says %s", d.Path, d.Fate, want)
				}
				if d.Path != ".data.x" || c.name == "none" {
					if len(d.Owners) != 0 {
						t.Errorf("%s: owners %v, want none", d.Path, d.Owners)
					}
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("drift %v, want %v", got, c.want)
			}
			text, _, _ := run(t, "", append([]string{"--color", "never"}, args...)...)
			if !strings.Contains(text, "owned by none") {
				t.Errorf("the text does not say nobody owns the field:\n%s", text)
			}
			if c.name == "partial" {
				golden(t, "drift-unowned.txt", []byte(text))
				golden(t, "drift-unowned.json", []byte(js))
				md, _, _ := run(t, "", append([]string{"-o", "markdown"}, args...)...)
				golden(t, "drift-unowned.md", []byte(md))
				page := filepath.Join(t.TempDir(), "report.html")
				if _, stderr, code := run(t, "", append([]string{"-o", "json", "--report-html", page}, args...)...); code != 1 {
					t.Fatalf("--report-html: exit %d: %s", code, stderr)
				}
				html, err := os.ReadFile(page)
				if err != nil {
					t.Fatal(err)
				}
				checkPageShowsReport(t, []byte(js), string(html))
			}
		})
	}
}
