package output

import (
	"strconv"

	"github.com/ssa-diff/ssa-diff/judge/advice"
)

// The page of -o html is written by the functions below, each printing one part of it
// (the head, an object, its refusal, a list of fields, advice, a diff, an ownership map,
// the tail). Every value is escaped for where it stands, exactly as html/template escapes
// it there: in text and in quoted attribute values &, <, >, ", ', + and NUL are replaced
// (htmlText); in a URL's fragment every byte but letters, digits and -._~ is
// percent-encoded first (htmlFragment); numbers are printed as they are. The style sheet
// and the script go in as they are. The page is the same bytes html/template printed from
// testdata/page.tmpl (TestPageSameAsTemplate and FuzzPageSameAsTemplate render both).
// The template package is not used because its reflection on method names keeps every
// exported method of the program in the binary (about 9 MB).

// page is the bytes of a part of the page being written.
type page struct{ b []byte }

// raw appends markup (never a value).
func (p *page) raw(s string) { p.b = append(p.b, s...) }

// text appends a value escaped for HTML text or a quoted attribute value.
func (p *page) text(s string) { p.b = appendHTMLText(p.b, s) }

// int appends a number.
func (p *page) int(n int) { p.b = strconv.AppendInt(p.b, int64(n), 10) }

// plural appends "s" unless n is 1.
func (p *page) plural(n int) {
	if n != 1 {
		p.b = append(p.b, 's')
	}
}

// appendHTMLText appends s with &, <, >, ", ', + and NUL replaced by their references
// (NUL by U+FFFD), every other byte as it is.
func appendHTMLText(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case 0:
			r = "\uFFFD"
		case '"':
			r = "&#34;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '+':
			r = "&#43;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, r...)
		last = i + 1
	}
	return append(b, s[last:]...)
}

// fragment appends a value as a URL's fragment in a quoted attribute: every byte but
// ASCII letters, digits and -._~ percent-encoded (lower-case hex), then escaped as text
// (which then changes nothing).
func (p *page) fragment(s string) {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			p.b = append(p.b, c)
			continue
		}
		p.b = append(p.b, '%', hex[c>>4], hex[c&15])
	}
}

func (p *page) head(h *htmlHead, css string) {
	p.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"")
	p.text(h.CSP)
	p.raw("\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"ssa-diff\">\n<link rel=\"icon\" href=\"data:,\">\n<title>")
	p.text(h.Title)
	p.raw("</title>\n<style>")
	p.raw(css)
	p.raw("</style>\n</head>\n<body>\n<header class=\"top ")
	p.badOK(h.Bad)
	p.raw("\">\n<h1><span class=\"brand\">ssa-diff</span> ")
	p.text(h.Verdict)
	p.raw("</h1>\n")
	o, s := &h.Report.Options, &h.Report.Summary
	p.raw("<p class=\"meta\">")
	p.int(s.Objects)
	p.raw(" object")
	p.plural(s.Objects)
	p.raw(" applied by <code>")
	p.text(o.Applier)
	p.raw("</code> as <code>")
	p.text(o.FieldManager)
	p.raw("</code>")
	if o.Force {
		p.raw(" with <code>--force-conflicts</code>")
	}
	if o.Subresource != "" {
		p.raw(" to the <code>")
		p.text(o.Subresource)
		p.raw("</code> subresource")
	}
	p.raw(" · kube-apiserver ")
	p.text(o.KubernetesVersion)
	p.raw(" · at ")
	p.text(h.Now)
	p.raw("</p>\n</header>\n<section class=\"summary\" aria-label=\"summary\">\n<div class=\"cards\">")
	for _, c := range h.Counts {
		p.raw("<div class=\"card ")
		p.text(c.Class)
		if c.N == 0 {
			p.raw(" zero")
		}
		p.raw("\"><b>")
		p.int(c.N)
		p.raw("</b>")
		p.text(c.Label)
		p.raw("</div>")
	}
	p.raw("</div>\n<div class=\"cards small\">\n")
	p.card(s.Conflicts, "conflicting field", "")
	p.raw("\n")
	p.card(s.Takeovers, "field", " taken over")
	p.raw("\n")
	p.card(s.Deletions, "field", " deleted")
	p.raw("\n")
	p.card(s.Changed, "object", " changed")
	if s.Approximate != 0 {
		p.raw("<div class=\"card\"><b>")
		p.int(s.Approximate)
		p.raw("</b>approximate</div>")
	}
	p.raw("\n<div class=\"card ")
	if s.Failures != 0 {
		p.raw("rejected")
	} else {
		p.raw("zero")
	}
	p.raw("\"><b>")
	p.int(s.Failures)
	p.raw("</b>failing finding")
	p.plural(s.Failures)
	p.raw("</div>\n</div>\n<p class=\"exit ")
	p.badOK(h.Bad)
	p.raw("\">exit status <b>")
	p.int(s.ExitCode)
	p.raw("</b>: ")
	p.text(h.ExitMeaning)
	p.raw("</p>\n")
	if o.Policy != nil {
		p.raw("<p class=\"policy\">Policy: fails on <b>")
		p.text(h.FailOn)
		p.raw("</b>")
		if h.Allow != "" {
			p.raw(" · may take fields from <code>")
			p.text(h.Allow)
			p.raw("</code>")
		}
		if h.Protect != "" {
			p.raw(" · protects <code>")
			p.text(h.Protect)
			p.raw("</code>")
		}
		p.raw(" — ")
		if n := s.Failures; n != 0 {
			p.raw("<b class=\"bad\">")
			p.int(n)
			p.raw(" finding")
			p.plural(n)
			p.raw(" fail")
			if n == 1 {
				p.raw("s")
			}
			p.raw(" the run</b>")
		} else {
			p.raw("<b class=\"ok\">no finding fails the run</b>")
		}
		p.raw("</p>")
	}
	p.raw("\n</section>\n")
	if len(h.Attention) > 0 {
		p.raw("<section class=\"attention\" aria-label=\"needs attention\">\n<h2>Needs attention <small>")
		p.int(h.Failing)
		p.raw("</small></h2>\n<div class=\"scroll\"><table class=\"attn\"><tbody>")
		for _, a := range h.Attention {
			p.raw("<tr><td><a href=\"#")
			p.fragment(a.ID)
			p.raw("\">")
			p.text(a.Title)
			p.raw("</a><br><code>")
			p.text(a.Where)
			p.raw("</code></td><td><span class=\"cat\">")
			p.text(a.Category)
			p.raw("</span> ")
			p.text(a.Message)
			p.raw("</td></tr>")
		}
		p.raw("</tbody></table></div>\n")
		if h.AttentionMore > 0 {
			p.raw("<p class=\"dim\">… and ")
			p.int(h.AttentionMore)
			p.raw(" more (filter on “failing”).</p>")
		}
		p.raw("\n</section>")
	}
	p.raw("\n")
	if len(h.Managers) > 0 {
		p.raw("<section class=\"managers\" aria-label=\"managers\">\n<h2>Managers</h2>\n<ul class=\"legend\">")
		for _, m := range h.Managers {
			p.raw("<li><span class=\"own ")
			p.text(m.Class)
			p.raw("\">")
			p.text(m.Name)
			p.raw("</span> <small>")
			p.int(m.Objects)
			p.raw(" object")
			p.plural(m.Objects)
			p.raw("</small></li>")
		}
		p.raw("</ul>\n")
		if len(h.Takers) > 0 {
			p.raw("<table class=\"takers\"><thead><tr><th>the applier takes fields from</th><th>fields</th><th>objects</th></tr></thead><tbody>")
			for _, t := range h.Takers {
				p.raw("<tr><td>")
				p.text(t.Manager)
				p.raw("</td><td>")
				p.int(t.Fields)
				p.raw("</td><td>")
				p.int(t.Objects)
				p.raw("</td></tr>")
			}
			p.raw("</tbody></table>")
		}
		p.raw("\n</section>")
	}
	p.raw("\n<nav id=\"filters\" class=\"filters\" hidden aria-label=\"filters\">\n<span class=\"acts\">")
	for _, c := range h.Counts {
		p.raw("<label class=\"act ")
		p.text(c.Class)
		p.raw("\"><input type=\"checkbox\" name=\"a\" value=\"")
		p.text(c.Value)
		p.raw("\" checked> ")
		p.text(c.Label)
		p.raw(" <b>")
		p.int(c.N)
		p.raw("</b></label>")
	}
	p.raw("</span>\n<label>kind <select name=\"k\"><option value=\"\">all</option>")
	p.options(h.Kinds)
	p.raw("</select></label>\n<label>namespace <select name=\"n\"><option value=\"\">all</option>")
	p.options(h.Namespaces)
	p.raw("</select></label>\n<label><input type=\"checkbox\" name=\"f\"> failing only</label>\n<input type=\"search\" name=\"q\" placeholder=\"name or file\" aria-label=\"search\">\n<button type=\"button\" data-do=\"open\">open all</button><button type=\"button\" data-do=\"close\">close all</button>\n<output id=\"shown\"></output>\n</nav>\n<noscript><p class=\"dim\">Filters need JavaScript; every object is listed below.</p></noscript>\n<main id=\"objects\">\n")
}

func (p *page) badOK(bad bool) {
	if bad {
		p.raw("bad")
	} else {
		p.raw("ok")
	}
}

// card is one of the summary's small cards: n, noun (plural unless n is 1), rest.
func (p *page) card(n int, noun, rest string) {
	p.raw("<div class=\"card")
	if n == 0 {
		p.raw(" zero")
	}
	p.raw("\"><b>")
	p.int(n)
	p.raw("</b>")
	p.raw(noun)
	p.plural(n)
	p.raw(rest)
	p.raw("</div>")
}

func (p *page) options(counts []htmlCount) {
	for _, c := range counts {
		p.raw("<option value=\"")
		p.text(c.Value)
		p.raw("\">")
		p.text(c.Label)
		p.raw(" (")
		p.int(c.N)
		p.raw(")</option>")
	}
}

func (p *page) tail(h *htmlHead, js string) {
	p.raw("</main>\n<footer>")
	p.text(h.Report.APIVersion)
	p.raw(" ")
	p.text(h.Report.Kind)
	p.raw(" · predicted at ")
	p.text(h.Now)
	p.raw(" · this page is self-contained: it loads nothing</footer>\n<script>")
	p.raw(js)
	p.raw("</script>\n</body>\n</html>\n")
}

// fields is a list of fields: inline, or folded when long or cut.
func (p *page) fields(l htmlList) {
	if l.More != 0 || len(l.Items) > 8 {
		p.raw("<details class=\"fl\"><summary>")
		p.int(len(l.Items))
		if l.More != 0 {
			p.raw(" of ")
			p.int(len(l.Items) + l.More)
		}
		p.raw(" fields</summary>")
		for _, f := range l.Items {
			p.raw("<code>")
			p.text(f)
			p.raw("</code> ")
		}
		if l.More != 0 {
			p.raw("<span class=\"dim\">… and ")
			p.int(l.More)
			p.raw(" more: the ownership map marks them, <code>-o json</code> lists them.</span>")
		}
		p.raw("</details>")
		return
	}
	for i, f := range l.Items {
		if i != 0 {
			p.raw(", ")
		}
		p.raw("<code>")
		p.text(f)
		p.raw("</code>")
	}
}

func (p *page) error(e *htmlError) {
	p.raw("<div class=\"box bad\">\n<h3>")
	if e.Server {
		p.raw("The server refuses: ")
		p.int(e.Code)
		p.raw(" ")
		p.text(e.Reason)
	} else {
		p.raw("ssa-diff could not predict this object")
	}
	if e.Judged {
		p.raw(" <span class=\"chip ")
		if e.Fails {
			p.raw("bad\">fails the run")
		} else {
			p.raw("\">does not fail the run (--fail-on)")
		}
		p.raw("</span>")
	}
	p.raw("</h3>\n<pre class=\"msg\">")
	p.text(e.Message)
	p.raw("</pre>")
	if len(e.Causes) > 0 {
		p.raw("<table class=\"causes\"><thead><tr><th>reason</th><th>field</th><th>message</th></tr></thead><tbody>")
		for _, c := range e.Causes {
			p.raw("<tr><td>")
			p.text(c.Reason)
			p.raw("</td><td><code>")
			p.text(c.Field)
			p.raw("</code></td><td>")
			p.text(c.Message)
			p.raw("</td></tr>")
		}
		p.raw("</tbody></table>")
	}
	if len(e.Fields) > 0 {
		p.raw("<ul class=\"fields\">")
		for _, f := range e.Fields {
			p.raw("<li><code>")
			p.text(f.Path)
			p.raw("</code>")
			if f.DidYouMean != "" {
				p.raw(" — did you mean <code>")
				p.text(f.DidYouMean)
				p.raw("</code>?")
			}
			p.raw("</li>")
		}
		p.raw("</ul>")
	}
	if e.Path != "" || e.Line != 0 {
		p.raw("<p class=\"dim\">at ")
		if e.Path != "" {
			p.raw("<code>")
			p.text(e.Path)
			p.raw("</code>")
		}
		if e.Line != 0 {
			p.raw(" line ")
			p.int(e.Line)
		}
		p.raw("</p>")
	}
	if e.Status != "" {
		p.raw("<details class=\"status\"><summary>the server’s answer, a v1 Status</summary><pre>")
		p.text(e.Status)
		p.raw("</pre></details>")
	}
	p.raw("\n</div>")
}

func (p *page) advice(a advice.Advice) {
	p.raw("<li class=\"")
	p.text(string(a.Severity))
	p.raw("\"><code>")
	p.text(a.ID)
	p.raw("</code> ")
	p.text(a.Message)
	if a.Fix != "" {
		p.raw("<br><b>fix:</b> ")
		p.text(a.Fix)
	}
	if len(a.Paths) > 0 || len(a.Managers) > 0 {
		p.raw("<br><small>")
		for _, s := range a.Paths {
			p.raw("<code>")
			p.text(s)
			p.raw("</code> ")
		}
		for _, s := range a.Managers {
			p.raw("<span class=\"dim\">")
			p.text(s)
			p.raw("</span> ")
		}
		p.raw("</small>")
	}
	p.raw("</li>")
}

func (p *page) adviceList(list []advice.Advice) {
	p.raw("<ul class=\"advice\">")
	for _, a := range list {
		p.advice(a)
	}
	p.raw("</ul>")
}

// ownerSpan is a manager coloured by its class.
func (p *page) ownerSpan(class, name string) {
	p.raw("<span class=\"own ")
	p.text(class)
	p.raw("\">")
	p.text(name)
	p.raw("</span>")
}

func (p *page) object(v *htmlObject) {
	p.raw("<details class=\"obj\" id=\"")
	p.text(v.ID)
	p.raw("\" data-a=\"")
	p.text(v.Action)
	p.raw("\" data-k=\"")
	p.text(v.Kind)
	p.raw("\" data-n=\"")
	p.text(v.NamespaceKey)
	p.raw("\"")
	if v.Failing {
		p.raw(" data-f=\"1\"")
	}
	if v.Open {
		p.raw(" open")
	}
	p.raw(">\n<summary><span class=\"act ")
	p.text(v.Action)
	p.raw("\">")
	p.text(v.ActionLabel)
	p.raw("</span> ")
	if v.Kind != "" || v.Name != "" {
		p.raw("<span class=\"kind\">")
		p.text(v.Kind)
		p.raw("</span> <span class=\"nm\">")
		if v.Namespace != "" {
			p.text(v.Namespace)
			p.raw("/")
		}
		p.text(v.Name)
		p.raw("</span> <span class=\"av\">")
		p.text(v.APIVersion)
		p.raw("</span>")
	} else {
		p.raw("<span class=\"nm\">")
		p.text(v.Title)
		p.raw("</span>")
	}
	for _, c := range v.Chips {
		p.raw(" <span class=\"chip ")
		p.text(c.Class)
		p.raw("\">")
		p.text(c.Text)
		p.raw("</span>")
	}
	p.raw(" <span class=\"src\">")
	p.text(v.Source)
	p.raw("</span></summary>\n<div class=\"body\">\n<p class=\"where\">")
	if v.Action == "prune" {
		p.raw("live <code>")
		p.text(v.SourceLong)
		p.raw("</code>: no manifest names it")
	} else {
		p.raw("manifest <code>")
		p.text(v.SourceLong)
		p.raw("</code>")
		if v.LiveSource != "" {
			p.raw(" · live <code>")
			p.text(v.LiveSourceLong)
			p.raw("</code>")
		} else if v.Action == "create" {
			p.raw(" · no live object: a create")
		}
	}
	p.raw("</p>")
	if v.Error != nil {
		p.error(v.Error)
	}
	if pr := v.Prune; pr != nil {
		p.raw("<div class=\"box warn\"><h3>Pruned by ")
		p.text(pr.Applier)
		if v.PruneLevel != "" {
			if v.PruneLevel == "failure" {
				p.raw(" <span class=\"chip bad\">fails the run</span>")
			} else {
				p.raw(" <span class=\"chip warn\">")
				p.text(v.PruneLevel)
				p.raw(": --fail-on prune would fail the run</span>")
			}
		}
		p.raw("</h3><p>")
		p.text(pr.Message)
		p.raw("</p></div>")
	}
	if len(v.Findings) > 0 {
		p.raw("<ul class=\"findings\">")
		for _, f := range v.Findings {
			p.raw("<li class=\"")
			p.text(f.Level)
			p.raw("\"><span class=\"lvl\">")
			p.text(f.Level)
			p.raw("</span> <b>")
			p.text(f.Category)
			if f.Reason != "" {
				p.raw(" (")
				p.text(f.Reason)
				p.raw(")")
			}
			p.raw("</b>")
			if f.Manager != "" {
				p.raw(" <span class=\"dim\">")
				p.text(f.Manager)
				p.raw("</span>")
			}
			if f.Where != "" {
				p.raw(" <code>")
				p.text(f.Where)
				p.raw("</code>")
			}
			p.raw(" <span class=\"fm\">")
			p.text(f.Message)
			p.raw("</span>")
			if len(f.Paths.Items) > 0 {
				p.raw(" <span class=\"paths\">")
				p.fields(f.Paths)
				p.raw("</span>")
			}
			p.raw("</li>")
		}
		p.raw("</ul>")
	}
	if len(v.Conflicts) > 0 {
		p.raw("<h3>")
		p.text(v.ConflictsHeading)
		p.raw(" <small>")
		p.int(len(v.Conflicts))
		p.raw("</small></h3>\n<table class=\"conflicts\"><thead><tr><th>field</th><th>owned by</th><th>live</th><th>applied</th></tr></thead><tbody>")
		for _, c := range v.Conflicts {
			p.raw("<tr><td><code title=\"")
			p.text(c.Pointer)
			p.raw("\">")
			p.text(c.Path)
			p.raw("</code>")
			if c.Where != "" {
				p.raw("<br><small>")
				p.text(c.Where)
				p.raw("</small>")
			}
			p.raw("</td><td><span class=\"own ")
			p.text(c.Class)
			p.raw("\" title=\"")
			p.text(c.Owner)
			p.raw("\">")
			p.text(c.Describe)
			p.raw("</span>")
			if c.Since != "" {
				p.raw("<br><small>since ")
				p.text(c.Since)
				p.raw("</small>")
			}
			p.raw("</td><td><code class=\"vd\">")
			p.text(c.Live)
			p.raw("</code></td><td><code class=\"va\">")
			p.text(c.Applied)
			p.raw("</code></td></tr>")
		}
		p.raw("</tbody></table>")
	}
	if f := v.Force; f != nil {
		p.force(f)
	}
	if len(v.Ownership) > 0 {
		p.raw("<h3>Ownership moves</h3>\n<table class=\"moves\"><thead><tr><th>manager</th>")
		if v.Cols.Gained {
			p.raw("<th>gains</th>")
		}
		if v.Cols.Taken {
			p.raw("<th>loses to the applier</th>")
		}
		if v.Cols.Released {
			p.raw("<th>releases</th>")
		}
		p.raw("</tr></thead><tbody>")
		for _, o := range v.Ownership {
			p.raw("<tr><td>")
			p.ownerSpan(o.Class, o.Manager)
			if o.MovedFrom != "" {
				p.raw("<br><small>the entry moves from ")
				p.text(o.MovedFrom)
				p.raw(" to the manifest’s apiVersion: it now owns every field it gains</small>")
			}
			if o.Removed {
				p.raw("<br><small class=\"bad\">its entry is removed from managedFields</small>")
			}
			p.raw("</td>")
			if v.Cols.Gained {
				p.raw("<td>")
				if o.Create && len(o.Gained.Items) > 0 {
					p.raw("the new object: ")
				}
				p.fields(o.Gained)
				p.raw("</td>")
			}
			if v.Cols.Taken {
				p.raw("<td>")
				p.fields(o.Taken)
				p.raw("</td>")
			}
			if v.Cols.Released {
				p.raw("<td>")
				if len(o.Deleted.Items) > 0 {
					p.raw("<span class=\"bad\">deleted, nobody else owns them:</span> ")
					p.fields(o.Deleted)
				}
				if len(o.Deleted.Items) > 0 && len(o.Kept.Items) > 0 {
					p.raw("<br>")
				}
				if len(o.Kept.Items) > 0 {
					p.raw("stay, owned by others: ")
					p.fields(o.Kept)
				}
				p.raw("</td>")
			}
			p.raw("</tr>")
		}
		p.raw("</tbody></table>")
	}
	if len(v.Deleted.Items) > 0 {
		p.raw("<p><b class=\"bad\">Deleted</b>, nobody else owns them: ")
		p.fields(v.Deleted)
		p.raw("</p>")
	}
	p.drift(v)
	p.syncStatus(v.Sync)
	if len(v.Assigned.Items) > 0 || len(v.AssignedEvery.Items) > 0 {
		p.raw("<p class=\"dim\">Assigned by the server (not predicted): ")
		p.fields(v.Assigned)
		if len(v.AssignedEvery.Items) > 0 {
			if len(v.Assigned.Items) > 0 {
				p.raw("; ")
			}
			p.raw("as on every write: ")
			p.fields(v.AssignedEvery)
		}
		p.raw("</p>")
	}
	if len(v.Steps) > 0 {
		p.raw("<h3>The applier sends ")
		p.int(len(v.Steps))
		p.raw(" requests</h3><ol class=\"steps\">")
		for _, s := range v.Steps {
			p.raw("<li>")
			p.text(s.Description)
			p.raw(" <span class=\"dim\">as ")
			p.text(s.Manager)
			p.raw("</span> → <b>")
			p.int(s.Code)
			p.raw("</b></li>")
		}
		p.raw("</ol>")
	}
	for _, a := range v.Approximations {
		p.raw("<p class=\"warn\">approximate (")
		p.text(a.Reason)
		p.raw("): ")
		p.text(a.Message)
		p.raw("</p>")
	}
	p.warnings(v.Warnings)
	if len(v.Advice) > 0 {
		p.raw("<h3>Advice</h3>")
		p.adviceList(v.Advice)
	}
	if s := v.State; s != nil {
		p.state(s)
	}
	if v.Diff != nil {
		p.diff(v.Diff)
	}
	if v.Map != nil {
		p.ownershipMap(v.Map)
	}
	p.raw("\n</div>\n</details>\n")
}

func (p *page) warnings(ws []string) {
	for _, w := range ws {
		p.raw("<p class=\"warn\">warning: ")
		p.text(w)
		p.raw("</p>")
	}
}

// force is what --force-conflicts would take, and what the forced apply would do.
func (p *page) force(f *htmlForce) {
	p.raw("<div class=\"box force\"><h3>--force-conflicts would take</h3><ul>")
	for _, t := range f.Takes {
		p.raw("<li>from ")
		p.ownerSpan(t.Class, t.Manager)
		p.raw(": ")
		p.fields(t.Fields)
		if t.Removed {
			p.raw(" <em>(its managedFields entry would be removed)</em>")
		}
		p.raw("</li>")
	}
	p.raw("</ul>")
	if f.Refused != nil {
		p.raw("<p class=\"bad\">and the server would still refuse:</p>")
		p.error(f.Refused)
	}
	for _, g := range f.Gains {
		p.raw("<p>")
		p.ownerSpan(g.Class, g.Manager)
		p.raw(" would own ")
		p.fields(g.Fields)
		p.raw("</p>")
	}
	if len(f.Deleted.Items) > 0 {
		p.raw("<p>and delete, as nobody else owns them: ")
		p.fields(f.Deleted)
		p.raw("</p>")
	}
	p.warnings(f.Warnings)
	if f.Action != "" {
		p.raw("<p class=\"dim\">The forced apply would <b>")
		p.text(f.Action)
		p.raw("</b> the object")
		if len(f.Steps) > 0 {
			p.raw(", in ")
			p.int(len(f.Steps))
			p.raw(" requests:")
			for i, s := range f.Steps {
				if i != 0 {
					p.raw(";")
				}
				p.raw(" ")
				p.text(s.Description)
				p.raw(" as ")
				p.text(s.Manager)
				p.raw(" → ")
				p.int(s.Code)
			}
		}
		switch {
		case f.Stores:
			p.raw("; the diff and the ownership map below show what it would store")
			if len(f.Assigned.Items) > 0 {
				p.raw(", but for what the server assigns: ")
				p.fields(f.Assigned)
			}
		case len(f.Assigned.Items) > 0:
			p.raw("; the server would assign ")
			p.fields(f.Assigned)
		}
		p.raw(".</p>")
	}
	p.raw("</div>")
}

// state is the live object's state: its line, its conditions, the advice about them.
func (p *page) state(s *htmlState) {
	p.raw("<div class=\"state\"><p")
	if len(s.Counters) > 0 {
		p.raw(" title=\"")
		for i, c := range s.Counters {
			if i != 0 {
				p.raw("; ")
			}
			p.text(c.Name)
			p.raw(": ")
			p.text(c.Path)
			p.raw(" ")
			p.b = strconv.AppendInt(p.b, c.Have, 10)
			p.raw("/")
			p.b = strconv.AppendInt(p.b, c.Want, 10)
		}
		p.raw("\"")
	}
	p.raw(">")
	p.text(s.Line)
	p.raw("</p>")
	if len(s.Conditions) > 0 {
		p.raw("<table class=\"conds\"><thead><tr><th>condition</th><th>status</th><th>reason</th><th>since</th><th>message</th></tr></thead><tbody>")
		for _, c := range s.Conditions {
			p.raw("<tr class=\"")
			switch {
			case c.Reported:
				p.raw("bad")
			case c.Bad:
				p.raw("warn")
			}
			p.raw("\"><td>")
			p.text(c.Type)
			p.raw("</td><td>")
			p.text(c.Status)
			p.raw("</td><td>")
			p.text(c.Reason)
			p.raw("</td><td>")
			p.text(c.Since)
			if c.For != "" {
				p.raw(" <small>for ")
				p.text(c.For)
				p.raw("</small>")
			}
			p.raw("</td><td>")
			p.text(c.Message)
			p.raw("</td></tr>")
		}
		p.raw("</tbody></table>")
	}
	if len(s.Advice) > 0 {
		p.adviceList(s.Advice)
	}
	p.raw("</div>")
}

func (p *page) diff(d *htmlDiff) {
	p.raw("<div class=\"diff\"><h3>Diff <small>")
	p.text(d.From)
	p.raw(" → ")
	p.text(d.To)
	p.raw("</small> <span class=\"va\">+")
	p.int(d.Added)
	p.raw("</span> <span class=\"vd\">−")
	p.int(d.Removed)
	p.raw("</span></h3>\n<div class=\"df\">")
	for _, hk := range d.Hunks {
		p.raw("<div class=\"hh\">")
		p.text(hk.Header)
		p.raw("</div><div class=\"hk\" style=\"counter-reset: o ")
		p.int(hk.A)
		p.raw(" n ")
		p.int(hk.B)
		p.raw("\">")
		for _, bl := range hk.Blocks {
			if bl.Change {
				p.raw("<div class=\"ch\">")
				for _, l := range bl.Lines {
					p.raw("<div class=\"")
					p.text(l.Op)
					p.raw("\">")
					for _, s := range l.Segs {
						if s.Hi {
							p.raw("<b>")
							p.text(s.Text)
							p.raw("</b>")
						} else {
							p.text(s.Text)
						}
					}
					p.raw("</div>")
				}
				p.raw("</div>")
				continue
			}
			for _, l := range bl.Lines {
				p.raw("<div class=\"c\">")
				for _, s := range l.Segs {
					p.text(s.Text)
				}
				p.raw("</div>")
			}
		}
		p.raw("</div>")
	}
	p.raw("</div>")
	if d.More != 0 {
		p.raw("<p class=\"dim\">… ")
		p.int(d.More)
		p.raw(" more lines: <code>-o diff</code> prints the whole diff.</p>")
	}
	p.raw("</div>")
}

func (p *page) ownershipMap(m *htmlMap) {
	p.raw("<div class=\"map\"><h3>")
	p.text(m.Title)
	p.raw("</h3>\n<ul class=\"legend\">")
	for _, e := range m.Legend {
		p.raw("<li>")
		p.ownerSpan(e.Class, e.Describe)
		if e.Time != "" {
			p.raw(" <small>")
			p.text(e.Time)
			p.raw("</small>")
		}
		p.raw("</li>")
	}
	for _, e := range m.Removed {
		p.raw("<li class=\"gone\">")
		p.ownerSpan(e.Class, e.Describe)
		p.raw(" <small>")
		if e.Time != "" {
			p.text(e.Time)
			p.raw(", ")
		}
		p.raw("entry removed</small></li>")
	}
	p.raw("<li><span class=\"own none\">no owner</span></li></ul>\n<div class=\"tree\">")
	for _, l := range m.Lines {
		p.raw("<div")
		if l.Class != "" {
			p.raw(" class=\"")
			p.text(l.Class)
			p.raw("\"")
		}
		p.raw(">")
		if l.Label != "" {
			p.raw("<i")
			if l.Long {
				p.raw(" title=\"")
				p.text(l.Label)
				p.raw("\"")
			}
			p.raw(">")
			p.text(l.Label)
			p.raw("</i>")
		}
		p.text(l.Text)
		if l.Mark != "" {
			p.raw("<em class=\"")
			p.text(l.MarkClass)
			p.raw("\">")
			p.text(l.Mark)
			p.raw("</em>")
		}
		p.raw("</div>")
	}
	p.raw("</div>")
	if m.More != 0 {
		p.raw("<p class=\"dim\">… ")
		p.int(m.More)
		p.raw(" more lines: <code>ssa-diff blame</code> and <code>-o yaml</code> show them.</p>")
	}
	if len(m.Deleted) > 0 {
		p.raw("<p><b class=\"bad\">Deleted</b> from the object: ")
		for i, d := range m.Deleted {
			if i != 0 {
				p.raw(", ")
			}
			p.raw("<code>")
			p.text(d.Path)
			p.raw("</code>")
			if d.Was != "" {
				p.raw(" <small>(was ")
				p.ownerSpan(d.Class, d.Was)
				p.raw(")</small>")
			}
		}
		p.raw("</p>")
	}
	p.raw("\n</div>")
}
