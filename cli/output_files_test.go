package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/schema"
)

// TestOutputFileFormats: one prediction writes -o's output and every --output-file
// FORMAT=PATH, each file the bytes that format alone writes (the same run with -o FORMAT);
// the -o output still goes to standard output, or to the one --output-file FILE.
func TestOutputFileFormats(t *testing.T) {
	ex := filepath.Join(repoRoot(t), "testdata", "examples", "hpa-owns-replicas")
	args := []string{"--now", "2026-12-02T12:00:00Z", filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json")}
	alone := map[string]string{}
	for _, f := range []string{"github", "markdown", "json", "junit"} {
		out, _, code := run(t, "", append([]string{"-o", f}, args...)...)
		if code != 3 {
			t.Fatalf("-o %s: exit %d", f, code)
		}
		alone[f] = out
	}

	dir := t.TempDir()
	md, js, xml := filepath.Join(dir, "report.md"), filepath.Join(dir, "report.json"), filepath.Join(dir, "a=b", "junit.xml")
	os.Mkdir(filepath.Dir(xml), 0o755)
	stdout, stderr, code := run(t, "", append([]string{"-o", "github", "--output-file", "markdown=" + md, "--output-file", "json=" + js,
		"--output-file", "junit=" + xml}, args...)...)
	if code != 3 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != alone["github"] {
		t.Errorf("-o github on standard output is not what it is alone:\n%s", stdout)
	}
	for f, path := range map[string]string{"markdown": md, "json": js, "junit": xml} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != alone[f] {
			t.Errorf("%s=%s is not -o %s's output:\n%s", f, path, f, got)
		}
	}
	// The JSON report shows what --force-conflicts would take, as -o json does alone.
	var rep struct{ Results []struct{ WithForce any } }
	if err := json.Unmarshal([]byte(alone["json"]), &rep); err != nil || len(rep.Results) != 1 || rep.Results[0].WithForce == nil {
		t.Errorf("-o json: %v %+v", err, rep)
	}

	// With a FILE too: -o's output goes there, nothing to standard output.
	txt := filepath.Join(dir, "report.txt")
	stdout, stderr, code = run(t, "", append([]string{"-o", "github", "--output-file", txt, "--output-file", "json=" + js}, args...)...)
	if got, _ := os.ReadFile(txt); code != 3 || stdout != "" || stderr != "" || string(got) != alone["github"] {
		t.Errorf("exit %d, stdout %q, stderr %q, FILE:\n%s", code, stdout, stderr, got)
	}

	// A markdown report links the HTML one written by html=PATH.
	page := filepath.Join(dir, "report.html")
	stdout, _, _ = run(t, "", append([]string{"-o", "markdown", "--output-file", "html=" + page}, args...)...)
	if b, err := os.ReadFile(page); err != nil || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) || !strings.Contains(stdout, "(<"+page+">)") {
		t.Errorf("html=%s: %v; the markdown does not link it:\n%s", page, err, stdout)
	}
}

// TestOutputFileRefused: an unknown format, a second FILE and two outputs to one file are
// usage errors (exit 2), before anything is predicted or written.
func TestOutputFileRefused(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--output-file", "xml=" + p("r.xml")}, `--output-file xml=` + p("r.xml") + `: unknown format "xml" (want FORMAT=PATH, FORMAT one of diff, github, html, json, junit, markdown, objects, text, yaml`},
		{[]string{"--output-file", p("a.txt"), "--output-file", p("b.txt")}, "--output-file " + p("a.txt") + " and " + p("b.txt") + ": the -o output goes to one FILE"},
		{[]string{"--output-file", "json=" + p("r"), "--output-file", "yaml=" + p("r")}, "--output-file: json= and yaml= are both written to " + p("r")},
		{[]string{"--report-html", p("r.html"), "--output-file", "html=" + p("r.html")}, "--output-file: --report-html and html= are both written to"},
		{[]string{"--output-file", p("r"), "--output-file", "json=" + p("r")}, "--output-file: -o text and json= are both written to"},
		{[]string{"--output-file", "json="}, "--output-file json=: needs a file name after json="},
		{[]string{"--output-file", "json=-"}, "needs a file name after json= (standard output is -o's)"},
		{[]string{"--output-file", ""}, "--output-file needs a file name"},
	} {
		_, stderr, code := run(t, "", append(c.args, "testdata/examples/hpa-owns-replicas/manifest.yaml")...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q, want %q", c.args, code, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written: %v", entries)
	}
	// A FILE with = in its name, written ./NAME, is the -o output's file.
	cfg, code := parseFlags("ssa-diff", []string{"--output-file", "./x=y", "m.yaml"}, io.Discard, io.Discard)
	if code != 0 || cfg.outputFile != "./x=y" || len(cfg.formatFiles) != 0 {
		t.Errorf("./x=y: exit %d, %+v", code, cfg)
	}
}

// TestOutputFilesLeftWhenInterrupted: a run stopped before its end writes none of the
// FORMAT=PATH files (each stays as it was).
func TestOutputFilesLeftWhenInterrupted(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 20; i++ {
		files["cm-"+string(rune('a'+i))+".yaml"] = cmYAML("cm-"+string(rune('a'+i)), "shop", `"1"`, "")
	}
	dir := writeFiles(t, files)
	out := t.TempDir()
	md := filepath.Join(out, "report.md")
	os.WriteFile(md, []byte("previous\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &interrupting{fakeEngine: *newFake(), cancel: cancel}
	var stdout, stderr bytes.Buffer
	cfg, code := parseFlags("ssa-diff", []string{"--jobs", "1", "-o", "json", "--output-file", "markdown=" + md, "--output-file", "yaml=" + filepath.Join(out, "r.yaml"), dir}, &stdout, &stderr)
	if cfg == nil {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	code = newInvocation(cfg, strings.NewReader(""), &stdout, &stderr, nil).execute(ctx, func(*schema.Registry) predictor { return p })
	if got, _ := os.ReadFile(md); code != 2 || string(got) != "previous\n" {
		t.Errorf("exit %d, markdown=%s holds %q", code, md, got)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 1 {
		t.Errorf("left in %s: %v", out, entries)
	}
}
