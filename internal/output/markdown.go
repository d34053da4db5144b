package output

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

// markdownBudget is how long the comment may grow: GitHub refuses comments over 65,536
// characters, and the end of the comment needs room.
const markdownBudget = 60000

// maxDiffLines is how many lines of one object's diff the comment shows.
const maxDiffLines = 120

// markdownWriter prints a pull-request comment: a verdict and a table of counts, the
// managers that lose fields, then per object that changes or has findings its findings,
// conflicts, ownership moves and a collapsed diff. Objects with failing findings come
// first. The comment stays under GitHub's size limit: past it, diffs are left out, then
// objects (counted at the end).
type markdownWriter struct {
	opts      Options
	w         io.Writer
	budget    int
	attention []mdSection
	changes   []mdSection
	used      [2]int // bytes of the full sections so far: attention, changes
	takers    map[string]*takeCount
	order     []string
	unchanged int
}

// mdSection is one object's part of the comment, with and without its diff.
type mdSection struct{ full, compact string }

type takeCount struct{ fields, objects int }

func newMarkdown(w io.Writer, opts Options) Writer {
	return &markdownWriter{opts: opts, w: w, budget: markdownBudget, takers: map[string]*takeCount{}}
}

func (m *markdownWriter) Write(res *report.Result) error {
	m.order = countTakers(m.takers, m.order, res)
	failing, notable := false, false
	for _, f := range res.Findings {
		failing = failing || f.Fails()
		notable = notable || f.Level != report.LevelNotice
	}
	if !failing && !notable && !res.Changed && !hasDrift(res, m.opts) && !res.SyncStatus.OutOfSync() && res.Action != report.ActionRejected && res.Action != report.ActionError && !(m.opts.ShowUnchanged && res.Action == report.ActionUnchanged) {
		m.unchanged++
		return nil
	}
	// Drift and diffs are rendered while the sections that will come before this one leave
	// room (the failing ones for a failing object, all of them for the others): a finding
	// is never pushed out of the comment by another object's drift.
	i, before := 1, m.used[0]+m.used[1]
	if failing {
		i, before = 0, m.used[0]
	}
	compact := m.section(res, failing)
	full := compact
	if before+len(compact) < m.budget {
		d, err := m.diff(res)
		if err != nil {
			return err
		}
		sync, err := m.syncStatus(res)
		if err != nil {
			return err
		}
		full += m.drift(res) + sync + d
	}
	m.used[i] += len(full)
	if failing {
		m.attention = append(m.attention, mdSection{full, compact})
	} else {
		m.changes = append(m.changes, mdSection{full, compact})
	}
	return nil
}

// section is an object's heading, findings, conflicts and ownership moves.
func (m *markdownWriter) section(res *report.Result, failing bool) string {
	var b strings.Builder
	icon := "✏️"
	switch {
	case failing:
		icon = "❌"
	case res.Action == report.ActionCreate:
		icon = "🆕"
	case res.Action == report.ActionPrune:
		icon = "🗑️"
	case res.Action == report.ActionRejected || res.Action == report.ActionError:
		icon = "⚠️"
	}
	action := string(res.Action)
	switch {
	case res.Action == report.ActionRejected && res.Error != nil:
		action = fmt.Sprintf("rejected (%d %s)", res.Error.Code, reasonOf(res.Error))
	case res.Action == report.ActionError:
		action = "not predicted"
	case res.Action == report.ActionUpdate && !res.Changed:
		action = "update (only managedFields times)"
	}
	fmt.Fprintf(&b, "#### %s %s — %s\n\n", icon, code(title(res)), action)
	where := code(res.Source.Short()) + inline(via(res.Source))
	if res.Action == report.ActionPrune {
		where = "live " + code(res.Source.Short())
	} else if res.LiveSource != nil {
		where += " ← live " + code(res.LiveSource.Short())
	}
	b.WriteString(where + "\n\n")
	listed := 0
	for _, f := range res.Findings {
		if f.Category == report.CategoryConflict && !f.Fails() {
			continue // the conflicts table says it
		}
		listed++
		mark := "⚠️"
		switch f.Level {
		case report.LevelFailure:
			mark = "❌"
		case report.LevelNotice:
			mark = "ℹ️"
		}
		at := ""
		switch {
		case f.File != "" && f.Line > 0:
			at = " (" + code(fmt.Sprintf("%s:%d", f.File, f.Line)) + ")"
		case f.Line > 0 && f.Line != res.Source.Line:
			at = fmt.Sprintf(" (line %d)", f.Line)
		}
		category := f.Category
		if f.Reason != "" {
			category += " (" + f.Reason + ")"
		}
		first, rest, multi := strings.Cut(strings.TrimRight(f.Message, "\n"), "\n")
		fmt.Fprintf(&b, "- %s **%s**%s: %s\n", mark, category, at, inline(first))
		if multi {
			// The message's other lines (a server's list of errors) as they are.
			fence := "```"
			for strings.Contains(rest, fence) {
				fence += "`"
			}
			fmt.Fprintf(&b, "\n  %s\n  %s\n  %s\n\n", fence, strings.ReplaceAll(rest, "\n", "\n  "), fence)
		}
	}
	if shown := assignedShown(res); len(shown) > 0 {
		listed++
		codes := make([]string, len(shown))
		for i, p := range shown {
			codes[i] = code(p)
		}
		fmt.Fprintf(&b, "- ℹ️ %s%s\n", assignedLead, strings.Join(codes, ", "))
	}
	if listed > 0 {
		b.WriteString("\n")
	}
	if len(res.Conflicts) > 0 {
		heading := "Conflicts"
		if res.Action != report.ActionRejected {
			heading = "Taken by force"
		}
		fmt.Fprintf(&b, "**%s**\n\n| field | owner | live | applied |\n|---|---|---|---|\n", heading)
		for _, c := range res.Conflicts {
			live, applied := compactValues(c.Live, c.Applied, 40)
			live, applied = m.opts.maskConflict(res, c.Path, live, applied)
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(code(c.Path)), cell(describeManager(c.Manager)), cell(code(live)), cell(code(applied)))
		}
		b.WriteString("\n")
	}
	var rows []string
	for _, o := range res.Ownership {
		gains := ""
		if n := len(o.Gained); n > 0 {
			gains = fmt.Sprintf("%d field%s", n, plural(n))
		}
		loses := listCode(o.Taken)
		if o.Removed {
			loses = strings.TrimSpace(loses + " (entry removed)")
		}
		releases := listCode(o.Released)
		if gains == "" && loses == "" && releases == "" {
			continue
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", cell(describeManager(o.Manager)), gains, cell(loses), cell(releases)))
	}
	if len(rows) > 0 {
		b.WriteString("**Ownership**\n\n| manager | gains | loses to the applier | releases |\n|---|---|---|---|\n")
		b.WriteString(strings.Join(rows, "\n") + "\n\n")
	}
	if len(res.Advice) > 0 {
		b.WriteString("**Advice**\n\n")
		for _, a := range res.Advice {
			fmt.Fprintf(&b, "- `%s` %s — *fix:* %s\n", a.ID, inline(a.Message), inline(a.Fix))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// diff is the collapsed diff of the object, "" when nothing shows.
func (m *markdownWriter) diff(res *report.Result) (string, error) {
	if res.Object == nil && res.Action != report.ActionPrune {
		return "", nil
	}
	a, b, same, err := displayTexts(res, res.Live, res.Object, m.opts, false)
	if err != nil || same {
		return "", err // or the diff is empty
	}
	body := unifiedBody(a, b, DefaultContext, palette{})
	if body == "" {
		return "", nil
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	added, removed := 0, 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	cut := ""
	if len(lines) > maxDiffLines {
		cut = fmt.Sprintf("\n… %d more lines (-o text shows the whole diff)", len(lines)-maxDiffLines)
		lines = lines[:maxDiffLines]
	}
	text := strings.Join(lines, "\n")
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fmt.Sprintf("<details><summary>Diff (+%d −%d)</summary>\n\n%sdiff\n%s\n%s%s\n\n</details>\n\n", added, removed, fence, text, fence, cut), nil
}

func (m *markdownWriter) Close(rep *report.Report) error {
	s := rep.Summary
	var b strings.Builder
	icon := "✅"
	if s.ExitCode >= report.ExitError {
		icon = "❌"
	}
	fmt.Fprintf(&b, "## %s ssa-diff: %s\n\n", icon, verdict(s))
	o := rep.Options
	fmt.Fprintf(&b, "%d object%s applied by %s as %s", s.Objects, plural(s.Objects), code(o.Applier), code(o.FieldManager))
	if o.Force {
		b.WriteString(" with force")
	}
	if p := o.Policy; p != nil {
		failOn := "nothing"
		if len(p.FailOn) > 0 {
			failOn = strings.Join(p.FailOn, ", ")
		}
		fmt.Fprintf(&b, " · fails on: %s", failOn)
		if len(p.AllowTakeoverFrom) > 0 {
			fmt.Fprintf(&b, " · may take from: %s", listCode(p.AllowTakeoverFrom))
		}
		if len(p.Protect) > 0 {
			fmt.Fprintf(&b, " · protected: %s", listCode(p.Protect))
		}
	}
	if u := m.opts.ReportURL; u != "" {
		fmt.Fprintf(&b, "\n\n📄 **[The whole report](%s)**: one page with every object's diff, ownership map, conflicts and refusals.", linkTarget(u))
	}
	if s.Pruned > 0 {
		b.WriteString("\n\n| to create | to update | unchanged | to prune | rejected | not predicted | conflicts | fields taken over | fields deleted | failures |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n\n", s.Created, s.Updated, s.Unchanged, s.Pruned, s.Rejected, s.Errors, s.Conflicts, s.Takeovers, s.Deletions, s.Failures)
	} else {
		b.WriteString("\n\n| to create | to update | unchanged | rejected | not predicted | conflicts | fields taken over | fields deleted | failures |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d | %d | %d | %d |\n\n", s.Created, s.Updated, s.Unchanged, s.Rejected, s.Errors, s.Conflicts, s.Takeovers, s.Deletions, s.Failures)
	}
	if s.Approximate > 0 {
		fmt.Fprintf(&b, "%d object%s predicted on approximations (see *approximate* below; `--fail-on approximate` fails on them).\n\n", s.Approximate, plural(s.Approximate))
	}
	if len(m.order) > 0 {
		names := append([]string(nil), m.order...)
		sort.SliceStable(names, func(i, j int) bool { return m.takers[names[i]].fields > m.takers[names[j]].fields })
		b.WriteString("**Fields the applier takes, by manager**\n\n| from | fields | objects |\n|---|---:|---:|\n")
		for _, n := range names {
			fmt.Fprintf(&b, "| %s | %d | %d |\n", cell(n), m.takers[n].fields, m.takers[n].objects)
		}
		b.WriteString("\n")
	}
	omitted := 0
	emit := func(title string, secs []mdSection) {
		if len(secs) == 0 {
			return
		}
		head := "### " + title + "\n\n"
		if b.Len()+len(head) < m.budget {
			b.WriteString(head)
		}
		// A section is shown in full only while the ones after it still fit compact: every
		// object's heading and findings come before any one object's drift and diff. A
		// section that does not fit even compact is counted as left out, and the shorter
		// ones after it are still shown.
		rest := 0
		for _, sec := range secs {
			rest += len(sec.compact)
		}
		for _, sec := range secs {
			rest -= len(sec.compact)
			switch {
			case b.Len()+len(sec.full)+rest < m.budget:
				b.WriteString(sec.full)
			case b.Len()+len(sec.compact) < m.budget:
				b.WriteString(sec.compact)
			default:
				omitted++
			}
		}
	}
	emit("Needs attention", m.attention)
	emit("Changes", m.changes)
	if omitted > 0 {
		fmt.Fprintf(&b, "*… and %d more object%s not shown: a comment holds 65,536 characters. The job's log (`-o text`) has them all.*\n\n", omitted, plural(omitted))
	}
	if m.unchanged > 0 {
		fmt.Fprintf(&b, "%d object%s without changes or findings not listed.\n", m.unchanged, plural(m.unchanged))
	}
	_, err := io.WriteString(m.w, b.String())
	return err
}

// code is s as a Markdown code span, with a fence longer than any run of backticks in it.
func code(s string) string {
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// linkTarget is a URL or file name as a Markdown link's destination: in angle brackets
// (which allow spaces and parentheses), with what would end them percent-encoded.
func linkTarget(u string) string {
	r := strings.NewReplacer("<", "%3C", ">", "%3E", "\n", "%0A", "\r", "%0D", "\\", "%5C")
	return "<" + r.Replace(u) + ">"
}

// cell makes text safe inside a table cell: pipes escaped, lines joined.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// inline makes a message safe in a list item: one line, HTML and Markdown characters that
// would change its meaning escaped.
func inline(s string) string {
	r := strings.NewReplacer("\n", " ", "\\", `\\`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "|", `\|`)
	return r.Replace(s)
}

// listCode lists up to five items as code spans, counting the rest.
func listCode(items []string) string {
	const max = 5
	var parts []string
	for i, s := range items {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(items)-max))
			break
		}
		parts = append(parts, code(s))
	}
	return strings.Join(parts, ", ")
}
