package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRun runs the whole command in-process on an arbitrary manifest (standard input) and
// live file, in the text and JSON formats, with both appliers. Whatever the input, the
// command must answer with an exit status it documents, never report an internal error
// (a panic the command caught), and answer the same twice.
func FuzzRun(f *testing.F) {
	root := filepath.Join("..", "testdata")
	for _, dir := range append(globDirs(filepath.Join(root, "examples", "*")), globDirs(filepath.Join(root, "bad", "*"))...) {
		m, _ := os.ReadFile(firstExisting(dir, "manifest.yaml", "manifest.json"))
		l, _ := os.ReadFile(filepath.Join(dir, "live.json"))
		if len(m)+len(l) < 64<<10 {
			f.Add(m, l)
		}
	}
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), []byte(""))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, manifest, live []byte) {
		livePath := filepath.Join(dir, "live.json")
		if err := os.WriteFile(livePath, live, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"-o", "json", "--now", catalogueNow, "-f", "-", livePath},
			{"-o", "text", "--applier", "api", "--now", catalogueNow, "--max-depth", "50", "-f", "-", livePath},
		} {
			run := func() (string, int) {
				var out, errb bytes.Buffer
				code := Run(args, bytes.NewReader(manifest), &out, &errb)
				return out.String() + "\n--- stderr\n" + errb.String(), code
			}
			first, code := run()
			second, code2 := run()
			if first != second || code != code2 {
				t.Fatalf("%v: two runs differ (exit %d, %d):\n%s\n---\n%s", args, code, code2, first, second)
			}
			if code < 0 || code > 4 {
				t.Fatalf("%v: exit %d", args, code)
			}
			if strings.Contains(first, "internal error in ssa-diff") || strings.Contains(first, "goroutine ") {
				t.Fatalf("%v: a crash:\n%s", args, first)
			}
		}
	})
}

func globDirs(pattern string) []string {
	dirs, _ := filepath.Glob(pattern)
	return dirs
}

func firstExisting(dir string, names ...string) string {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return filepath.Join(dir, n)
		}
	}
	return filepath.Join(dir, names[0])
}
