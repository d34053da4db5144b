package cli

import (
	"context"
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/flagvalue"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ssa-diff/ssa-diff/internal/plan"
	"github.com/ssa-diff/ssa-diff/internal/report"
)

// mergeOptions are the reports `ssa-diff merge` folds.
type mergeOptions struct {
	reports []string
}

// mergeFlags are the flags merge takes: how the merged report is printed. The rest of the
// run's options come with the reports.
var mergeFlags = map[string]bool{"output": true, "output-file": true, "color": true, "show-managed-fields": true,
	"show-secrets": true, "show-unchanged": true, "summary": true, "report-html": true, "report-url": true, "help": true}

// checkMerge takes the reports to merge and refuses the flags of a prediction.
func (o *options) checkMerge(fs *pflag.FlagSet, reports []string) error {
	var bad []string
	fs.Visit(func(f *pflag.Flag) {
		if !mergeFlags[f.Name] {
			bad = append(bad, "--"+f.Name)
		}
	})
	if len(bad) > 0 {
		return fmt.Errorf("%s: the shards' reports carry the run's options; merge takes only how to print (-o, --output-file, --color, --show-managed-fields, --show-secrets, --show-unchanged, --summary, --report-html, --report-url)", strings.Join(bad, ", "))
	}
	if len(reports) == 0 {
		return fmt.Errorf("no reports given (want the -o json report of every shard)")
	}
	o.merge.reports = reports
	return nil
}

// runMerge is `ssa-diff merge [FLAGS] REPORT.json…`: the shards' reports folded into the
// whole run's, printed in any format as the unsharded run prints it, with its exit status.
func runMerge(ctx context.Context, prog string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, code := parseFlagsFor(prog+" merge", args, stdout, stderr, true)
	if cfg == nil {
		return code
	}
	c := &session{invocation: newInvocation(cfg, stdin, stdout, stderr, nil)}
	merged, err := report.MergeFiles(cfg.merge.reports, stdin)
	if err != nil {
		return c.errorf("merge: %v", err)
	}
	slots := make([]*plan.Slot, len(merged.Results))
	for i, res := range merged.Results {
		slots[i] = &plan.Slot{Result: res}
	}
	rep := report.New(merged.Options)
	rep.APIVersion = merged.APIVersion
	return c.writeReport(ctx, rep, len(slots), slices.Values(slots))
}

// mergeUsage is merge's --help: what it does and the flags it takes.
func mergeUsage(w io.Writer, prog string, fs *pflag.FlagSet, argNames map[string]string) {
	fmt.Fprintf(w, `%s folds the -o json reports of every shard of one run (ssa-diff --shard I/N,
in any order) into the whole run's report, and prints it as the unsharded run prints it, in
any format, with its exit status. It refuses reports of other runs, options, minors, --now
or shard counts, and a missing or repeated shard (exit 2).

Usage:
  %s [flags] SHARD.json...   ("-": standard input)

Flags:
`, prog, prog)
	only := pflag.NewFlagSet(prog, pflag.ContinueOnError)
	fs.VisitAll(func(f *pflag.Flag) {
		if mergeFlags[f.Name] {
			only.AddFlag(f)
		}
	})
	io.WriteString(w, flagvalue.Usages(only, argNames))
}
