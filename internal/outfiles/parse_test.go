package outfiles

import (
	"strings"
	"testing"
)

// The --output-file values: one FILE for -o, FORMAT=PATH for more, no path twice (nor
// --report-html's), a directory's = in a FILE's name.
func TestParseFiles(t *testing.T) {
	out, files, err := ParseFiles([]string{"r.txt", "json=r.json"}, "text", "")
	if err != nil || out != "r.txt" || len(files) != 1 || files[0] != (File{Format: "json", Path: "r.json", Flag: "--output-file json=", Quiet: true}) {
		t.Errorf("got %q %v %v", out, files, err)
	}
	if out, files, err := ParseFiles([]string{"a=b/r.txt"}, "text", ""); err == nil || out != "" || files != nil {
		t.Errorf("a=b/r.txt: %q %v %v (want an unknown format)", out, files, err)
	}
	if out, _, err := ParseFiles([]string{"x/a=b"}, "text", ""); err != nil || out != "x/a=b" {
		t.Errorf("x/a=b: %q %v (want the -o output's FILE)", out, err)
	}
	for _, bad := range []struct {
		values []string
		html   string
		want   string
	}{
		{[]string{""}, "", "--output-file needs a file name"},
		{[]string{"a", "b"}, "", "--output-file a and b: the -o output goes to one FILE"},
		{[]string{"yml=r.yaml"}, "", `unknown format "yml"`},
		{[]string{"json=-"}, "", "needs a file name after json="},
		{[]string{"json=r", "markdown=./r"}, "", "--output-file: json= and markdown= are both written to ./r"},
		{[]string{"html=r.html"}, "r.html", "--report-html and html= are both written to r.html"},
	} {
		if _, _, err := ParseFiles(bad.values, "text", bad.html); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: got %v, want %q", bad.values, err, bad.want)
		}
	}
}

func FuzzParseFiles(f *testing.F) {
	f.Add("r.txt", "json=r.json", "html=x")
	f.Add("a=b/c", "=", "")
	f.Fuzz(func(t *testing.T, a, b, html string) {
		out, files, err := ParseFiles([]string{a, b}, "text", html)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, f := range files {
			if f.Path == "" || f.Path == "-" || seen[f.Path] {
				t.Errorf("%q %q: file %+v", a, b, f)
			}
			seen[f.Path] = true
		}
		if out != "" && out != a && out != b {
			t.Errorf("%q %q: output file %q", a, b, out)
		}
	})
}
