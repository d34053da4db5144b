package outfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/report"
)

// TestAllAtOnce: the -o file and the pages beside it are in place only once committed; an
// aborted run leaves the previous files.
func TestAllAtOnce(t *testing.T) {
	dir := t.TempDir()
	out, page := filepath.Join(dir, "out.txt"), filepath.Join(dir, "page.json")
	if err := os.WriteFile(page, []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, commit := range []bool{false, true} {
		dst, err := Open(out, "--output-file", nil)
		if err != nil || !dst.IsFile() {
			t.Fatal(err)
		}
		w, err := output.New("text", dst, output.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w, pages, err := Tee(w, output.Options{}, []File{{Format: "json", Path: page, Flag: "--output-file json=", Quiet: true}})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(report.New(report.Options{})); err != nil {
			t.Fatal(err)
		}
		if !commit {
			pages.Abort()
			dst.Abort()
			if b, _ := os.ReadFile(page); string(b) != "before" {
				t.Errorf("aborted: the page is %q", b)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("aborted: the output file is there")
			}
			continue
		}
		if err := pages.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := dst.Commit(); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(page); !strings.Contains(string(b), `"apiVersion"`) {
			t.Errorf("committed: the page is %q", b)
		}
	}
	if _, _, err := Tee(output.Multi(), output.Options{}, []File{{Format: "json", Path: filepath.Join(dir, "no", "such", "dir", "f"), Flag: "--report-html"}}); err == nil || !strings.HasPrefix(err.Error(), "--report-html: ") {
		t.Errorf("an unwritable page: %v", err)
	}
}
