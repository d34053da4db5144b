package predict

import (
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/merge"
)

// syncStatus is what the applier's GitOps controller shows of p's object before its sync:
// for Argo CD its comparison of target (the manifest in Git) with the live object, its
// dry-run predicted by the engine; for Flux the action of its change set. nil for another
// applier, or when the engine cannot say.
func (r *Run) syncStatus(a Apply, target map[string]any, p *Prediction) *judge.SyncStatus {
	switch ap := r.Applier.(type) {
	case appliers.ArgoCDSync:
		return r.argoCDStatus(ap, a, target, p.Live)
	case appliers.FluxApply:
		out := p.Result
		if out == nil || out.Rejection != nil {
			return nil
		}
		status := judge.FluxConfigured
		switch {
		case out.Action == merge.ActionUnchanged:
			status = judge.FluxUnchanged
		case p.Live == nil:
			status = judge.FluxCreated
		}
		return &judge.SyncStatus{Tool: judge.ToolFlux, Status: status}
	}
	return nil
}

// argoCDStatus is Argo CD's comparison of target with live (judge.ArgoCDCompare), its
// dry-run apply answered by the engine.
func (r *Run) argoCDStatus(ap appliers.ArgoCDSync, a Apply, target, live map[string]any) *judge.SyncStatus {
	e, ok := r.Predictor.(Engine)
	if !ok || e.Engine == nil {
		return nil
	}
	cfg, err := ap.Target(target)
	if err != nil {
		return &judge.SyncStatus{Tool: judge.ToolArgoCD, Status: judge.ArgoCDUnknown, Error: err.Error()}
	}
	in := judge.ArgoCDDiffInput{Target: cfg, Live: live, Manager: ap.Manager(), Ignore: r.Ignore}
	if r.Schemas != nil {
		if t, ok := r.Schemas.Lookup(a.GVK); ok {
			in.Type = &t.Parseable
		}
	}
	in.DryRun = func(obj map[string]any) (map[string]any, error) {
		req := r.request(Apply{Manifest: obj, Live: live, GVK: a.GVK, Namespace: a.Namespace, Name: a.Name, Source: a.Source}, true)
		req.Manager = ap.Manager()
		res, err := e.Apply(req)
		if err != nil {
			return nil, err
		}
		if res.Rejection != nil {
			return nil, res.Rejection
		}
		return res.Object, nil
	}
	return judge.ArgoCDCompare(in).SyncStatus()
}
