package testkit

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that uses Golden.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Updating reports whether the test runs with -update: tests that write golden files other
// than through Golden follow it.
func Updating() bool { return *update }

// Golden compares got with the file at path (relative to the test's package directory, or
// absolute). With -update it writes got there instead, creating the directory.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it after a deliberate change):\n%s", path, LineDiff(string(want), string(got)))
	}
}

// LineDiff shows where two texts part: the lines before the first difference (up to three),
// then the rest of each from there (up to twelve lines each), marked - for want and + for
// got. "" when they are equal.
func LineDiff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := lines(want), lines(got)
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	// The last lines that agree, read from the end.
	j := 0
	for j < len(w)-i && j < len(g)-i && w[len(w)-1-j] == g[len(g)-1-j] {
		j++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d\n", i+1)
	for k := max(0, i-3); k < i; k++ {
		b.WriteString("  " + line(w[k]))
	}
	section := func(mark string, lines []string) {
		for k, l := range lines {
			if k == 12 {
				fmt.Fprintf(&b, "%s … %d more lines\n", mark, len(lines)-k)
				return
			}
			b.WriteString(mark + " " + line(l))
		}
	}
	section("-", w[i:len(w)-j])
	section("+", g[i:len(g)-j])
	return b.String()
}

// lines splits s after each newline; a text that ends with one has no empty last line.
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

func line(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "⏎ (no newline at the end)\n"
}

// The style sheet and the script an HTML report page embeds.
var (
	pageStyle  = regexp.MustCompile(`(?s)<style>.*?</style>`)
	pageScript = regexp.MustCompile(`(?s)<script>.*?</script>`)
)

// WithoutPageAssets is an HTML report page with its embedded style sheet and script left
// out, for golden files: they are internal/output/html/page.css and page.js, the same in
// every page (internal/output's tests hold the page to them).
func WithoutPageAssets(page []byte) []byte {
	page = pageStyle.ReplaceAllLiteral(page, []byte("<style>/* internal/output/html/page.css */</style>"))
	return pageScript.ReplaceAllLiteral(page, []byte("<script>/* internal/output/html/page.js */</script>"))
}
