package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/gather"
	"github.com/ssa-diff/ssa-diff/internal/helmrun"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"

	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/gctune"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

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
// with the run's admission (gather.Inputs.Engine); the model's helper is stopped when the
// run ends.
func (c *session) newEngine(reg *schema.Registry) predictor {
	a := c.admission
	e, model := c.in.Engine(reg, kubeapiserver.Config{ForbidPrivileged: !c.allowPrivileged, ServiceIPFamilies: c.serviceIPFamilies, FeatureGates: c.featureGates},
		gather.Admission{User: clusterstate.User{Name: a.user, UID: a.uid, Groups: a.groups}, Authorization: a.rules, Library: c.admissionLibrary, Getenv: c.getenv})
	c.closers = append(c.closers, model.Close)
	return e
}

// execute is the run: its inputs read and paired with the live state (package gather),
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
	in, err := gather.Read(ctx, c.gatherOptions())
	if err != nil {
		if ctx.Err() != nil {
			return report.ExitError // interrupted: nothing more to say
		}
		return c.errorf("%v", err)
	}
	c.in = in
	if c.getenv != nil {
		defer gctune.Tune(c.getenv, in.Loader.BytesRead()).Stop()
	}
	if c.helmRollback() { // the manifests are those of the revision it goes back to
		var msgs []helmrun.Message
		in.Manifests, msgs, err = c.helmRelease().RollbackManifests(in.Loader, in.Live, in.Registry)
		if helmrun.Say(c.stderr, msgs); err != nil {
			return c.errorf("%v", err)
		}
	}
	if err := in.Pair(); err != nil {
		return c.errorf("%v", err)
	}
	c.namespace, c.client, c.judge = in.Namespace, in.Applier, in.Judge
	pred := newPredictor(in.Registry)
	if c.applier == "helm" {
		if err := c.runHelm(pred, in.Registry, in.Matching.Pairs, in.State.Objects); err != nil {
			return c.errorf("%v", err)
		}
	}
	slots, sharding := in.Slots(c.client)
	c.sharding = sharding
	return c.predictAndReport(ctx, pred, in.Registry, slots)
}

// gatherOptions are what the run reads (package gather), as the flags say.
func (c *session) gatherOptions() gather.Options {
	o := gather.Options{Stdin: c.stdin, Stderr: c.stderr, Limits: c.limits, Manifests: c.manifests, Kustomize: c.render.kustomize,
		SourceRoot: c.render.sourceRoot, Live: c.live, Namespace: c.options.namespace, NamespaceSet: c.liveOpts.namespaceSet,
		Schemas: c.schemas, CRDs: c.crds, Minor: c.kube.choice, AdmissionFrom: c.admission.from, NoAdmission: c.admission.none,
		ApplierName: c.applier, Applier: c.options.client, Subresource: c.subresource, Verb: c.verbs.v, Command: c.verbs.cmd,
		Flux: c.gitops.flux, FluxFile: c.gitops.fluxFile, SubstituteFrom: c.gitops.substituteFrom, Noise: c.noise.rules,
		FeatureGates: c.featureGates, RuntimeConfig: c.runtimeConfig, AllowNoManagedFields: c.liveOpts.allowNoManagedFields, Prune: c.prune.on,
		PruneVisits: c.prune.explicit, Shard: c.shard}
	o.NewApplier = func(ns string) (appliers.Applier, error) {
		s := c.applierSettings
		s.Namespace = ns
		return c.newApplier(s)
	}
	if l := c.liveOpts; l.fromCluster {
		o.Cluster = &gather.Cluster{Kubeconfig: l.kubeconfig, Context: l.context, RequestTimeout: l.requestTimeout, SaveLive: l.saveLive}
		if c.applier == "helm" {
			o.Cluster.More = func(ctx context.Context, client *cluster.Client) ([]json.RawMessage, []cluster.Ref, error) {
				return c.helmRelease().ClusterRecords(ctx, client, l.namespaceSet)
			}
		}
	}
	return o
}

// run is what the run's predictions share (predict.Run), once its schemas and live state
// are known.
func (c *session) run(eng predictor, reg *schema.Registry) *predict.Run {
	r := &predict.Run{Predictor: eng, Applier: c.client, Schemas: reg, Judge: c.judge, Subresource: c.subresource,
		Force: c.force, ForcedAlso: c.wantsWithForce(), Now: c.now, NoDrift: c.in.NoDrift(), RespectIgnore: c.gitops.respect, SyncStatus: c.gitops.syncStatus, Ignore: c.gate.policy.Ignore}
	if !c.advice.off {
		r.Advice = c.adviceOptions(reg)
	}
	return r
}
