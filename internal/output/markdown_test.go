package output

import (
	"bytes"
	"strings"
	"testing"
)

func TestMarkdownGolden(t *testing.T) {
	out, _ := writeAll(t, "markdown", gateReport(gatePolicy), Options{})
	golden(t, "markdown.golden", []byte(out))
	for _, want := range []string{
		"## ❌ ssa-diff: 1 object could not be predicted (exit 2)",
		"### Needs attention",
		"#### ❌ `apps/v1 Deployment shop/api` — update",
		"<details><summary>Diff (+2 −2)</summary>",
		"| `.spec.replicas` | kube-controller-manager (Update, subresource scale, apps/v1) | `7` | `3` |",
		"1 object without changes or findings not listed.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	// Failing objects come before the others.
	if strings.Index(out, "shop/settings") > strings.Index(out, "### Changes") {
		t.Error("a failing object is listed among the changes")
	}
}

func TestMarkdownBudget(t *testing.T) {
	rep := gateReport(gatePolicy)
	var full bytes.Buffer
	w := newMarkdown(&full, Options{Now: now}).(*markdownWriter)
	for _, r := range rep.Results {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(rep); err != nil {
		t.Fatal(err)
	}
	var small bytes.Buffer
	w = newMarkdown(&small, Options{Now: now}).(*markdownWriter)
	w.budget = 2600
	for _, r := range rep.Results {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(rep); err != nil {
		t.Fatal(err)
	}
	out := small.String()
	if small.Len() > 2800 || small.Len() >= full.Len() {
		t.Errorf("%d bytes with a budget of 2600 (%d without)", small.Len(), full.Len())
	}
	if !strings.Contains(out, "more object") || !strings.Contains(out, "shop/api") {
		t.Errorf("the cut comment does not say what it leaves out, or leaves out the failures:\n%s", out)
	}
}

// A section that does not fit even compact is left out, and the shorter ones after it are
// still shown, compact or in full.
func TestMarkdownBudgetShowsLaterShorterSections(t *testing.T) {
	rep := gateReport(gatePolicy)
	var out bytes.Buffer
	w := newMarkdown(&out, Options{Now: now}).(*markdownWriter)
	if err := w.Close(rep); err != nil {
		t.Fatal(err)
	}
	base := out.Len()
	out.Reset()
	w = newMarkdown(&out, Options{Now: now}).(*markdownWriter)
	w.budget = base + 1000
	huge := strings.Repeat("h", 2000)
	w.attention = []mdSection{
		{full: "FIRST-FULL\n", compact: "FIRST\n"},
		{full: huge + "\n", compact: huge + "\n"},
		{full: "THIRD-FULL\n", compact: "THIRD\n"},
	}
	w.changes = []mdSection{{full: huge + "LAST\n", compact: "LAST-COMPACT\n"}}
	if err := w.Close(rep); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"FIRST\n", "THIRD-FULL", "LAST-COMPACT", "and 1 more object not shown"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, huge) {
		t.Errorf("a section over the budget is shown")
	}
}

func TestMarkdownEscaping(t *testing.T) {
	for in, want := range map[string]string{
		"a":      "`a`",
		"a`b":    "``a`b``",
		"`a":     "`` `a ``",
		"a``b`c": "```a``b`c```",
	} {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cell("a|b\nc"); got != `a\|b c` {
		t.Errorf("cell: %q", got)
	}
	if got := inline("<script> *x* [y](z)"); got != `&lt;script&gt; \*x\* \[y\](z)` {
		t.Errorf("inline: %q", got)
	}
}
