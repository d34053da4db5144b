package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/schema"
)

// golden compares got with cli/testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testkit.Golden(t, filepath.Join(goldenDir(t), name), got)
}

// goldenDir is cli/testdata/golden, wherever the test runs from.
func goldenDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(repoRoot(t), "cli", "testdata", "golden")
}

// repoRoot is the directory of go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	return testkit.RepoRoot(t)
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
	inv := newInvocation(cfg, strings.NewReader(stdin), &out, &errb, nil)
	code = inv.execute(context.Background(), func(*schema.Registry) predictor { return p })
	return out.String(), errb.String(), code
}

// writeFiles writes name → content under a new temporary directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, files)
	return dir
}

var _ predictor = engine{}
