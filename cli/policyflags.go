package cli

import (
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/flagvalue"
	"time"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge/gate"
)

// This file holds the flags of the command as the pre-merge gate of a GitOps repository:
// the appliers' options (package appliers lists them), the policy that decides the exit
// status, the one-screen summary.

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
var gateArgNames = [][2]string{{"fail-on", "LIST"}, {"allow-takeover-from", "GLOB"}, {"protect", "GLOB"}}

// addApplierFlags defines the flags of the appliers' options (flagvalue.ApplierOptions): with
// charts false, those of the appliers that apply manifests; with charts true, those of the
// appliers that render a chart (Helm's, whose options are a whole command's), which the
// usage lists after the command's own.
func (c *options) addApplierFlags(fs *pflag.FlagSet, charts bool) {
	if c.gate.applierFlags == nil {
		c.gate.applierFlags = map[string]func() []string{}
	}
	flagvalue.ApplierOptions(fs, c.gate.applierFlags, func(k appliers.Kind) bool { return k.RendersChart == charts })
}

// addGateFlags defines the gate's flags.
func (c *options) addGateFlags(fs *pflag.FlagSet) {
	g := &c.gate
	c.addApplierFlags(fs, false)
	stringArrayVarP(fs, &g.failOn, "fail-on", "", []string{report.CategoryRejected}, "What fails the run (exit 3 for rejected, 4 for the others): a comma-separated list of conflicts, takeover, deletion, rejected, prune (objects --prune deletes), approximate (predictions resting on what ssa-diff cannot see: no schema, OpenAPI v2, version conversions, admission webhooks) and policy (a ValidatingAdmissionPolicy or PodSecurity of the cluster state denies the write, or warns), or none or all (repeatable). Default: rejected.")
	stringArrayVarP(fs, &g.allow, "allow-takeover-from", "", nil, "A manager (glob) whose fields the applier may take: takeovers from it and forced conflicts with it never fail (repeatable), e.g. kubectl-client-side-apply.")
	stringArrayVarP(fs, &g.protect, "protect", "", nil, "A manager (glob) whose fields nobody may take, such as a controller: any takeover from it fails with exit 4 (repeatable), e.g. kube-controller-manager.")
	fs.BoolVar(&g.summary, "summary", false, "Print a one-screen overview: instead of the objects with -o text, on stderr with the other formats.")
}

// checkGate validates the gate's flags once parsed: each applier's options belong to it,
// and their values are ones it takes.
func (c *options) checkGate(fs *pflag.FlagSet) error {
	g := &c.gate
	s := &c.applierSettings
	s.Manager, s.ManagerGiven, s.Namespace = c.fieldManager, fs.Changed("field-manager"), c.namespace
	var err error
	if s.Options, err = c.applierKind.OptionValues(fs.Changed, func(name string) []string { return g.applierFlags[name]() }); err != nil {
		return err
	}
	s.Verb, s.PatchType = c.verbs.v, c.verbs.pt
	// Built without --prune, which checkPrune adds: what it can apply to.
	if a, err := c.newApplier(*s); err == nil && !a.Subresources() && c.subresource != "" {
		return fmt.Errorf("--subresource: %s applies the main resource only", a.Name())
	}
	failOn, err := gate.ParseFailOn(g.failOn)
	if err != nil {
		return err
	}
	if err := gate.CheckGlobs(g.allow); err != nil {
		return fmt.Errorf("--allow-takeover-from: %w", err)
	}
	if err := gate.CheckGlobs(g.protect); err != nil {
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
