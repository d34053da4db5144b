package output

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

// summaryListed is how many failing objects and managers the summary lists.
const summaryListed = 8

// summaryWriter prints a one-screen overview of a run (--summary): the counts, the
// managers that lose fields, the objects that fail, and the verdict.
type summaryWriter struct {
	w       *errWriter
	p       palette
	failing []string
	more    int
	takers  map[string]*takeCount
	order   []string
	// objects with findings of each category, and the fields concerned
	objects map[string]int
}

// NewSummary returns the writer of the one-screen overview.
func NewSummary(w io.Writer, opts Options) Writer {
	return &summaryWriter{w: &errWriter{w: w}, p: palette{opts.Color}, takers: map[string]*takeCount{}, objects: map[string]int{}}
}

func (s *summaryWriter) Write(res *report.Result) error {
	seen := map[string]bool{}
	var fail *report.Finding
	for i, f := range res.Findings {
		if !seen[f.Category] {
			seen[f.Category] = true
			s.objects[f.Category]++
		}
		if f.Fails() && fail == nil {
			fail = &res.Findings[i]
		}
	}
	s.order = countTakers(s.takers, s.order, res)
	if fail != nil {
		if len(s.failing) == summaryListed {
			s.more++
			return nil
		}
		where := res.Source.FileName()
		if fail.File != "" {
			where = fail.File
		}
		if fail.Line > 0 {
			where += fmt.Sprintf(":%d", fail.Line)
		}
		msg := firstLine(fail.Message)
		if r := []rune(msg); len(r) > 110 {
			msg = string(r[:109]) + "…"
		}
		s.failing = append(s.failing, fmt.Sprintf("  %s %s  %s\n      %s: %s", s.p.red("✗"), s.p.bold(shortTitle(res)), s.p.dim(where), fail.Category, msg))
	}
	return nil
}

func (s *summaryWriter) Close(rep *report.Report) error {
	sum := rep.Summary
	p := s.p
	o := rep.Options
	s.w.printf("%s %d object%s, applied by %s as %s", p.bold("ssa-diff:"), sum.Objects, plural(sum.Objects), o.Applier, o.FieldManager)
	if pol := o.Policy; pol != nil {
		failOn := "nothing"
		if len(pol.FailOn) > 0 {
			failOn = strings.Join(pol.FailOn, ",")
		}
		s.w.printf("; fails on %s", failOn)
	}
	s.w.write("\n")
	if sh := rep.Shard; sh != nil {
		s.w.printf("  %s\n", shardLine(sh))
	}
	prune := ""
	if sum.Pruned > 0 {
		prune = fmt.Sprintf(", %s to prune", p.red(fmt.Sprint(sum.Pruned)))
	}
	s.w.printf("  %s to create, %s to update, %d unchanged, %s rejected, %s not predicted%s\n",
		p.green(fmt.Sprint(sum.Created)), p.yellow(fmt.Sprint(sum.Updated)), sum.Unchanged, redIf(p, sum.Rejected), redIf(p, sum.Errors), prune)
	s.w.printf("  %d conflicting field%s in %d object%s; %d field%s taken over in %d; %d deleted in %d\n",
		sum.Conflicts, plural(sum.Conflicts), s.objects[report.CategoryConflict], plural(s.objects[report.CategoryConflict]),
		sum.Takeovers, plural(sum.Takeovers), s.objects[report.CategoryTakeover]+s.objects[report.CategoryProtected],
		sum.Deletions, s.objects[report.CategoryDeletion])
	if sum.Approximate > 0 {
		s.w.printf("  %d object%s predicted on approximations (%s)\n", sum.Approximate, plural(sum.Approximate), "no schema, OpenAPI v2, version conversions or admission webhooks: --fail-on approximate fails on them")
	}
	if len(s.order) > 0 {
		names := append([]string(nil), s.order...)
		sort.SliceStable(names, func(i, j int) bool { return s.takers[names[i]].fields > s.takers[names[j]].fields })
		s.w.printf("%s\n", p.bold("Taken over, by manager:"))
		if len(names) > summaryListed {
			names = names[:summaryListed]
		}
		width := 0
		for _, n := range names {
			if len(n) > width {
				width = len(n)
			}
		}
		for _, n := range names {
			t := s.takers[n]
			s.w.printf("  %-*s %6d field%s in %d object%s\n", width, n, t.fields, plural(t.fields), t.objects, plural(t.objects))
		}
		if len(s.order) > summaryListed {
			s.w.printf("  … and %d more\n", len(s.order)-summaryListed)
		}
	}
	if len(s.failing) > 0 {
		s.w.printf("%s\n", p.bold(fmt.Sprintf("Failing (%d):", len(s.failing)+s.more)))
		for _, f := range s.failing {
			s.w.write(f + "\n")
		}
		if s.more > 0 {
			s.w.printf("  … and %d more\n", s.more)
		}
	}
	v := verdict(sum)
	if sum.ExitCode >= report.ExitError {
		v = p.boldRed(v)
	} else {
		v = p.green(v)
	}
	s.w.printf("%s %s.\n", p.bold("Result:"), v)
	return s.w.err
}

func redIf(p palette, n int) string {
	if n > 0 {
		return p.boldRed(fmt.Sprint(n))
	}
	return fmt.Sprint(n)
}

// countTakers adds the managers that take fields in res to takers (in order, the names in
// the order first seen), with how many fields and objects each takes; it returns order.
func countTakers(takers map[string]*takeCount, order []string, res *report.Result) []string {
	for _, o := range res.Ownership {
		if len(o.Taken) == 0 {
			continue
		}
		name := describeManager(o.Manager)
		t := takers[name]
		if t == nil {
			t = &takeCount{}
			takers[name] = t
			order = append(order, name)
		}
		t.fields += len(o.Taken)
		t.objects++
	}
	return order
}

// shardLine says which shard of the run a shard's report is (--shard).
func shardLine(sh *report.Shard) string {
	return fmt.Sprintf("Shard %d of %d: %d of the run's %d results (ssa-diff merge folds the shards' -o json reports).", sh.Index, sh.Count, len(sh.Results), sh.Total)
}
