package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// TestDocsShowRealOutput: every `$ ssa-diff …` shown with its output in README.md and
// docs/cli.md prints exactly that output today. With -update the test rewrites them.
func TestDocsShowRealOutput(t *testing.T) {
	root := repoRoot(t)
	t.Chdir(root)
	for _, doc := range []string{"README.md", "docs/cli.md"} {
		raw, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(raw), "\n")
		changed, shown := false, 0
		for i := 0; i < len(lines); i++ {
			cmd, start := "", -1
			switch {
			case strings.HasPrefix(lines[i], "$ ssa-diff ") && i > 0 && strings.HasPrefix(lines[i-1], "```"):
				// A fenced block: the command, then its output.
				cmd, start = lines[i], i+1
			case strings.HasPrefix(lines[i], "    $ ssa-diff "):
				// An indented command, then its output in the next fenced block.
				for j := i + 1; j < len(lines) && j < i+4; j++ {
					if lines[j] == "```" {
						cmd, start = strings.TrimSpace(lines[i]), j+1
						break
					}
				}
			}
			if start < 0 {
				continue
			}
			end := start
			// The output ends with the block, or where the next command starts.
			for end < len(lines) && !strings.HasPrefix(lines[end], "```") && !strings.HasPrefix(lines[end], "$ ") {
				end++
			}
			if end == len(lines) {
				t.Fatalf("%s:%d: no end to the output", doc, i+1)
			}
			args := strings.Fields(strings.TrimPrefix(cmd, "$ ssa-diff "))
			var stdout bytes.Buffer
			Run(args, nil, &stdout, &bytes.Buffer{})
			got := strings.TrimSuffix(stdout.String(), "\n")
			want := strings.Join(lines[start:end], "\n")
			shown++
			if got == want {
				continue
			}
			if !testkit.Updating() {
				t.Errorf("%s:%d: %s prints\n%s\nnot what the document shows\n%s\n(go test ./cli -run TestDocsShowRealOutput -update rewrites it)", doc, i+1, cmd, got, want)
				continue
			}
			lines = append(lines[:start], append(strings.Split(got, "\n"), lines[end:]...)...)
			changed = true
		}
		if shown == 0 {
			t.Errorf("%s shows no ssa-diff output", doc)
		}
		if changed {
			if err := os.WriteFile(filepath.Join(root, doc), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
