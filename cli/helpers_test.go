package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir(t), name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./cli -update rewrites it)\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}

// goldenDir is cli/testdata/golden, wherever the test runs from.
func goldenDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(repoRoot(t), "cli", "testdata", "golden")
}

// repoRoot is the directory of go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// fixturesDir is the recorded server cases, shared/fixtures beside the repository (or
// $SSA_DIFF_FIXTURES); tests that need them skip when they are absent.
func fixturesDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SSA_DIFF_FIXTURES")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "..", "shared", "fixtures")
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Skipf("no recorded fixtures at %s", dir)
	}
	return dir
}

// run runs the command in-process with the real engine.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// runFake runs the command with a fake engine.
func runFake(t *testing.T, p predictor, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cfg, code := parseFlags("ssa-diff", args, &out, &errb)
	if cfg == nil {
		return out.String(), errb.String(), code
	}
	cfg.stdin, cfg.stdout, cfg.stderr = strings.NewReader(stdin), &out, &errb
	code = cfg.run(func(*schema.Registry) predictor { return p })
	return out.String(), errb.String(), code
}

// writeFiles writes name → content under a new temporary directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var _ predictor = (*merge.Engine)(nil)
