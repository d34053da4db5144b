package report

import (
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/predict"
)

// Prunes are the results of the live objects run's applier deletes because no manifest
// names them (predict.Run.Pruned; action prune), in the live objects' order. pairs are the
// manifests paired with the live state; visitedAlso a namespace the apply visits besides
// those of the manifests ("" for none: kubectl's -n when given).
func Prunes(run *predict.Run, pairs []input.Pair, live []*input.Object, visitedAlso string) []*Result {
	var applied []predict.Applied
	for _, p := range pairs {
		if p.Err == nil {
			applied = append(applied, predict.Applied{ID: predict.Identity(p.ID), GVK: p.GVK})
		}
	}
	objs := make([]predict.LiveObject, len(live))
	for i, o := range live {
		_, _, ns, name := o.Meta()
		objs[i] = predict.LiveObject{GVK: o.GVK(), Namespace: ns, Name: name, Decode: o.Decode}
	}
	var out []*Result
	for _, p := range run.Pruned(applied, objs, visitedAlso) {
		o, src := objs[p.Index], live[p.Index].Source
		res := newResult(src)
		res.LiveSource, res.Action, res.Changed, res.Live = &src, ActionPrune, true, p.Object
		res.Prune = &Prune{Applier: run.Applier.Name(), Message: p.Why}
		out = append(out, res.Identity(o.GVK.APIVersion(), o.GVK.Kind, o.Namespace, o.Name))
	}
	return out
}
