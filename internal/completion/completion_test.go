package completion

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatFile: a FORMAT=FILE flag offers the formats' prefixes and the files, then the
// files after FORMAT=, without a space after.
func TestFormatFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "report.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	readDir := func(d string) ([]os.DirEntry, error) { return os.ReadDir(filepath.Join(dir, d)) }
	cmd := Command{Flags: []Flag{{Name: "output-file", Value: true, FormatFile: true}}, Formats: []string{"markdown", "json"}}
	for words, want := range map[string]string{
		"--output-file m":          "markdown= :6",
		"--output-file markdown=r": "markdown=report.md :6",
		"--output-file r":          " :0",
		"--output-file=j":          "--output-file=json= :6",
	} {
		a := cmd.Complete(strings.Split(words, " "), readDir)
		if got := strings.Join(a.Candidates, " ") + " :" + string(rune('0'+a.Directive)); got != want {
			t.Errorf("%q: %q, want %q", words, got, want)
		}
	}
	if err := cmd.Script(&strings.Builder{}, "tcsh"); err == nil {
		t.Error("tcsh: no error")
	}
}
