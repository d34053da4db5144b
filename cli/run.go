package cli

import (
	"cmp"
	"context"
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/gctune"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/livestate"
	"github.com/ssa-diff/ssa-diff/internal/plan"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/schemafiles"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

func (c *invocation) warnf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "warning: "+format+"\n", args...)
}

func (c *invocation) errorf(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "error: "+format+"\n", args...)
	return report.ExitError
}

// execute predicts every manifest and prints the report; it returns the exit status. When
// ctx ends (SIGINT), it stops and writes nothing more. newPredictor makes the engine of the
// run's schemas, whose Version is the minor predicted (nil: the engine on kube-apiserver's
// model, newEngine).
func (c *invocation) execute(ctx context.Context, newPredictor func(*schema.Registry) predictor) int {
	s := &session{invocation: c, namespace: c.options.namespace, client: c.options.client}
	if newPredictor == nil {
		newPredictor = s.newEngine
	}
	return s.execute(ctx, newPredictor)
}

// newEngine is the engine of the run's schemas on kube-apiserver's model at their minor,
// with the run's admission; the model's helper is stopped when the run ends.
func (c *session) newEngine(reg *schema.Registry) predictor {
	mc := kubeapiserver.Config{Minor: reg.Minor(), ForbidPrivileged: !c.allowPrivileged, ServiceIPFamilies: c.serviceIPFamilies, FeatureGates: c.featureGates}
	c.admissionConfig(&mc)
	model := kubeapiserver.MustNew(mc)
	c.closers = append(c.closers, model.Close)
	return engine{Engine: merge.New(reg, model, merge.WithCompactManagedFields())}
}

// execute is the run: its inputs read (readInputs), paired with the live state (pair),
// each manifest predicted and the report written (predictAndReport).
func (c *session) execute(ctx context.Context, newPredictor func(*schema.Registry) predictor) int {
	if c.getenv != nil {
		if restore := gctune.Reading(c.getenv); restore != nil {
			defer restore()
		}
	}
	defer func() {
		for _, closer := range c.closers {
			_ = closer()
		}
	}()
	in, err := c.readInputs(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return report.ExitError // interrupted: nothing more to say
		}
		return c.errorf("%v", err)
	}
	if c.getenv != nil {
		defer gctune.Tune(c.getenv, in.loader.BytesRead()).Stop()
	}
	if c.helmRollback() {
		if in.manifests, err = c.helmRollbackManifests(in.loader, in.live, in.reg); err != nil {
			return c.errorf("%v", err)
		}
	}
	crdWarnings := c.registerCRDs(in)
	pp, err := c.pair(in)
	if err != nil {
		return c.errorf("%v", err)
	}
	pred := newPredictor(in.reg)
	if c.applier == "helm" {
		if err := c.runHelm(pred, in.reg, pp.m.Pairs, pp.ls.Objects); err != nil {
			return c.errorf("%v", err)
		}
	}
	return c.predictAndReport(ctx, pred, in.reg, c.slots(in, pp, crdWarnings))
}

// inputs are a run's inputs as read: its schemas (at the minor predicted), its manifests
// and its live state, as entries (objects, or what could not be read).
type inputs struct {
	loader          *input.Loader
	reg             *schema.Registry
	manifests, live []input.Entry
	// paths are the -f paths read as manifests.
	paths []string
}

// readInputs reads the run's schemas, manifests and live state; the minor is the cluster's
// when the live state says it (kubeVersionFor).
func (c *session) readInputs(ctx context.Context) (*inputs, error) {
	in := &inputs{loader: &input.Loader{Stdin: c.stdin, Limits: c.limits}, paths: c.manifests}
	loader := in.loader
	if err := c.readAdmissionFiles(); err != nil {
		return nil, err
	}
	v, _ := c.kubeVersionFor("", "")
	reg, err := schema.NewRegistry(v)
	if err != nil {
		return nil, err
	}
	warnings, err := c.schemaFiles.Read(reg, loader, c.schemas, c.crds)
	for _, w := range warnings {
		c.warnf("%s", w)
	}
	if err != nil {
		return nil, err
	}
	// Objects are kept as text, and each is decoded by the prediction that uses it: a
	// run holds a few trees at a time, not all of them.
	loader.DeferDecoding = true
	if c.verbs.named() {
		in.manifests = c.commandManifests(reg)
	} else {
		if c.verbs.v == merge.VerbPatch {
			in.paths = c.rawPatches.Split(loader, c.manifests)
		}
		// A raw request's body is read as the server reads it.
		loader.RequestBodies = c.applier == "api" && c.verbs.cmd == nil
		in.manifests = c.loadManifests(loader, in.paths)
		loader.RequestBodies = false
		var left []error
		if in.manifests, left, err = input.WithoutEmptyFiles(in.manifests); err != nil {
			return nil, err
		}
		for _, err := range left {
			c.warnf("%v: left out", err)
		}
	}
	// Flux builds the objects before it reads the cluster: from a cluster, with the
	// --flux-substitute-from files alone; from a dump, after it (its ConfigMaps and Secrets).
	if c.liveOpts.fromCluster {
		if err := c.buildFlux(in, nil); err != nil {
			return nil, err
		}
	}
	if in.reg, err = c.readLive(ctx, in, reg); err == nil && !c.liveOpts.fromCluster {
		err = c.buildFlux(in, in.live)
	}
	return in, cmp.Or(err, c.featureGates.CheckFor(in.reg), c.runtimeConfig.ApplyTo(in.reg))
}

// readLive reads the live state into in, and returns the registry of the minor predicted:
// reg, or the one of the cluster's minor when the live state says it.
func (c *session) readLive(ctx context.Context, in *inputs, reg *schema.Registry) (*schema.Registry, error) {
	if c.live == "" && !c.liveOpts.fromCluster {
		c.nearestUnknown("", reg.Minor())
		return reg, nil
	}
	// Field lines are asked of manifests only: a dump's text need not be kept; its
	// managedFields are kept as text.
	in.loader.NoFieldLines, in.loader.CompactManagedFields = true, true
	if c.liveOpts.fromCluster {
		var err error
		in.live, reg, err = c.readCluster(ctx, in.loader, in.manifests, reg)
		return reg, err
	}
	in.live = in.loader.Load(c.live)
	server, where := cluster.RecordedServer(in.live)
	if server == "" {
		c.nearestUnknown(c.live, reg.Minor())
		return reg, nil
	}
	v, err := c.kubeVersionFor(server, where)
	if err != nil || v == reg.Minor() {
		return reg, err
	}
	return c.schemaFiles.Registry(v)
}

// registerCRDs adds the CustomResourceDefinitions among the inputs to the registry
// (schemafiles.RegisterInputs), and returns the warnings of those it could not add, by
// object.
func (c *session) registerCRDs(in *inputs) map[*input.Object]string {
	byObject, warnings := schemafiles.RegisterInputs(in.reg, in.live, in.manifests)
	for _, w := range warnings {
		c.warnf("%s", w)
	}
	return byObject
}

// pairing is the manifests paired with the live state.
type pairing struct {
	ls       *livestate.State
	m        input.Matching
	liveErrs []error
}

// pair pairs the manifests with the live objects, once the live state has said where
// objects that name no namespace go; it also sets the run's judge.
func (c *session) pair(in *inputs) (*pairing, error) {
	liveObjs, liveErrs := input.Split(in.live)
	ls, err := livestate.Read(liveObjs, c.live != "" || c.liveOpts.fromCluster)
	if err != nil {
		liveErrs = append(liveErrs, err)
	}
	in.manifests = append(in.manifests, c.rawPatches.Stubs(ls.Objects)...)
	manifestObjs, _ := input.Split(in.manifests)
	if err := c.checkSwapped(in.paths, manifestObjs, ls); err != nil {
		return nil, err
	}
	if ls.Record != nil && !c.liveOpts.namespaceSet {
		// Objects that name no namespace go where the cluster read put them.
		c.namespace = ls.Record.Namespace
		s := c.applierSettings
		s.Namespace = c.namespace
		c.client, _ = c.newApplier(s) // the settings were checked when parsed
	}
	c.judge = ls.Judgement(in.reg, c.clusterState)
	m := input.Match(manifestObjs, ls.Objects, ls.Scope(in.reg), c.namespace,
		plan.Pairing{Applier: c.client, Subresource: c.subresource, Verb: c.verbs.v, Command: c.verbs.cmd, LiveErrors: len(liveErrs)}.MatchOptions()...)
	for _, w := range m.Warnings {
		c.warnf("%s", w)
	}
	return &pairing{ls: ls, m: m, liveErrs: liveErrs}, nil
}

// slots are the run's results to print, in order (plan.Slots): the manifests (or what
// could not be read of them), the live objects pruned, the live objects that could not be
// read; less those skipped (--skip) and those of other shards (--shard).
func (c *session) slots(in *inputs, pp *pairing, crdWarnings map[*input.Object]string) []*plan.Slot {
	pruned := c.pruned(pp.m.Pairs, pp.ls.Objects, in.reg)
	c.pruneWarnings()
	slots := plan.Slots(in.manifests, pp.m.Pairs, crdWarnings, pruned, append(pp.liveErrs, pp.m.Errors...))
	if word := pp.ls.Judge(pp.m.Pairs, in.reg, c.liveOpts.namespaceSet, c.liveOpts.allowNoManagedFields); word != "" {
		c.warnf("%s", word)
	}
	slots, c.sharding = plan.Shard(plan.Skip(slots, c.noise.rules), c.shard)
	return slots
}

// run is what the run's predictions share (predict.Run), once its schemas and live state
// are known.
func (c *session) run(eng predictor, reg *schema.Registry) *predict.Run {
	r := &predict.Run{Predictor: eng, Applier: c.client, Schemas: reg, Judge: c.judge, Subresource: c.subresource,
		Force: c.force, ForcedAlso: c.wantsWithForce(), Now: c.now, NoDrift: c.verbs.named() || c.verbs.v == merge.VerbPatch, RespectIgnore: c.gitops.respect}
	if !c.advice.off {
		r.Advice = c.adviceOptions(reg)
	}
	return r
}
