package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

// maxListed is how many gained fields of one manager the text lists before counting the rest.
const maxListed = 8

// textWriter prints, per object, what the apply does, for a person at a terminal.
type textWriter struct {
	w    *errWriter
	p    palette
	opts Options
	// folded counts the unchanged objects left out (Folded).
	folded int
}

func newText(w io.Writer, opts Options) Writer {
	return &textWriter{w: &errWriter{w: w}, p: palette{opts.Color}, opts: opts}
}

func (t *textWriter) Write(res *report.Result) error {
	if Folded(res, t.opts) {
		t.folded++
		return nil
	}
	t.header(res)
	t.problem(res)
	t.notes(res)
	t.policy(res)
	t.conflicts(res)
	t.force(res)
	t.ownership(res.Ownership, res.Deleted, res.Action == report.ActionCreate, "ownership:")
	t.steps(res)
	t.drift(res)
	if err := t.syncStatus(res); err != nil {
		return err
	}
	if l := assignedLine(res); l != "" {
		t.w.printf("  %s\n", t.p.dim(l))
	}
	approx := map[string]bool{}
	for _, a := range res.Approximations {
		approx[a.Message] = true
	}
	for _, w := range res.Warnings {
		if approx[w] {
			continue // said as an approximation
		}
		t.w.printf("  %s %s\n", t.p.yellow("warning:"), indentRest(w, "    "))
	}
	t.advice(res)
	if err := t.diff(res); err != nil {
		return err
	}
	t.w.write("\n")
	return t.w.err
}

func (t *textWriter) header(res *report.Result) {
	p := t.p
	var action string
	switch res.Action {
	case report.ActionCreate:
		action = p.green("create")
	case report.ActionUpdate:
		action = p.yellow("update")
		if !res.Changed {
			action += p.dim(" (only managedFields times change)")
		}
	case report.ActionUnchanged:
		action = p.dim("unchanged")
	case report.ActionRejected:
		action = p.boldRed(fmt.Sprintf("rejected (%d %s)", res.Error.Code, reasonOf(res.Error)))
	case report.ActionPrune:
		action = p.red("prune")
	default:
		action = p.boldRed("error: ssa-diff could not predict this object")
	}
	where := res.Source.Short() + via(res.Source)
	if res.Action == report.ActionPrune {
		where = "live " + res.Source.Short()
	} else if res.LiveSource != nil {
		where += " ← live " + res.LiveSource.Short()
	}
	t.w.printf("%s: %s  %s\n", p.bold(title(res)), action, p.dim("["+where+"]"))
}

// policy prints the findings that fail the run beyond the refusal and the error, which
// the header and problem already say: --fail-on conflicts, takeover, deletion, --protect.
func (t *textWriter) policy(res *report.Result) {
	for _, f := range res.Findings {
		if !f.Fails() || f.Category == report.CategoryRejected || f.Category == report.CategoryError {
			continue
		}
		t.w.printf("  %s %s\n", t.p.boldRed("fails ("+f.Category+")"+lineNote(res, f)+":"), indentRest(f.Message, "    "))
	}
}

// lineNote says where a finding is when it is not the object's line: " (line 12)", or
// " (overlays/prod/patch.yaml:6)" in another file.
func lineNote(res *report.Result, f report.Finding) string {
	switch {
	case f.File != "" && f.Line > 0:
		return fmt.Sprintf(" (%s:%d)", f.File, f.Line)
	case f.Line > 0 && f.Line != res.Source.Line:
		return fmt.Sprintf(" (line %d)", f.Line)
	}
	return ""
}

// notes prints what no other part says: why an object is pruned, the fields a refusal is
// about (with their lines and what the schema declares close to an unknown name), and
// what the prediction rests on that ssa-diff could not see.
func (t *textWriter) notes(res *report.Result) {
	for _, f := range res.Findings {
		switch {
		case f.Category == report.CategoryPrune && !f.Fails():
			t.w.printf("  %s %s\n", t.p.yellow("pruned:"), indentRest(f.Message, "    "))
		case f.Category == report.CategoryApproximate && !f.Fails():
			t.w.printf("  %s %s\n", t.p.yellow("approximate ("+f.Reason+"):"), indentRest(f.Message, "    "))
		case f.Category == report.CategoryRejected && len(f.Paths) > 0 && res.Error != nil:
			for _, fe := range res.Error.Fields {
				hint := ""
				if fe.DidYouMean != "" {
					hint = "; did you mean " + fe.DidYouMean + "?"
				}
				where := ""
				if fe.Path == f.Paths[0] {
					where = lineNote(res, f)
				}
				t.w.printf("  %s %s%s%s\n", t.p.red("field:"), fe.Path, where, hint)
			}
		}
	}
}

// problem prints the server's refusal or ssa-diff's error.
func (t *textWriter) problem(res *report.Result) {
	if res.Error == nil {
		return
	}
	label := "server says:"
	if res.Error.Code == 0 {
		label = "error:"
	}
	t.w.printf("  %s %s\n", t.p.red(label), indentRest(res.Error.Message, "    "))
}

func indentRest(s, indent string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+indent)
}

func (t *textWriter) conflicts(res *report.Result) {
	if len(res.Conflicts) == 0 {
		return
	}
	if res.Action == report.ActionRejected {
		t.w.printf("  %s\n", t.p.bold(fmt.Sprintf("conflicts (%d):", len(res.Conflicts))))
	} else {
		t.w.printf("  %s\n", t.p.bold(fmt.Sprintf("taken by force (%d):", len(res.Conflicts))))
	}
	for _, c := range res.Conflicts {
		live, applied := compactValues(c.Live, c.Applied, 60)
		live, applied = t.opts.maskConflict(res, c.Path, live, applied)
		t.w.printf("    %s  %s → %s\n", c.Path, t.p.red(live), t.p.green(applied))
		when := ""
		if c.Time != nil {
			if ago := Ago(*c.Time, t.opts.Now); ago == "in the future" {
				when = ", " + ago
			} else {
				when = ", since " + ago
			}
		}
		t.w.printf("      owned by %s%s\n", describeManager(c.Manager), when)
	}
}

// force prints what --force-conflicts would take, from whom.
func (t *textWriter) force(res *report.Result) {
	if res.Action != report.ActionRejected || len(res.Conflicts) == 0 {
		return
	}
	f := res.WithForce
	var taken []report.Ownership
	if f != nil {
		for _, o := range f.Ownership {
			if len(o.Taken) > 0 {
				taken = append(taken, o)
			}
		}
	}
	// A forced prediction that records no field taken (the owner's entry is the
	// before-first-apply one the server makes as it applies) says it no better than the
	// conflicts do.
	if f == nil || f.Action == report.ActionRejected || f.Action == report.ActionError || len(taken) == 0 {
		// Without a forced prediction, the conflicts themselves say what force would take.
		t.w.printf("  %s\n", t.p.bold("--force-conflicts would take:"))
		byOwner := map[string][]string{}
		var owners []report.Conflict
		for _, c := range res.Conflicts {
			if _, ok := byOwner[c.Owner]; !ok {
				owners = append(owners, c)
			}
			byOwner[c.Owner] = append(byOwner[c.Owner], c.Path)
		}
		for _, o := range owners {
			t.w.printf("    from %s: %s\n", describeManager(o.Manager), strings.Join(byOwner[o.Owner], ", "))
		}
		if f != nil && f.Error != nil {
			t.w.printf("    %s %s\n", t.p.yellow("and the server would still refuse:"), indentRest(f.Error.Message, "      "))
		}
		return
	}
	t.w.printf("  %s\n", t.p.bold("--force-conflicts would take:"))
	for _, o := range taken {
		note := ""
		if o.Removed {
			note = t.p.dim(" (its managedFields entry would be removed)")
		}
		t.w.printf("    from %s: %s%s\n", describeManager(o.Manager), strings.Join(o.Taken, ", "), note)
	}
}

// ownership prints who gains, releases and loses which fields.
func (t *textWriter) ownership(own []report.Ownership, deleted []string, create bool, heading string) {
	var lines []string
	shown := map[string]bool{}
	for _, o := range own {
		var ls []string
		gained := o.Gained
		if o.MovedFrom != "" {
			ls = append(ls, t.p.dim(fmt.Sprintf("entry moves from %s to the manifest's apiVersion; it now owns:", o.MovedFrom)))
		}
		switch {
		case create && len(gained) > 0:
			ls = append(ls, t.p.green(fmt.Sprintf("+ owns %d field%s", len(gained), plural(len(gained)))))
			gained = nil
		case len(gained) > maxListed:
			for _, g := range gained[:maxListed] {
				ls = append(ls, t.p.green("+ "+g))
			}
			ls = append(ls, t.p.green(fmt.Sprintf("+ … and %d more", len(gained)-maxListed)))
			gained = nil
		}
		for _, g := range gained {
			ls = append(ls, t.p.green("+ "+g))
		}
		del := map[string]bool{}
		for _, d := range o.Deleted {
			del[d] = true
		}
		for _, r := range o.Released {
			if del[r] {
				shown[r] = true
				ls = append(ls, t.p.red("- "+r)+t.p.dim("  released; deleted, nobody else owns it"))
			} else {
				ls = append(ls, t.p.yellow("- "+r)+t.p.dim("  released; stays, owned by others"))
			}
		}
		for _, k := range o.Taken {
			ls = append(ls, t.p.red("- "+k)+t.p.dim("  taken over by the applier"))
		}
		if o.Removed {
			ls = append(ls, t.p.dim("entry removed from managedFields"))
		}
		if len(ls) == 0 {
			continue
		}
		lines = append(lines, "    "+describeManager(o.Manager)+":")
		for _, l := range ls {
			lines = append(lines, "      "+l)
		}
	}
	var rest []string
	for _, d := range deleted {
		if !shown[d] {
			rest = append(rest, d)
		}
	}
	if len(lines) > 0 {
		t.w.printf("  %s\n%s\n", t.p.bold(heading), strings.Join(lines, "\n"))
	}
	if len(rest) > 0 {
		t.w.printf("  %s\n", t.p.bold("deleted (nobody else owns them):"))
		for _, d := range rest {
			t.w.printf("    %s\n", t.p.red("- "+d))
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (t *textWriter) steps(res *report.Result) {
	if len(res.Steps) < 2 {
		return
	}
	client := t.opts.Client
	if client == "" {
		client = "kubectl"
	}
	t.w.printf("  %s\n", t.p.bold(fmt.Sprintf("%s would send %d requests:", client, len(res.Steps))))
	for i, s := range res.Steps {
		t.w.printf("    %d. %s (manager %s) → %d\n", i+1, s.Description, s.Manager, s.Code)
	}
}

func (t *textWriter) diff(res *report.Result) error {
	if res.Object == nil && res.Action != report.ActionPrune {
		return nil
	}
	body, err := displayDiff(res, t.opts, t.p, false)
	if err != nil || body == "" {
		return err
	}
	from, to := "live", "predicted"
	if res.Live == nil {
		from = "live (none: the object is created)"
	}
	if res.Action == report.ActionPrune {
		to = "predicted (none: the object is pruned)"
	}
	t.w.printf("%s\n%s\n%s", t.p.bold("--- "+from), t.p.bold("+++ "+to), body)
	return nil
}

func (t *textWriter) Close(rep *report.Report) error {
	s := rep.Summary
	p := t.p
	parts := []string{
		p.green(fmt.Sprintf("%d to create", s.Created)),
		p.yellow(fmt.Sprintf("%d to update", s.Updated)),
		fmt.Sprintf("%d unchanged", s.Unchanged),
	}
	if t.folded > 0 {
		parts[2] += p.dim(fmt.Sprintf(" (%d not shown: --show-unchanged)", t.folded))
	}
	rej := fmt.Sprintf("%d rejected", s.Rejected)
	if s.Conflicts > 0 {
		rej += fmt.Sprintf(" (%d conflict%s)", s.Conflicts, plural(s.Conflicts))
	}
	errs := fmt.Sprintf("%d not predicted", s.Errors)
	if s.Rejected > 0 {
		rej = p.boldRed(rej)
	}
	if s.Errors > 0 {
		errs = p.boldRed(errs)
	}
	parts = append(parts, rej, errs)
	if s.Pruned > 0 {
		parts = append(parts, p.red(fmt.Sprintf("%d to prune", s.Pruned)))
	}
	t.w.printf("%s %d object%s: %s.\n", p.bold("Summary:"), s.Objects, plural(s.Objects), strings.Join(parts, ", "))
	if sh := rep.Shard; sh != nil {
		t.w.printf("%s\n", shardLine(sh))
	}
	if s.ExitCode == report.ExitPolicy {
		t.w.printf("%s\n", p.boldRed(fmt.Sprintf("The policy fails: %d finding%s (exit 4).", s.Failures, plural(s.Failures))))
	}
	return t.w.err
}

// advice prints the spec/status advice (each with its id and fix) and the state line.
func (t *textWriter) advice(res *report.Result) {
	for _, a := range res.Advice {
		label := t.p.cyan("advice")
		if a.Severity == "warning" {
			label = t.p.yellow("advice")
		}
		t.w.printf("  %s [%s] %s\n", label, a.ID, indentRest(a.Message, "    "))
		if a.Fix != "" {
			t.w.printf("    fix: %s\n", indentRest(a.Fix, "      "))
		}
	}
	if res.State != nil {
		t.w.printf("  %s\n", t.p.dim(res.State.String()))
	}
}
