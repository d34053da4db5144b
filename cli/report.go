package cli

import (
	"context"
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/emit"
	"io"
	"iter"

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

// writeReport writes the report as done yields the slots (package emit); it returns the
// exit status.
func (c *session) writeReport(ctx context.Context, rep *report.Report, total int, done iter.Seq[*plan.Slot]) int {
	w := emit.Writer{Format: c.output, File: c.outputFile, Stdout: c.stdout, Stderr: c.stderr, Options: c.outputOptions(rep), Summary: c.gate.summary,
		Pages: c.htmlPages(), Files: c.formatFiles, Progress: c.gate.progress, ProgressDelay: c.gate.progressDelay, Count: c.predicted.Load, Sharding: c.sharding}
	code, err := w.Write(ctx, rep, total, done)
	if err != nil {
		return c.errorf("%v", err)
	}
	return code
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
