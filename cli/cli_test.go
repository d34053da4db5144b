package cli

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no manifests given"},
		{[]string{"a", "b", "c"}, "too many arguments"},
		{[]string{"--applier", "chef", "a"}, "--applier must be kubectl, api, argocd, flux or helm"},
		{[]string{"--applier", "helm", "a"}, "--applier helm needs --helm-release NAME"},
		{[]string{"--applier", "helm", "--helm-release", "web", "--helm-command", "rollback", "a", "b"}, "--helm-command rollback takes no manifests"},
		{[]string{"--helm-release", "web", "a"}, "--helm-release is Helm's (--applier helm)"},
		{[]string{"--now", "yesterday", "a"}, "--now: \"yesterday\" is not an RFC 3339 time"},
		{[]string{"-o", "xml", "a"}, `unknown output format "xml"`},
		{[]string{"--color", "sometimes", "a"}, "--color must be auto, always or never"},
		{[]string{"--subresource", "spec", "a"}, "--subresource must be status, scale, resize or ephemeralcontainers"},
		{[]string{"--subresource", "binding", "a"}, `--subresource must be status, scale, resize or ephemeralcontainers, not "binding": a write to /binding is not predicted`},
		{[]string{"--bogus", "a"}, "unknown flag: --bogus"},
		{[]string{"--jobs", "0", "a"}, "--jobs must be at least 1"},
	} {
		_, stderr, code := run(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	out, _, code := run(t, "", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"Usage:\n  ssa-diff [flags] MANIFESTS [LIVE]", "Exit status:\n  0  nothing would change", "3  the server would reject",
		"--field-manager NAME", "--force-conflicts", "--applier kubectl|api", "--show-managed-fields", "--show-secrets", "--color WHEN", "--now TIME", "--crd PATH", "--schema PATH"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	var b strings.Builder
	RunAs("kubectl ssa-diff", []string{"-h"}, nil, &b, &b)
	if !strings.Contains(b.String(), "kubectl ssa-diff [flags] MANIFESTS [LIVE]") {
		t.Error("the plugin's usage does not name it as kubectl calls it")
	}
}

func TestProgramName(t *testing.T) {
	for argv0, want := range map[string]string{
		"ssa-diff": "ssa-diff", "/usr/local/bin/ssa-diff": "ssa-diff",
		"/home/u/bin/kubectl-ssa_diff": "kubectl ssa-diff", `C:\bin\kubectl-ssa_diff.exe`: "kubectl ssa-diff",
	} {
		if got := ProgramName(filepath.ToSlash(argv0)); got != want && !strings.Contains(argv0, `\`) {
			t.Errorf("ProgramName(%q) = %q, want %q", argv0, got, want)
		}
	}
}

// examples lists testdata/examples: each has a command file with the command line, run from
// the repository root.
func examples(t *testing.T) map[string][]string {
	t.Helper()
	root := repoRoot(t)
	dirs, err := filepath.Glob(filepath.Join(root, "testdata", "examples", "*", "command"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	out := map[string][]string{}
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Fields(string(b))
		if args[0] != "ssa-diff" {
			t.Fatalf("%s: the command does not start with ssa-diff", f)
		}
		out[filepath.Base(filepath.Dir(f))] = args[1:]
	}
	return out
}

// exampleNow is the --now of the examples' golden outputs.
const exampleNow = "2026-12-02T12:00:00Z"

func TestExamplesGolden(t *testing.T) {
	t.Chdir(repoRoot(t))
	wantExit := map[string]int{"hpa-owns-replicas": 3, "csa-to-ssa-migration": 1, "field-deleted": 1, "crd-backup": 1, "immutable-selector": 3, "drift": 1}
	ex := examples(t)
	names := make([]string, 0, len(ex))
	for n := range ex {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		args := ex[name]
		t.Run(name, func(t *testing.T) {
			out, stderr, code := run(t, "", append([]string{"--now", exampleNow, "--color", "never"}, args...)...)
			if want, ok := wantExit[name]; !ok || code != want {
				t.Errorf("exit %d, want %d (stderr %q)", code, wantExit[name], stderr)
			}
			golden(t, name+".txt", []byte(out))
			colored, _, _ := run(t, "", append([]string{"--now", exampleNow, "--color", "always"}, args...)...)
			golden(t, name+".color.txt", []byte(colored))

			js, _, _ := run(t, "", append([]string{"--now", exampleNow, "-o", "json"}, args...)...)
			validateReport(t, []byte(js))
			ys, _, _ := run(t, "", append([]string{"--now", exampleNow, "-o", "yaml"}, args...)...)
			fromYAML, err := yaml.YAMLToJSON([]byte(ys))
			if err != nil {
				t.Fatal(err)
			}
			validateReport(t, fromYAML)
		})
	}
}

func TestNoColorByDefaultWhenPiped(t *testing.T) {
	t.Chdir(repoRoot(t))
	args := examples(t)["field-deleted"]
	out, _, _ := run(t, "", append([]string{"--now", exampleNow}, args...)...)
	if strings.Contains(out, "\x1b[") {
		t.Error("colour on a pipe with --color auto")
	}
}

func TestStdin(t *testing.T) {
	root := repoRoot(t)
	manifest, err := os.ReadFile(filepath.Join(root, "testdata/examples/field-deleted/manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, string(manifest), "--now", exampleNow, "-o", "diff", "-", filepath.Join(root, "testdata/examples/field-deleted/live.json"))
	if code != 1 || !strings.Contains(out, "-  search: off-v1\n") {
		t.Errorf("exit %d, output\n%s", code, out)
	}
	if _, errs, code := run(t, string(manifest), "-", "-"); code != 2 || !strings.Contains(errs, "it can be read only once") {
		t.Errorf("reading stdin twice: exit %d, %q", code, errs)
	}
}

// /dev/null is a character device but not a terminal: --color auto gives no colour there,
// and nothing takes it for a terminal (issue 29).
func TestColorAutoNotOnDevNull(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm-256color")
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("isTerminal(%s) = true", os.DevNull)
	}
	cfg, code := parseFlags("ssa-diff", []string{"--color", "auto", "m.yaml"}, null, io.Discard)
	if cfg == nil {
		t.Fatalf("exit %d", code)
	}
	if cfg.color {
		t.Errorf("--color auto with standard output on %s: colour on", os.DevNull)
	}
	cfg, _ = parseFlags("ssa-diff", []string{"--color", "always", "m.yaml"}, null, io.Discard)
	if cfg == nil || !cfg.color {
		t.Errorf("--color always with standard output on %s: colour off", os.DevNull)
	}
}
