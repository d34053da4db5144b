package cli

import (
	"context"
	"fmt"
	"io"
	"iter"

	"github.com/ssa-diff/ssa-diff/internal/outfiles"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/plan"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file writes the report: each result, in order, as the run predicts it, judged by
// the policy.

// gitOpsWarnings are notes about flags the GitOps appliers ignore.
func (c *session) gitOpsWarnings(stderr io.Writer) {
	if c.force && c.client.AlwaysForces() {
		fmt.Fprintf(stderr, "warning: --force-conflicts: %s always applies with force\n", c.client.Name())
	}
}

// predictAndReport predicts every slot in parallel and prints the results in input order as
// they come; it returns the exit status. Results are let go once written: the formats that
// print everything at the end keep what they need (yaml its encoded bytes; json streams).
// When ctx ends it stops: no more predictions start, and --output-file is left as it was.
func (c *session) predictAndReport(ctx context.Context, eng predictor, reg *schema.Registry, slots []*plan.Slot) int {
	c.gitOpsWarnings(c.stderr)
	policy := c.gate.policy
	rep := report.New(report.Options{FieldManager: c.client.Manager(), Force: c.force, Applier: c.client.Name(), Subresource: c.subresource, KubernetesVersion: reg.Minor().String(), Now: c.now, Policy: &policy})
	c.sharding.Start(rep)
	run := c.run(eng, reg)
	verdict := report.Verdict{Manager: c.client.Manager(), Applies: c.applies(), Policy: policy}
	sched := predict.Schedule{Jobs: c.jobs, Done: func(i int, o *predict.Outcome) {
		plan.Settle(slots, i, o, verdict)
		c.predicted.Add(1)
	}}
	done := func(yield func(*plan.Slot) bool) {
		for i := range run.PredictAll(ctx, plan.Steps(slots, c.rawPatch), sched) {
			if !yield(slots[i]) {
				return
			}
		}
	}
	return c.writeReport(ctx, rep, len(slots), done)
}

// writeReport prints the slots' results in order as done yields them, each once it is
// done; it returns the exit status, ExitError when done stops short (the run was stopped).
func (c *session) writeReport(ctx context.Context, rep *report.Report, total int, done iter.Seq[*plan.Slot]) int {
	opts := c.outputOptions(rep)
	dst, err := outfiles.Open(c.outputFile, "--output-file", c.stdout)
	if err != nil {
		return c.errorf("%v", err)
	}
	defer dst.Abort()
	w, err := output.New(c.output, dst, opts)
	if err != nil {
		return c.errorf("%v", err)
	}
	if c.gate.summary {
		if c.output == "text" {
			w = output.NewSummary(dst, opts)
		} else {
			sopts := opts
			sopts.Color = c.color && isTerminal(c.stderr)
			w = output.Multi(w, output.NewSummary(c.stderr, sopts))
		}
	}
	w, page, err := outfiles.Tee(w, opts, c.htmlPages())
	if err != nil {
		return c.errorf("%v", err)
	}
	defer page.Abort()
	w, files, err := outfiles.Tee(w, opts, c.formatFiles)
	if err != nil {
		return c.errorf("%v", err)
	}
	defer files.Abort()

	// The progress line shows on a terminal, unless the results themselves scroll by on it.
	streams := output.Streams(c.output) && !(c.gate.summary && c.output == "text")
	if c.gate.progress || (isTerminal(c.stderr) && !(streams && !dst.IsFile() && isTerminal(c.stdout))) {
		p := startProgress(c.stderr, total, c.predicted.Load, c.gate.progressDelay)
		defer p.stop()
	}
	output.Start(w, rep) // the report's head is final: json prints each result as it comes
	tally, k := report.Tally{}, 0
	var werr error
	for s := range done {
		tally.Add(s.Result)
		c.sharding.Keep(rep, k, s.Result)
		k++
		if werr == nil {
			werr = w.Write(s.Result)
		}
		s.Release()
	}
	if k < total {
		return report.ExitError // stopped: the workers have finished what they had started
	}
	rep.Summary = tally.Summary()
	if werr == nil {
		werr = w.Close(rep)
	}
	if ctx.Err() != nil {
		return report.ExitError
	}
	if werr == nil {
		werr = page.Commit()
	}
	if werr == nil {
		werr = files.Commit()
	}
	if werr == nil {
		werr = dst.Commit()
	}
	if werr != nil {
		return c.errorf("writing the report: %v", werr)
	}
	return rep.Summary.ExitCode
}

// outputOptions are the options of the report's outputs.
func (c *session) outputOptions(rep *report.Report) output.Options {
	opts := output.Options{Color: c.color, ShowManagedFields: c.showManagedFields, ShowSecrets: c.showSecrets, Now: rep.Options.Now, Stderr: c.stderr, ReportURL: c.reportLink(), Client: rep.Options.Applier}
	c.noise.outputOptions(&opts)
	if opts.Ignore == nil && rep.Options.Policy != nil {
		opts.Ignore = rep.Options.Policy.Ignore // ssa-diff merge: the shards' rules
	}
	return opts
}
