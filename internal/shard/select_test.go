package shard

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

// TestRelativeSources: files are named relative to the deepest directory holding them all;
// standard input is kept.
func TestRelativeSources(t *testing.T) {
	root := t.TempDir()
	srcs := []input.Source{
		{File: filepath.Join(root, "apps", "web", "deploy.yaml")},
		{File: input.StdinName, Document: 1},
		{File: filepath.Join(root, "apps", "db.yaml"), Document: 2},
		{File: filepath.Join(root, "live.json")},
	}
	var got []string
	for _, s := range RelativeSources(srcs) {
		got = append(got, s.File)
	}
	want := []string{"apps/web/deploy.yaml", input.StdinName, "apps/db.yaml", "live.json"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("RelativeSources: %q, want %q", got, want)
	}
	if one := RelativeSources(srcs[:1]); one[0].File != "deploy.yaml" {
		t.Errorf("one file: %q, want deploy.yaml", one[0].File)
	}
}
