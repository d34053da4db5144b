package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/testdata/benchcorpus"
)

// TestGitOpsGate runs the binary as a CI job would on a generated GitOps repository of about
// 50 objects and its live state, in each CI format: the annotations are well-formed and
// point at the right file and line, the JUnit report is valid XML with one case per object
// and the failures the JSON report has, the pull-request comment is the golden one, and
// every format exits alike.
func TestGitOpsGate(t *testing.T) {
	bin := buildBinary(t)
	c, err := benchcorpus.Generate(benchcorpus.Options{Objects: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := c.Write(dir); err != nil {
		t.Fatal(err)
	}
	gate := []string{"--now", "2026-12-01T12:00:00Z", "--applier", "argocd", "--argocd-app", benchcorpus.ArgoCDApplication,
		"--fail-on", "takeover,deletion,rejected", "--allow-takeover-from", "kubectl-client-side-apply", "--protect", "kube-controller-manager"}
	runGate := func(format string, extra ...string) (string, string, int) {
		args := append(append(append([]string{}, gate...), extra...), "-o", format, "repo", "live.json")
		return runBinary(t, bin, dir, args...)
	}

	jsonOut, _, code := runGate("json")
	validateReport(t, []byte(jsonOut))
	var rep struct {
		Results []struct {
			Source   struct{ File string }
			Findings []struct {
				Category, Level string
				Paths           []string
				Line            int
			}
		}
		Summary struct{ Objects, Failures, ExitCode int }
	}
	if err := json.Unmarshal([]byte(jsonOut), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Objects != c.Objects || rep.Summary.ExitCode != code {
		t.Fatalf("%d objects (corpus %d), exit %d (report %d)", rep.Summary.Objects, c.Objects, code, rep.Summary.ExitCode)
	}
	failingObjects, conflicts := 0, 0
	for _, r := range rep.Results {
		fails := false
		for _, f := range r.Findings {
			fails = fails || f.Level == "failure"
			if f.Category == "conflict" {
				conflicts++
			}
		}
		if fails {
			failingObjects++
		}
	}
	if failingObjects == 0 || conflicts == 0 || code != 4 {
		t.Fatalf("the corpus should make the gate fail with conflicts: %d failing objects, %d conflicts, exit %d", failingObjects, conflicts, code)
	}

	t.Run("github", func(t *testing.T) {
		out, stderr, gcode := runGate("github", "--summary")
		if gcode != code {
			t.Errorf("exit %d, json %d", gcode, code)
		}
		if !strings.Contains(stderr, "Result: fails:") {
			t.Errorf("the summary goes to stderr beside -o github:\n%s", stderr)
		}
		cmd := regexp.MustCompile(`^::(error|warning|notice) file=([^,:]+),line=([0-9]+),title=([^,:]+)::(.+)$`)
		files := map[string][]string{}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		checked := 0
		for _, l := range lines[:len(lines)-1] {
			m := cmd.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("malformed: %q", l)
				continue
			}
			if strings.ContainsAny(m[5], "\r\n") {
				t.Errorf("unescaped line break: %q", l)
			}
			text, ok := files[m[2]]
			if !ok {
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m[2])))
				if err != nil {
					t.Errorf("annotation on a file that is not there: %v", err)
					continue
				}
				text = strings.Split(string(b), "\n")
				files[m[2]] = text
			}
			n, _ := strconv.Atoi(m[3])
			if n < 1 || n > len(text) {
				t.Errorf("line %d out of %s (%d lines)", n, m[2], len(text))
				continue
			}
			// A conflict's field is in the manifest: the annotation is on its line.
			if strings.HasSuffix(m[4], "%3A conflict") {
				f := conflictField.FindStringSubmatch(m[5])
				if f == nil {
					t.Errorf("no field in %q", m[5])
					continue
				}
				if !strings.Contains(text[n-1], f[1]+":") {
					t.Errorf("%s:%d is %q, not the field %s", m[2], n, text[n-1], f[1])
				}
				checked++
			}
		}
		if checked == 0 {
			t.Error("no conflict annotation checked")
		}
		if !strings.HasPrefix(lines[len(lines)-1], "ssa-diff: ") {
			t.Errorf("no summary: %q", lines[len(lines)-1])
		}
	})

	t.Run("junit", func(t *testing.T) {
		out, _, jcode := runGate("junit")
		if jcode != code {
			t.Errorf("exit %d, json %d", jcode, code)
		}
		var doc struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Suite    struct {
				Cases []struct {
					File string `xml:"file,attr"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("not XML: %v", err)
		}
		if doc.Tests != c.Objects || len(doc.Suite.Cases) != c.Objects || doc.Failures != failingObjects {
			t.Errorf("%d tests, %d cases, %d failures; want %d objects, %d failing", doc.Tests, len(doc.Suite.Cases), doc.Failures, c.Objects, failingObjects)
		}
		for i, tc := range doc.Suite.Cases {
			if want := filepath.ToSlash(rep.Results[i].Source.File); tc.File != want {
				t.Errorf("case %d in %s, want %s (input order)", i, tc.File, want)
			}
		}
	})

	t.Run("markdown", func(t *testing.T) {
		out, _, mcode := runGate("markdown")
		if mcode != code {
			t.Errorf("exit %d, json %d", mcode, code)
		}
		golden(t, "gitops-gate.md", []byte(out))
	})

}

// conflictField is the last field name of the path in a conflict finding's message.
var conflictField = regexp.MustCompile(`^(?:forced: |conflict with [^:]+: )\S*\.([A-Za-z0-9_-]+)(?:\[[^\]]*\])?[ ,]`)
