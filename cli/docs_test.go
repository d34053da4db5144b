package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// TestDocsListTheFlags: the flag list of docs/cli.md is --help's, indented
// as a Markdown code block. With -update the test rewrites it.
func TestDocsListTheFlags(t *testing.T) {
	var help bytes.Buffer
	if _, code := parseFlags("ssa-diff", []string{"--help"}, &help, io.Discard); code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	_, flags, ok := strings.Cut(help.String(), "\nFlags:\n")
	if !ok {
		t.Fatalf("--help has no Flags: section:\n%s", help.String())
	}
	var want strings.Builder
	for _, line := range strings.Split(strings.TrimRight(flags, "\n"), "\n") {
		if line != "" {
			want.WriteString("    " + line)
		}
		want.WriteString("\n")
	}
	for _, doc := range []string{"docs/cli.md"} {
		path := filepath.Join(repoRoot(t), doc)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		// The block runs from the first flag to the last one's description.
		start := strings.Index(text, "      -f, --filename PATH\n")
		endMark := "      -h, --help\n          Show this help.\n"
		end := strings.Index(text, endMark)
		if start < 0 || end < start {
			t.Errorf("%s: no flag list (from -f, --filename to -h, --help)", doc)
			continue
		}
		end += len(endMark)
		if text[start:end] == want.String() {
			continue
		}
		if testkit.Updating() {
			if err := os.WriteFile(path, []byte(text[:start]+want.String()+text[end:]), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: the flag list is not --help's (go test ./cli -run TestDocsListTheFlags -update rewrites it)", doc)
	}
}
