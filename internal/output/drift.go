package output

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge"
)

// maxDriftListed is how many drifted fields of one object the human formats list before
// counting the rest (-o json lists them all).
const maxDriftListed = 12

// driftShown is what the human formats say of a result's drift: the fields listed (not
// hidden by the ignore rules, not at the server's defaults), and the fields at the
// server's defaults counted by fate with their owners.
type driftShown struct {
	listed []report.DriftField
	// defaultFields are the fields at the server's defaults, counted by fate in defaults.
	defaultFields []report.DriftField
	defaults      map[string]int
	// defaultOwners are the owners of the defaults, described, in first-seen order.
	defaultOwners []string
}

func (d driftShown) empty() bool { return len(d.listed) == 0 && len(d.defaults) == 0 }

// driftOf prepares res's drift for display.
func driftOf(res *report.Result, opts Options) driftShown {
	var d driftShown
	if len(res.Drift) == 0 {
		return d
	}
	oi := opts.Ignore.For(res.APIVersion, res.Kind, res.Namespace, res.Name, res.Live, res.Object)
	seenOwner := map[string]bool{}
	for _, f := range res.Drift {
		if oi != nil && oi.Covers(f.Path, res.Live, res.Object) {
			continue
		}
		if !f.Default {
			d.listed = append(d.listed, f)
			continue
		}
		if d.defaults == nil {
			d.defaults = map[string]int{}
		}
		d.defaults[f.Fate]++
		d.defaultFields = append(d.defaultFields, f)
		owners := make([]string, len(f.Owners))
		for i, o := range f.Owners {
			owners[i] = driftOwner(o)
		}
		if len(owners) == 0 {
			owners = []string{noOwner}
		}
		for _, s := range owners {
			if !seenOwner[s] {
				seenOwner[s] = true
				d.defaultOwners = append(d.defaultOwners, s)
			}
		}
	}
	return d
}

// driftOwner describes an owner as the other owners are described.
func driftOwner(o judge.DriftOwner) string {
	return report.Manager{Manager: o.Manager, Operation: o.Operation, APIVersion: o.APIVersion, Subresource: o.Subresource}.Describe()
}

// noOwner is the owner shown of a field no managedFields entry owns.
const noOwner = "none"

// driftOwners describes a field's owners ("none" when nobody owns it).
func driftOwners(f report.DriftField) string {
	if len(f.Owners) == 0 {
		return noOwner
	}
	names := make([]string, len(f.Owners))
	for i, o := range f.Owners {
		names[i] = driftOwner(o)
	}
	return strings.Join(names, ", ")
}

// driftValue is a drifted field's live value as shown (a Secret's masked).
func driftValue(res *report.Result, f report.DriftField, opts Options) string {
	v, _ := compactValues(f.Live, nil, 60)
	v, _ = opts.maskConflict(res, f.Path, v, "")
	return v
}

// driftFate says what the write leaves of a drifted field (a new value printed by marshal,
// cut to max runes).
func driftFate(res *report.Result, f report.DriftField, opts Options, marshal func(any) ([]byte, error), max int) string {
	switch f.Fate {
	case judge.DriftKept:
		return "kept"
	case judge.DriftRemoved:
		return "removed by the apply"
	case judge.DriftChanged:
		_, v := compactPair(marshal, nil, f.Predicted, max)
		_, v = opts.maskConflict(res, f.Path, "", v)
		return "changed by the apply to " + v
	case judge.DriftRefused:
		return "stays: the apply is refused"
	}
	return f.Fate
}

// driftForcedFate says what the apply with --force-conflicts would leave of a drifted
// field of a refused apply ("" when it was not predicted): "; with --force-conflicts:
// removed by the apply".
func driftForcedFate(res *report.Result, f report.DriftField, opts Options, marshal func(any) ([]byte, error), max int) string {
	if f.WithForce == nil || res.Action != report.ActionRejected {
		return ""
	}
	forced := f
	forced.Fate, forced.Predicted = f.WithForce.Fate, f.WithForce.Predicted
	fate := driftFate(res, forced, opts, marshal, max)
	if f.WithForce.Fate == judge.DriftRefused {
		fate = "stays: refused too"
	}
	return "; with --force-conflicts: " + fate
}

// driftHeading is the heading of a drift section.
func driftHeading(d driftShown) string {
	n := len(d.listed)
	return fmt.Sprintf("drift (%d field%s the cluster has that the manifest does not set):", n, plural(n))
}

// driftDefaultsLine counts the fields at the server's defaults: "14 more at the values the
// server defaults for the manifest (owned by helm (Update, apps/v1)): 14 kept".
func driftDefaultsLine(d driftShown) string {
	total := 0
	var fates []string
	for _, fate := range []string{judge.DriftKept, judge.DriftRemoved, judge.DriftChanged, judge.DriftRefused} {
		if n := d.defaults[fate]; n > 0 {
			total += n
			fates = append(fates, fmt.Sprintf("%d %s", n, fate))
		}
	}
	return fmt.Sprintf("%d more at the values the server defaults for the manifest (owned by %s): %s",
		total, strings.Join(d.defaultOwners, ", "), strings.Join(fates, ", "))
}

// drift prints the fields the cluster has that the manifest does not set.
func (t *textWriter) drift(res *report.Result) {
	d := driftOf(res, t.opts)
	if d.empty() {
		return
	}
	t.w.printf("  %s\n", t.p.bold(driftHeading(d)))
	for i, f := range d.listed {
		if i == maxDriftListed {
			t.w.printf("    %s\n", t.p.dim(fmt.Sprintf("… and %d more (-o json lists them)", len(d.listed)-maxDriftListed)))
			break
		}
		fate := driftFate(res, f, t.opts, json.Marshal, 60)
		switch f.Fate {
		case judge.DriftRemoved, judge.DriftChanged:
			fate = t.p.red(fate)
		default:
			fate = t.p.dim(fate)
		}
		if forced := driftForcedFate(res, f, t.opts, json.Marshal, 60); forced != "" {
			if f.WithForce.Fate == judge.DriftRemoved || f.WithForce.Fate == judge.DriftChanged {
				forced = t.p.red(forced)
			} else {
				forced = t.p.dim(forced)
			}
			fate += forced
		}
		t.w.printf("    %s  %s  %s\n", f.Path, driftValue(res, f, t.opts), fate)
		t.w.printf("      owned by %s\n", driftOwners(f))
	}
	if len(d.defaults) > 0 {
		t.w.printf("    %s\n", t.p.dim(driftDefaultsLine(d)))
	}
}

// hasDrift reports whether the human formats list drift of res: an unchanged object with
// drift is not folded away.
func hasDrift(res *report.Result, opts Options) bool { return len(driftOf(res, opts).listed) > 0 }

// drift is the markdown table of the fields the cluster has that the manifest does not set.
func (m *markdownWriter) drift(res *report.Result) string {
	d := driftOf(res, m.opts)
	if d.empty() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Drift** — %d field%s the cluster has that the manifest does not set\n\n", len(d.listed), plural(len(d.listed)))
	if len(d.listed) > 0 {
		b.WriteString("| field | live | owned by | the apply |\n|---|---|---|---|\n")
		for i, f := range d.listed {
			if i == maxDriftListed {
				fmt.Fprintf(&b, "\n… and %d more (`-o json` lists them)\n", len(d.listed)-maxDriftListed)
				break
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(code(f.Path)), cell(code(driftValue(res, f, m.opts))), cell(driftOwners(f)), cell(driftFate(res, f, m.opts, json.Marshal, 40)+driftForcedFate(res, f, m.opts, json.Marshal, 40)))
		}
		b.WriteString("\n")
	}
	if len(d.defaults) > 0 {
		b.WriteString(inline(driftDefaultsLine(d)) + "\n\n")
	}
	return b.String()
}

// htmlDrift is one drifted field as the html page shows it.
type htmlDrift struct {
	Path, Pointer, Live, Fate, FateClass string
	Owners                               []htmlTake
}

// drift is the html view of res's drift: the fields listed, the line counting those at
// the server's defaults ("" when none), and those fields, collapsed under it.
func (h *htmlWriter) drift(res *report.Result) (listed []htmlDrift, defaultsLine string, defaults []htmlDrift) {
	d := driftOf(res, h.opts)
	marshal := func(v any) ([]byte, error) { return encodeJSON(v, "") }
	view := func(f report.DriftField) htmlDrift {
		live, _ := compactPair(marshal, f.Live, nil, htmlMaxValue)
		live, _ = h.opts.maskConflict(res, f.Path, live, "")
		hd := htmlDrift{Path: f.Path, Pointer: f.Pointer, Live: live, Fate: driftFate(res, f, h.opts, marshal, htmlMaxValue), FateClass: f.Fate}
		// A refused apply: what --force-conflicts would do to the field, beside it.
		hd.Fate += driftForcedFate(res, f, h.opts, marshal, htmlMaxValue)
		for _, o := range f.Owners {
			hd.Owners = append(hd.Owners, htmlTake{Manager: driftOwner(o), Class: h.managerClass(o.Manager)})
		}
		if len(f.Owners) == 0 {
			hd.Owners = []htmlTake{{Manager: noOwner}}
		}
		return hd
	}
	for _, f := range d.listed {
		listed = append(listed, view(f))
	}
	for _, f := range d.defaultFields {
		defaults = append(defaults, view(f))
	}
	if len(d.defaults) > 0 {
		defaultsLine = driftDefaultsLine(d)
	}
	return listed, defaultsLine, defaults
}

// drift writes the drift of an object: a table, and the fields at the server's defaults
// counted, their table collapsed.
func (p *page) drift(v *htmlObject) {
	if len(v.Drift) == 0 && v.DriftDefaults == "" {
		return
	}
	p.raw("<h3>Drift <small>")
	p.int(len(v.Drift))
	p.raw("</small> <span class=\"dim\">fields the cluster has that the manifest does not set</span></h3>")
	if len(v.Drift) > 0 {
		p.driftTable(v.Drift)
	}
	if v.DriftDefaults != "" {
		p.raw("<details class=\"dim\"><summary>")
		p.text(v.DriftDefaults)
		p.raw("</summary>")
		p.driftTable(v.DriftDefaultFields)
		p.raw("</details>")
	}
}

func (p *page) driftTable(rows []htmlDrift) {
	p.raw("<table class=\"drift\"><thead><tr><th>field</th><th>live</th><th>owned by</th><th>the apply</th></tr></thead><tbody>")
	for _, d := range rows {
		p.raw("<tr data-fate=\"")
		p.text(d.FateClass)
		p.raw("\"><td><code title=\"")
		p.text(d.Pointer)
		p.raw("\">")
		p.text(d.Path)
		p.raw("</code></td><td><code class=\"vd\">")
		p.text(d.Live)
		p.raw("</code></td><td>")
		for i, o := range d.Owners {
			if i > 0 {
				p.raw("<br>")
			}
			p.ownerSpan(o.Class, o.Manager)
		}
		p.raw("</td><td")
		if d.FateClass == judge.DriftRemoved || d.FateClass == judge.DriftChanged {
			p.raw(" class=\"bad\"")
		}
		p.raw(">")
		p.text(d.Fate)
		p.raw("</td></tr>")
	}
	p.raw("</tbody></table>")
}
