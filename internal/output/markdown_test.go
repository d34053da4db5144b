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
