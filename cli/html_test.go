package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// The HTML report (-o html, --report-html): golden pages of the examples, the same page
// beside another format from one prediction, every field of the JSON report in the page
// for the recorded cases, and the flag's failures.

func TestHTMLExamplesGolden(t *testing.T) {
	t.Chdir(repoRoot(t))
	ex := examples(t)
	for _, name := range slices.Sorted(maps.Keys(ex)) {
		t.Run(name, func(t *testing.T) {
			args := append([]string{"--now", exampleNow}, ex[name]...)
			page, stderr, code := run(t, "", append([]string{"-o", "html"}, args...)...)
			if code == 2 {
				t.Fatalf("exit 2: %s", stderr)
			}
			golden(t, name+".html", testkit.WithoutPageAssets([]byte(page)))
			// The same page again, and beside -o text from the same prediction.
			again, _, _ := run(t, "", append([]string{"-o", "html", "--jobs", "1"}, args...)...)
			if again != page {
				t.Error("two runs print other pages")
			}
			file := filepath.Join(t.TempDir(), "report.html")
			text, _, code2 := run(t, "", append([]string{"--color", "never", "--report-html", file}, args...)...)
			if code2 != code {
				t.Errorf("exit %d with --report-html, %d with -o html", code2, code)
			}
			if want, err := os.ReadFile(filepath.Join(goldenDir(t), name+".txt")); err != nil || text != string(want) {
				t.Errorf("-o text beside --report-html differs from the text golden file (%v)", err)
			}
			if b, err := os.ReadFile(file); err != nil || string(b) != page {
				t.Errorf("--report-html writes another page than -o html (%v)", err)
			}
		})
	}
}

func TestReportHTMLFlag(t *testing.T) {
	t.Chdir(repoRoot(t))
	ex := "testdata/examples/hpa-owns-replicas/"
	args := []string{"--now", exampleNow, ex + "manifest.yaml", ex + "live.json"}

	if _, stderr, code := run(t, "", append([]string{"--report-html", "-"}, args...)...); code != 2 || !strings.Contains(stderr, "--report-html needs a file name") {
		t.Errorf("--report-html -: exit %d, %q", code, stderr)
	}
	missing := filepath.Join(t.TempDir(), "no-such-dir", "r.html")
	if _, stderr, code := run(t, "", append([]string{"--report-html", missing}, args...)...); code != 2 || !strings.Contains(stderr, "--report-html") {
		t.Errorf("an unwritable --report-html: exit %d, %q", code, stderr)
	}

	// The markdown comment links the page: the file, or --report-url.
	dir := t.TempDir()
	file := filepath.Join(dir, "ssa diff (report).html")
	md, _, _ := run(t, "", append([]string{"-o", "markdown", "--report-html", file}, args...)...)
	if !strings.Contains(md, "📄 **[The whole report](<"+file+">)**") {
		t.Errorf("the comment does not link the page:\n%s", md)
	}
	md, _, _ = run(t, "", append([]string{"-o", "markdown", "--report-html", file, "--report-url", "https://ci.example/run/7#artifacts"}, args...)...)
	if !strings.Contains(md, "(<https://ci.example/run/7#artifacts>)") {
		t.Errorf("the comment does not link --report-url:\n%s", md)
	}
	md, _, _ = run(t, "", append([]string{"-o", "markdown"}, args...)...)
	if strings.Contains(md, "The whole report") {
		t.Error("the comment links a page that is not written")
	}
	// Only the page is left in the directory: it replaced a temporary file.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != filepath.Base(file) {
		t.Errorf("the directory holds %v", entries)
	}
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("the page: %v %v", info, err)
	}
	// With another -o, the refusal is also predicted with force, for the page.
	page, _ := os.ReadFile(file)
	if !bytes.Contains(page, []byte("--force-conflicts would take")) || !bytes.Contains(page, []byte("Ownership with --force-conflicts")) {
		t.Error("the page beside -o markdown lacks what force would do")
	}
}

// TestHTMLShowsEveryReportField runs the recorded cases with -o json and --report-html
// (one prediction, both outputs) and looks for every value of the JSON report in the page:
// each result's values in that object's part, the report's in its head. What the page
// says another way is named below, with the way; a Secret's values must not be there.
func TestHTMLShowsEveryReportField(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every recorded case")
	}
	cases, err := filepath.Glob(filepath.Join(testkit.RecordedDir(t), "*", "case.yaml"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no recorded cases: %v", err)
	}
	ran := 0
	for _, cy := range cases {
		c := readFixtureCase(t, cy)
		if !c.applies() {
			continue
		}
		args := c.args(filepath.Dir(cy), func(p string) string { return p })
		ran++
		name := filepath.Base(filepath.Dir(cy))
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "report.html")
			out, stderr, code := run(t, "", append(args, "-o", "json", "--report-html", file)...)
			if code == 2 {
				t.Fatalf("exit 2: %s", stderr)
			}
			page, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkPageShowsReport(t, []byte(out), string(page))
		})
	}
	if ran < 70 {
		t.Errorf("only %d recorded apply cases", ran)
	}
}

var objectStart = regexp.MustCompile(`<details class="obj" id="o(\d+)"`)

// checkPageShowsReport checks that every value of the JSON report js is in the page.
func checkPageShowsReport(t *testing.T, js []byte, page string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var rep map[string]any
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	starts := objectStart.FindAllStringIndex(page, -1)
	results, _ := rep["results"].([]any)
	if len(starts) != len(results) {
		t.Fatalf("%d objects in the page, %d results", len(starts), len(results))
	}
	head := page
	if len(starts) > 0 {
		head = page[:starts[0][0]] + page[strings.LastIndex(page, "</main>"):]
	}
	c := &pageCheck{t: t}
	for k, v := range rep {
		if k != "results" {
			c.walk([]string{k}, v, html.UnescapeString(head), false)
		}
	}
	for i, r := range results {
		end := len(page)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		section := html.UnescapeString(page[starts[i][0]:end])
		res := r.(map[string]any)
		secret := res["kind"] == "Secret" && res["apiVersion"] == "v1"
		c.walk([]string{fmt.Sprintf("results[%d]", i)}, res, section, secret)
	}
	if c.checked < 20 {
		t.Errorf("only %d values checked", c.checked)
	}
}

type pageCheck struct {
	t       *testing.T
	checked int
}

// shownOtherwise are the values the page says in another way than as text (the last key
// of their path): what it says instead.
var shownOtherwise = map[string]string{
	"fieldsV1":   "the ownership map: each line coloured by the managers whose fields it shows (checked below)",
	"fieldsType": "always FieldsV1: the ownership map reads it",
	// Booleans.
	"changed":               "the action: update (only managedFields times) when false",
	"force":                 "the head: with --force-conflicts",
	"removed":               "the ownership moves and the force box: its entry is removed",
	"observed":              "the state line (converged, generation and observed generation)",
	"converged":             "the state line",
	"healthy":               "the state line (unhealthy: …, conditions healthy)",
	"hasObservedGeneration": "the state line (generation N, observed M)",
	"bad":                   "the condition's row is coloured",
	"reported":              "the condition's row is coloured",
	"default":               "the drift: the fields at the server's defaults are counted in a line, their table under it",
}

func (c *pageCheck) walk(path []string, v any, text string, secret bool) {
	key := path[len(path)-1]
	if _, ok := shownOtherwise[key]; ok {
		if key == "fieldsV1" {
			c.ownersColoured(path, v, text)
		}
		return
	}
	where := strings.Join(path, ".")
	// A Secret's values are masked in the page: they must not be there.
	if secret && isSecretValue(path) {
		for _, s := range leafStrings(v) {
			if len(s) >= 4 && strings.Contains(text, s) {
				c.t.Errorf("%s: the Secret's value %q is in the page", where, s)
			}
		}
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if p, _ := x["path"].(string); secret && x["owner"] != nil && (strings.HasPrefix(p, ".data") || strings.HasPrefix(p, ".stringData")) {
			// A conflict on a Secret's value: both values masked.
			c.walk(append(path, "live"), map[string]any{"data": x["live"]}, text, secret)
			delete(x, "live")
		}
		if p, _ := x["path"].(string); secret && x["fate"] != nil && (strings.HasPrefix(p, ".data") || strings.HasPrefix(p, ".stringData")) {
			// A drifted field of a Secret's values: its values masked.
			c.walk(append(path, "live"), map[string]any{"data": x["live"], "predicted": x["predicted"]}, text, secret)
			delete(x, "live")
			delete(x, "predicted")
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			c.walk(append(path, k), x[k], text, secret)
		}
	case []any:
		if key == "findings" {
			c.findings(path, x, text)
			return
		}
		for i, e := range x {
			c.walk(append(path[:len(path)-1:len(path)-1], fmt.Sprintf("%s[%d]", key, i)), e, text, secret)
		}
	case string:
		c.checked++
		if !shownString(text, x) {
			c.t.Errorf("%s: %q is not in the page", where, x)
		}
	case json.Number:
		c.checked++
		s := x.String()
		if key == "for" { // a duration in nanoseconds
			n, _ := x.Int64()
			s = time.Duration(n).String()
		}
		if !strings.Contains(text, s) {
			c.t.Errorf("%s: %s is not in the page", where, s)
		}
	case bool:
		if !inValue(path) {
			c.t.Errorf("%s: a boolean the test does not know how the page shows (add it to shownOtherwise)", where)
			return
		}
		c.checked++
		if !strings.Contains(text, fmt.Sprint(x)) {
			c.t.Errorf("%s: %v is not in the page", where, x)
		}
	}
}

// findings are in the page as findings, except a refusal's (the refusal's box says it,
// and whether it fails the run) and a conflict that does not fail (the conflicts' table,
// with the manifest's line).
func (c *pageCheck) findings(path []string, list []any, text string) {
	for i, f := range list {
		m := f.(map[string]any)
		p := append(path[:len(path)-1:len(path)-1], fmt.Sprintf("findings[%d]", i))
		switch {
		case m["category"] == "rejected":
			if m["level"] == "failure" && !strings.Contains(text, "fails the run") {
				c.t.Errorf("%s: the refusal's box does not say it fails the run", strings.Join(p, "."))
			}
		case m["category"] == "conflict" && m["level"] != "failure":
			if line, ok := m["line"].(json.Number); ok && !regexp.MustCompile(`:`+line.String()+`\b`).MatchString(text) {
				c.t.Errorf("%s: the conflict's line %s is not in the page", strings.Join(p, "."), line)
			}
		default:
			c.walk(p, m, text, false)
		}
	}
}

// ownersColoured checks that a managedFields entry with fields has its colour on lines of
// the ownership map.
func (c *pageCheck) ownersColoured(path []string, fields any, text string) {
	if m, ok := fields.(map[string]any); !ok || len(m) == 0 {
		return
	}
	c.checked++
	if !strings.Contains(text, `<div class="tree">`) || !regexp.MustCompile(`<div class="m\d+( n\d+)?( more)?">`).MatchString(text) {
		c.t.Errorf("%s: the ownership map colours no line", strings.Join(path, "."))
	}
}

// shownString reports whether s is in text: as it is, JSON-escaped (in a value shown as
// JSON), or YAML-quoted; a long or many-line string by the start of each line (the
// ownership map cuts its lines).
func shownString(text, s string) bool {
	if s == "" || strings.Contains(text, s) {
		return true
	}
	if b, err := json.Marshal(s); err == nil && strings.Contains(text, string(b[1:len(b)-1])) {
		return true
	}
	if strings.Contains(text, strings.ReplaceAll(s, "'", "''")) {
		return true
	}
	if !strings.Contains(s, "\n") && utf8.RuneCountInString(s) <= 60 {
		return false
	}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if r := []rune(line); len(r) > 60 {
			line = string(r[:60])
		}
		if line != "" && !strings.Contains(text, line) {
			if b, _ := json.Marshal(line); !strings.Contains(text, string(b[1:len(b)-1])) {
				return false
			}
		}
	}
	return true
}

// inValue reports whether a path is inside an object or a conflict's value, whose values
// are data, not the report's.
func inValue(path []string) bool {
	for _, p := range path {
		if p, _, _ = strings.Cut(p, "["); p == "object" || p == "live" || p == "applied" {
			return true
		}
	}
	return false
}

// isSecretValue reports whether a path of a Secret's result holds its values: data,
// stringData and the last-applied annotation of an object, and the values of a conflict
// on them.
func isSecretValue(path []string) bool {
	joined := strings.Join(path, ".")
	for _, p := range []string{".object.data", ".object.stringData", ".object.metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"} {
		if strings.Contains(joined, p) {
			return true
		}
	}
	return false
}

func leafStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, leafStrings(e)...)
		}
		return out
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, leafStrings(e)...)
		}
		return out
	}
	return nil
}

// hostilePage is the page of cli/testdata/hostile: manifests and a live object whose
// names, keys, values and managers would run scripts in a page that did not escape them.
func hostilePage(t *testing.T) string {
	t.Helper()
	t.Chdir(filepath.Join(repoRoot(t), "cli", "testdata", "hostile"))
	page, stderr, code := run(t, "", "--now", exampleNow, "-o", "html", "manifest.yaml", "live.json")
	if code != 3 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	return page
}

// hostileTexts are the hostile values the page must show as text.
var hostileTexts = []string{
	`<script>window.__pwned=1</script>`, `"><img src=x onerror="window.__pwned=2">`, `<svg onload=window.__pwned=3>`,
	`</style><script>window.__pwned=4</script>`, `</textarea><script>window.__pwned=5</script>`, `Evil<img src=x onerror=window.__pwned=6>`,
	`</details></div><script>window.__pwned=8</script>`, `<img src=x onerror=window.__pwned=9>`, `<iframe src=javascript:window.__pwned=10>`,
	`</script><script>window.__pwned=11</script>`,
}

func TestHTMLHostileInput(t *testing.T) {
	page := hostilePage(t)
	lower := strings.ToLower(page)
	if n := strings.Count(lower, "<script"); n != 1 {
		t.Errorf("%d script elements, the page's own and %d from the input", n, n-1)
	}
	for _, tag := range []string{"<img", "<svg", "<iframe", "</textarea"} {
		if strings.Contains(lower, tag) {
			t.Errorf("the page holds %s from the input", tag)
		}
	}
	text := html.UnescapeString(page)
	for _, s := range hostileTexts {
		if !strings.Contains(text, s) {
			t.Errorf("the page does not show %q", s)
		}
	}
}
