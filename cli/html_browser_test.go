package cli

import (
	"bytes"
	"fmt"
	"image/png"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit/browser"
	"github.com/ssa-diff/ssa-diff/testdata/benchcorpus"
)

// The HTML report in a real browser: headless Chromium (Debian's chromium package; the
// test skips without it, CI installs it) loads the page of each example and of the
// 1,000-object corpus, with no console error, and the test reads the rendered DOM: the
// objects, managers and conflicts show, and the filters work. Screenshots go to
// $SSA_DIFF_SCREENSHOTS when set (make report-screenshots), else to a temporary directory.

// screenshotDir is where the screenshots go.
func screenshotDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("SSA_DIFF_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// screenshot captures the page's top maxHeight pixels into dir/name.png and checks it is a
// PNG of the viewport's width. Unless they are kept to be looked at ($SSA_DIFF_SCREENSHOTS),
// the screenshots are of the first 900 pixels: they still prove the page renders.
func screenshot(t *testing.T, p *browser.Page, dir, name string, width, maxHeight int) {
	t.Helper()
	if os.Getenv("SSA_DIFF_SCREENSHOTS") == "" {
		maxHeight = min(maxHeight, 900)
	}
	data, err := p.Screenshot(maxHeight)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() < 200 {
		t.Errorf("screenshot %s is %dx%d", name, b.Dx(), b.Dy())
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writePage runs the command with -o html and writes the page to dir/name.html.
func writePage(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, stderr, code := run(t, "", append([]string{"-o", "html"}, args...)...)
	if code == 2 || !strings.HasPrefix(out, "<!DOCTYPE html>") {
		t.Fatalf("%s: exit %d, stderr %s", name, code, stderr)
	}
	path := filepath.Join(dir, name+".html")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func fileURL(path string) string {
	abs, _ := filepath.Abs(path)
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// pageState is what the tests read from the DOM.
type pageState struct {
	Objects, Shown, Open int
	Managers             []string
	Conflicts            int
	Diffs, Maps          int
	MapLines, Owned      int
	Filters              bool
	ShownText            string
	Scripts              int
	TextLength           int
}

const readState = `(() => {
  const objs = [...document.querySelectorAll("details.obj")];
  return {
    objects: objs.length,
    shown: objs.filter(o => !o.hidden && o.getBoundingClientRect().height > 0).length,
    open: objs.filter(o => o.open).length,
    managers: [...document.querySelectorAll(".managers .legend .own")].map(e => e.textContent),
    conflicts: document.querySelectorAll("table.conflicts tbody tr").length,
    diffs: document.querySelectorAll(".diff .df").length,
    maps: document.querySelectorAll(".map .tree").length,
    mapLines: document.querySelectorAll(".tree > div").length,
    owned: document.querySelectorAll(".tree > div[class]").length,
    filters: !document.getElementById("filters").hidden,
    shownText: document.getElementById("shown").textContent,
    scripts: document.scripts.length,
    textLength: document.body.innerText.length,
  };
})()`

func (s pageState) String() string {
	return fmt.Sprintf("%d objects (%d shown, %d open), managers %v, %d conflicts, %d diffs, %d maps", s.Objects, s.Shown, s.Open, s.Managers, s.Conflicts, s.Diffs, s.Maps)
}

func state(t *testing.T, p *browser.Page) pageState {
	t.Helper()
	var s pageState
	if err := p.Eval(readState, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// setFilter sets a filter control (by its name) and fires the events a person's change fires.
func setFilter(t *testing.T, p *browser.Page, name, value string) {
	t.Helper()
	js := fmt.Sprintf(`(() => {
  const bar = document.getElementById("filters");
  const els = [...bar.querySelectorAll("[name=" + %[1]q + "]")];
  if (!els.length) throw new Error("no filter %[1]s");
  for (const el of els) {
    if (el.type === "checkbox") el.checked = el.name === "a" ? %[2]q.split(",").includes(el.value) : %[2]q === "on";
    else el.value = %[2]q;
    el.dispatchEvent(new Event("change", {bubbles: true}));
  }
})()`, name, value)
	if err := p.Eval(js, nil); err != nil {
		t.Fatal(err)
	}
}

func noErrors(t *testing.T, p *browser.Page, name string) {
	t.Helper()
	for _, e := range p.Errors() {
		t.Errorf("%s: the page logs an error: %s", name, e)
	}
}

func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	b := browser.Start(t)
	t.Chdir(repoRoot(t))
	pages, shots := t.TempDir(), screenshotDir(t)

	t.Run("examples", func(t *testing.T) {
		ex := examples(t)
		for _, name := range slices.Sorted(maps.Keys(ex)) {
			path := writePage(t, pages, name, append([]string{"--now", exampleNow}, ex[name]...)...)
			// Wide: change blocks side by side; narrow: unified.
			for _, size := range []struct {
				suffix        string
				width, height int
			}{{"", 1400, 900}, {"-narrow", 760, 900}} {
				p, err := b.Open(fileURL(path), size.width, size.height)
				if err != nil {
					t.Fatal(err)
				}
				s := state(t, p)
				if s.Objects != 1 || s.Shown != 1 || s.Open != 1 || !s.Filters || s.Scripts != 1 || s.ShownText != "1 of 1 objects shown" {
					t.Errorf("%s: %s; filters %v %q, %d scripts", name, s, s.Filters, s.ShownText, s.Scripts)
				}
				if len(s.Managers) == 0 || s.Maps != 1 || s.Owned == 0 {
					t.Errorf("%s: no ownership map with owners: %s", name, s)
				}
				noErrors(t, p, name)
				screenshot(t, p, shots, name+size.suffix, size.width, 6000)
				p.Close()
			}
		}
	})

	// Without JavaScript every object shows, and the filters that need it do not; dark,
	// the page follows the reader's colour scheme.
	t.Run("no JavaScript, dark", func(t *testing.T) {
		p, err := b.Open("about:blank", 1400, 900)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if err := p.Emulate("dark", false); err != nil {
			t.Fatal(err)
		}
		if err := p.Navigate(fileURL(filepath.Join(pages, "csa-to-ssa-migration.html"))); err != nil {
			t.Fatal(err)
		}
		screenshot(t, p, shots, "csa-to-ssa-migration-dark-nojs", 1400, 6000)
		if err := p.Emulate("dark", true); err != nil { // to read the DOM
			t.Fatal(err)
		}
		s := state(t, p)
		if s.Filters || s.Shown != 1 || s.Open != 1 || s.ShownText != "" {
			t.Errorf("without JavaScript: %s, filters shown %v, %q", s, s.Filters, s.ShownText)
		}
		var bg string
		if err := p.Eval(`getComputedStyle(document.documentElement).backgroundColor`, &bg); err != nil || bg != "rgb(13, 17, 23)" {
			t.Errorf("dark: the background is %q (%v)", bg, err)
		}
		noErrors(t, p, "no JavaScript")
	})

	t.Run("hpa-owns-replicas", func(t *testing.T) {
		path := filepath.Join(pages, "hpa-owns-replicas.html")
		p, err := b.Open(fileURL(path), 1400, 900)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		s := state(t, p)
		if s.Conflicts != 1 || !strings.Contains(strings.Join(s.Managers, " "), "hpa-controller") {
			t.Errorf("the conflict with the HPA does not show: %s", s)
		}
		var texts struct {
			Conflict, Force, Mark, Side string
		}
		err = p.Eval(`(() => ({
  conflict: document.querySelector("table.conflicts tbody tr").innerText,
  force: document.querySelector(".box.force").innerText,
  mark: [...document.querySelectorAll(".tree em")].map(e => e.parentElement.innerText).join("\n"),
  side: (() => { const d = document.querySelector(".ch > .d"), a = document.querySelector(".ch > .a");
    const rd = d.getBoundingClientRect(), ra = a.getBoundingClientRect();
    return (ra.left > rd.right - 1 && Math.abs(ra.top - rd.top) < 1) ? "side by side" : "stacked"; })(),
}))()`, &texts)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{".spec.replicas", "hpa-controller", "5", "2"} {
			if !strings.Contains(texts.Conflict, want) {
				t.Errorf("the conflict's row %q lacks %q", texts.Conflict, want)
			}
		}
		if !strings.Contains(texts.Force, "hpa-controller") || !strings.Contains(texts.Force, ".spec.replicas") {
			t.Errorf("what force would take: %q", texts.Force)
		}
		if !strings.Contains(texts.Mark, "replicas: 2") || !strings.Contains(texts.Mark, "was hpa-controller") {
			t.Errorf("the field changing hands is not marked in the map: %q", texts.Mark)
		}
		if texts.Side != "side by side" {
			t.Errorf("a wide screen shows the diff's change %s", texts.Side)
		}
		noErrors(t, p, "hpa-owns-replicas")
	})

	// The drift view: the fields kubectl annotate, set env and edit added on the cluster,
	// each with its owner and what the apply leaves of it.
	t.Run("drift", func(t *testing.T) {
		p, err := b.Open(fileURL(filepath.Join(pages, "drift.html")), 1400, 900)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		var rows []string
		if err := p.Eval(`[...document.querySelectorAll("table.drift tbody tr")].filter(r => r.getBoundingClientRect().height > 0).map(r => r.dataset.fate + " " + r.innerText.replace(/\s+/g, " "))`, &rows); err != nil {
			t.Fatal(err)
		}
		want := []string{
			`kept .metadata.annotations.oncall "alice" kubectl-annotate (Update, apps/v1) kept`,
			`removed .metadata.annotations.team "shop" kubectl (Apply) removed by the apply`,
			`kept .spec.template.spec.terminationGracePeriodSeconds 45 kubectl-edit (Update, apps/v1) kept`,
		}
		for _, w := range want {
			if !slices.Contains(rows, w) {
				t.Errorf("the drift view lacks %q; it shows %q", w, rows)
			}
		}
		if len(rows) != 5 {
			t.Errorf("the drift view shows %d rows, want 5: %q", len(rows), rows)
		}
		noErrors(t, p, "drift")
	})

	t.Run("corpus", func(t *testing.T) {
		t.Chdir(corpus1000(t)) // as a CI job runs it: paths relative to the repository
		path := writePage(t, pages, "corpus-1000", "--now", "2026-12-01T12:00:00Z", "repo", "live.json")
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("the page of the 1,000-object corpus: %d bytes", info.Size())
		p, err := b.Open(fileURL(path), 1400, 1000)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		s := state(t, p)
		var loadMS float64
		if err := p.Eval(`performance.getEntriesByType("navigation")[0].duration`, &loadMS); err != nil {
			t.Fatal(err)
		}
		t.Logf("corpus: %s; loaded in %.0f ms", s, loadMS)
		if s.Objects < 900 || s.Shown != s.Objects || len(s.Managers) < 5 || s.Conflicts == 0 {
			t.Errorf("corpus: %s", s)
		}
		screenshot(t, p, shots, "corpus-1000", 1400, 4000)

		// The filters: each narrows the objects to those it names, and back.
		count := func() int { return state(t, p).Shown }
		var want struct {
			Rejected, Deployments, NS, Failing, Search int
			First                                      string
		}
		err = p.Eval(`(() => {
  const objs = [...document.querySelectorAll("details.obj")];
  const first = objs[0].dataset.n;
  return {rejected: objs.filter(o => o.dataset.a === "rejected").length,
    deployments: objs.filter(o => o.dataset.k === "Deployment").length,
    ns: objs.filter(o => o.dataset.n === first).length, first,
    failing: objs.filter(o => o.dataset.f === "1").length,
    search: objs.filter(o => o.querySelector("summary").textContent.toLowerCase().includes("billing-frontend")).length};
})()`, &want)
		if err != nil {
			t.Fatal(err)
		}
		rejected, deployments, ns, failing, search, firstNS := want.Rejected, want.Deployments, want.NS, want.Failing, want.Search, want.First
		if rejected == 0 || deployments == 0 || failing == 0 || search == 0 {
			t.Fatalf("the corpus lacks what the filters are tested on: %d rejected, %d Deployments, %d failing, %d named billing-frontend", rejected, deployments, failing, search)
		}
		setFilter(t, p, "a", "rejected")
		if n := count(); n != rejected {
			t.Errorf("action rejected: %d shown, want %d", n, rejected)
		}
		screenshot(t, p, shots, "corpus-1000-rejected", 1400, 3000)
		setFilter(t, p, "a", "create,update,unchanged,rejected,error,prune")
		setFilter(t, p, "k", "Deployment")
		if n := count(); n != deployments {
			t.Errorf("kind Deployment: %d shown, want %d", n, deployments)
		}
		setFilter(t, p, "k", "")
		setFilter(t, p, "n", firstNS)
		if n := count(); n != ns {
			t.Errorf("namespace %s: %d shown, want %d", firstNS, n, ns)
		}
		setFilter(t, p, "n", "")
		setFilter(t, p, "f", "on")
		if n := count(); n != failing {
			t.Errorf("failing only: %d shown, want %d", n, failing)
		}
		setFilter(t, p, "f", "off")
		setFilter(t, p, "q", "billing-frontend")
		if n := count(); n != search {
			t.Errorf("search: %d shown, want %d", n, search)
		}
		setFilter(t, p, "q", "")
		if n := count(); n != s.Objects {
			t.Errorf("no filter: %d shown, want %d", n, s.Objects)
		}
		noErrors(t, p, "corpus")
	})
}

// corpus1000 is the 1,000-object corpus of make bench-corpus, or generated into a
// temporary directory when it is absent.
func corpus1000(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "testdata", "bench-corpus", "1000")
	if _, err := os.Stat(filepath.Join(dir, "live.json")); err == nil {
		return dir
	}
	c, err := benchcorpus.Generate(benchcorpus.Options{Objects: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	if err := c.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReportInBrowserHostile loads the page of hostile input: nothing of it runs, every
// value shows as text.
func TestReportInBrowserHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	b := browser.Start(t)
	page := hostilePage(t)
	path := filepath.Join(t.TempDir(), "hostile.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := b.Open(fileURL(path), 1400, 900)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Eval(`document.querySelectorAll("details.obj").forEach(o => o.open = true)`, nil); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Pwned    bool
		Scripts  int
		Elements int
		Handlers []string
		Text     string
	}
	err = p.Eval(`(() => ({
  pwned: typeof window.__pwned !== "undefined",
  scripts: document.scripts.length,
  elements: document.querySelectorAll("img, svg, iframe, textarea").length,
  handlers: [...document.querySelectorAll("*")].flatMap(e => [...e.attributes].map(a => a.name)).filter(n => n.startsWith("on")),
  text: document.body.innerText,
}))()`, &got)
	if err != nil {
		t.Fatal(err)
	}
	if got.Pwned || got.Scripts != 1 || got.Elements != 0 || len(got.Handlers) != 0 {
		t.Errorf("the input made the page run or hold elements: %+v", got)
	}
	for _, s := range hostileTexts {
		if !strings.Contains(got.Text, s) {
			t.Errorf("the page does not show %q as text", s)
		}
	}
	screenshot(t, p, screenshotDir(t), "hostile", 1400, 6000)
	noErrors(t, p, "hostile")
}
