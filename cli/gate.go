package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file holds what the command does as the pre-merge gate of a GitOps repository: the
// appliers' options (package appliers lists them), the policy that decides the exit status,
// the one-screen summary and the progress line.

// gateOptions are the command line's applier and policy settings.
type gateOptions struct {
	// applierFlags read the flags of the appliers' options (appliers.Kind.Options), by name.
	applierFlags map[string]func() []string

	failOn  []string
	allow   []string
	protect []string
	policy  report.Policy
	summary bool

	// progress forces the progress line on (tests); by default it shows when stderr is a
	// terminal. progressDelay is how long a run goes before the line shows (0: a second).
	progress      bool
	progressDelay time.Duration
}

// gateArgNames are the argument names of the gate's flags in the usage (the appliers'
// options name theirs: Option.Arg).
var gateArgNames = map[string]string{"fail-on": "LIST", "allow-takeover-from": "GLOB", "protect": "GLOB"}

// addApplierFlags defines the flags of the appliers' options, in the list's order: with
// charts false, those of the appliers that apply manifests; with charts true, those of the
// appliers that render a chart (Kind.RendersChart: Helm's, whose options are a whole
// command's), which the usage lists after the command's own.
func (c *options) addApplierFlags(fs *pflag.FlagSet, argNames map[string]string, charts bool) {
	g := &c.gate
	if g.applierFlags == nil {
		g.applierFlags = map[string]func() []string{}
	}
	for _, k := range appliers.Kinds() {
		if k.RendersChart != charts {
			continue
		}
		for _, o := range k.Options {
			argNames[o.Name] = o.Arg
			switch {
			case o.Arg == "":
				on := fs.Bool(o.Name, false, o.Usage)
				g.applierFlags[o.Name] = func() []string { return []string{strconv.FormatBool(*on)} }
			case o.Repeatable:
				values := fs.StringArray(o.Name, nil, o.Usage)
				g.applierFlags[o.Name] = func() []string { return *values }
			default:
				value := fs.String(o.Name, o.Default, o.Usage)
				if o.Alone != "" {
					fs.Lookup(o.Name).NoOptDefVal = o.Alone
				}
				g.applierFlags[o.Name] = func() []string { return []string{*value} }
			}
		}
	}
}

// addGateFlags defines the gate's flags.
func (c *options) addGateFlags(fs *pflag.FlagSet, argNames map[string]string) {
	g := &c.gate
	c.addApplierFlags(fs, argNames, false)
	fs.StringArrayVar(&g.failOn, "fail-on", []string{report.CategoryRejected}, "What fails the run (exit 3 for rejected, 4 for the others): a comma-separated list of conflicts, takeover, deletion, rejected, prune (objects --prune deletes), approximate (predictions resting on what ssa-diff cannot see: no schema, OpenAPI v2, version conversions, admission webhooks) and policy (a ValidatingAdmissionPolicy or PodSecurity of the cluster state denies the write, or warns), or none or all (repeatable). Default: rejected.")
	fs.StringArrayVar(&g.allow, "allow-takeover-from", nil, "A manager (glob) whose fields the applier may take: takeovers from it and forced conflicts with it never fail (repeatable), e.g. kubectl-client-side-apply.")
	fs.StringArrayVar(&g.protect, "protect", nil, "A manager (glob) whose fields nobody may take, such as a controller: any takeover from it fails with exit 4 (repeatable), e.g. kube-controller-manager.")
	fs.BoolVar(&g.summary, "summary", false, "Print a one-screen overview: instead of the objects with -o text, on stderr with the other formats.")
}

// checkGate validates the gate's flags once parsed: each applier's options belong to it,
// and their values are ones it takes.
func (c *options) checkGate(fs *pflag.FlagSet) error {
	g := &c.gate
	for _, k := range appliers.Kinds() {
		for _, o := range k.Options {
			if fs.Changed(o.Name) && c.applierKind.Name != k.Name && !k.RendersChart { // checkHelm's
				return fmt.Errorf("--%s needs --applier %s", o.Name, k.Name)
			}
		}
	}
	s := &c.applierSettings
	s.Manager, s.ManagerGiven, s.Namespace = c.fieldManager, fs.Changed("field-manager"), c.namespace
	s.Options = map[string][]string{}
	for _, k := range appliers.Kinds() {
		for _, o := range k.Options {
			values := g.applierFlags[o.Name]()
			for _, v := range values {
				if err := o.CheckOption(v); err != nil {
					return err
				}
			}
			if k.Name == c.applierKind.Name {
				s.Options[o.Name] = values
			}
		}
	}
	s.Verb, s.PatchType = c.verbs.v, c.verbs.pt
	// Built without --prune, which checkPrune adds: what it can apply to.
	if a, err := c.newApplier(*s); err == nil && !a.Subresources() && c.subresource != "" {
		return fmt.Errorf("--subresource: %s applies the main resource only", a.Name())
	}
	failOn, err := report.ParseFailOn(g.failOn)
	if err != nil {
		return err
	}
	if err := report.CheckGlobs(g.allow); err != nil {
		return fmt.Errorf("--allow-takeover-from: %w", err)
	}
	if err := report.CheckGlobs(g.protect); err != nil {
		return fmt.Errorf("--protect: %w", err)
	}
	g.policy = report.Policy{FailOn: failOn, AllowTakeoverFrom: g.allow, Protect: g.protect}
	return nil
}

// newApplier is the applier the flags choose with settings s: a --kubectl command's, else
// --applier's (appliers.Kind.New).
func (c *options) newApplier(s appliers.Settings) (appliers.Applier, error) {
	if c.verbs.cmd != nil {
		return c.verbs.cmd, nil
	}
	return c.applierKind.New(s)
}

// wantsWithForce reports whether a refusal with conflicts is also predicted with force:
// the GitOps appliers always force, and only some formats show it.
func (c *options) wantsWithForce() bool {
	if c.client.AlwaysForces() {
		return false
	}
	return output.ShowsWithForce(c.output) && !(c.gate.summary && c.output == "text") || c.report.html != "" || c.formatFilesShowWithForce()
}

// gitOpsWarnings are notes about flags the GitOps appliers ignore.
func (c *invocation) gitOpsWarnings(stderr io.Writer) {
	if c.force && c.client.AlwaysForces() {
		fmt.Fprintf(stderr, "warning: --force-conflicts: %s always applies with force\n", c.client.Name())
	}
}

// predictAndReport predicts every slot in parallel and prints the results in input order as
// they come; it returns the exit status. Results are let go once written: the formats that
// print everything at the end keep what they need (json and yaml their encoded bytes).
// When ctx ends it stops: no more predictions start, and --output-file is left as it was.
func (c *invocation) predictAndReport(ctx context.Context, eng predictor, reg *schema.Registry, slots []*slot) int {
	c.gitOpsWarnings(c.stderr)
	policy := c.gate.policy
	rep := report.New(report.Options{FieldManager: c.client.Manager(), Force: c.force, Applier: c.client.Name(), Subresource: c.subresource, KubernetesVersion: reg.Minor().String(), Now: c.now, Policy: &policy})
	c.sharding.start(rep)
	return c.writeReport(ctx, rep, slots, func() { c.predictAll(ctx, eng, reg, slots) })
}

// writeReport prints the slots' results in order as they are done, while predict (nil when
// they are all done: merge) runs; it returns the exit status.
func (c *invocation) writeReport(ctx context.Context, rep *report.Report, slots []*slot, predict func()) int {
	opts := output.Options{Color: c.color, ShowManagedFields: c.showManagedFields, ShowSecrets: c.showSecrets, Now: c.now, Stderr: c.stderr, ReportURL: c.reportLink(), Client: rep.Options.Applier}
	c.noise.outputOptions(&opts)
	if opts.Ignore == nil && rep.Options.Policy != nil {
		opts.Ignore = rep.Options.Policy.Ignore // ssa-diff merge: the shards' rules
	}
	dst, err := c.openOutput()
	if err != nil {
		return c.errorf("%v", err)
	}
	defer dst.abort()
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
	w, page, err := c.withHTMLReport(w, opts)
	if err != nil {
		return c.errorf("%v", err)
	}
	defer page.abort()
	w, files, err := c.withFormatFiles(w, opts)
	if err != nil {
		return c.errorf("%v", err)
	}
	defer files.abort()

	// The progress line shows on a terminal, unless the results themselves scroll by on it.
	streams := output.Streams(c.output) && !(c.gate.summary && c.output == "text")
	if c.gate.progress || (isTerminal(c.stderr) && !(streams && dst.terminal())) {
		p := startProgress(c.stderr, len(slots), c.predicted.Load, c.gate.progressDelay)
		defer p.stop()
	}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if predict != nil {
			predict()
		}
	}()

	var tally report.Tally
	var werr error
	for k, s := range slots {
		select {
		case <-s.done:
		case <-ctx.Done():
			<-stopped // the workers have finished what they had started
			return report.ExitError
		}
		tally.Add(s.res)
		c.sharding.keep(rep, k, s.res)
		if werr == nil {
			werr = w.Write(s.res)
		}
		// Let the result and its inputs go: of a long run, only what the format keeps stays.
		if s.pair != nil {
			s.pair.Manifest, s.pair.Live = nil, nil
		}
		s.res, s.pair = nil, nil
	}
	rep.Summary = tally.Summary()
	if werr == nil {
		werr = w.Close(rep)
	}
	if ctx.Err() != nil {
		return report.ExitError
	}
	if werr == nil {
		werr = page.commit()
	}
	if werr == nil {
		werr = files.commit()
	}
	if werr == nil {
		werr = dst.commit()
	}
	if werr != nil {
		return c.errorf("writing the report: %v", werr)
	}
	return rep.Summary.ExitCode
}

// evaluatePolicy evaluates the policy on a slot's result.
func (c *invocation) evaluatePolicy(s *slot) {
	var locate func(string) (string, int)
	if s.pair != nil && s.pair.Manifest != nil {
		m, body := s.pair.Manifest, s.body
		locate = func(path string) (string, int) {
			if body == nil {
				return m.Source.File, fieldLine(m, path)
			}
			return m.LocateFieldPath(body, path)
		}
	}
	s.res.Findings = c.gate.policy.EvaluateAt(s.res, c.client.Manager(), locate)
	s.body = nil
	c.predicted.Add(1)
}

// progress keeps a line on a terminal's error stream up to date with how many objects are
// predicted, once a run has gone on for a while; stop erases it.
type progress struct {
	quit, done chan struct{}
}

func startProgress(w io.Writer, total int, count func() int64, delay time.Duration) *progress {
	if delay <= 0 {
		delay = time.Second
	}
	p := &progress{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		shown := false
		timer := time.NewTimer(delay)
		defer timer.Stop()
		select {
		case <-p.quit:
			return
		case <-timer.C:
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			n := count()
			pct := 100
			if total > 0 {
				pct = int(n * 100 / int64(total))
			}
			fmt.Fprintf(w, "\rssa-diff: %d of %d objects predicted (%d%%)\x1b[K", n, total, pct)
			shown = true
			select {
			case <-p.quit:
				if shown {
					io.WriteString(w, "\r\x1b[K")
				}
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

func (p *progress) stop() {
	close(p.quit)
	<-p.done
}
