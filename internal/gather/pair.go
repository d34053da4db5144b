package gather

import (
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/livestate"
	"github.com/ssa-diff/ssa-diff/internal/mistakes"
	"github.com/ssa-diff/ssa-diff/internal/plan"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/schemafiles"
	"github.com/ssa-diff/ssa-diff/internal/shard"
	"github.com/ssa-diff/ssa-diff/predict"
)

// Pair registers the CustomResourceDefinitions among the inputs (schemafiles.RegisterInputs),
// then pairs the manifests with the live objects, once the live state has said where
// objects that name no namespace go (and so the applier for them); it also makes the run's
// judge.
func (in *Inputs) Pair() error {
	opts := in.opts
	byObject, warnings := schemafiles.RegisterInputs(in.Registry, in.Live, in.Manifests)
	for _, w := range warnings {
		in.warnf("%s", w)
	}
	in.crdWarnings = byObject
	liveObjs, liveErrs := input.Split(in.Live)
	ls, err := livestate.Read(liveObjs, opts.Live != "" || opts.Cluster != nil)
	if err != nil {
		liveErrs = append(liveErrs, err)
	}
	debugCopyExisting(opts.Command, ls.Objects)
	in.Manifests = append(in.Manifests, in.RawPatches.Stubs(ls.Objects)...)
	manifestObjs, _ := input.Split(in.Manifests)
	if err := in.checkSwapped(manifestObjs, ls); err != nil {
		return err
	}
	if ls.Record != nil && !opts.NamespaceSet {
		// Objects that name no namespace go where the cluster read put them.
		in.Namespace = ls.Record.Namespace
		in.Applier, _ = opts.NewApplier(in.Namespace) // the settings were checked when parsed
	}
	in.Judge = ls.Judgement(in.Registry, in.ClusterState)
	m := input.Match(manifestObjs, ls.Objects, ls.Scope(in.Registry), in.Namespace,
		plan.Pairing{Applier: in.Applier, Subresource: opts.Subresource, Verb: opts.Verb, Command: opts.Command, LiveErrors: len(liveErrs)}.MatchOptions()...)
	for _, w := range m.Warnings {
		in.warnf("%s", w)
	}
	in.State, in.Matching, in.liveErrs = ls, m, liveErrs
	return nil
}

// debugCopyExisting tells a kubectl debug --copy-to command the live pod its copy would be
// named as, if there is one: the pod of that name in the namespace of a live pod it copies.
// Its POST is then refused (409).
func debugCopyExisting(cmd *appliers.KubectlCommand, objs []*input.Object) {
	if cmd == nil || cmd.Debug.Copy == nil || len(cmd.Names) != 1 {
		return
	}
	copied := map[string]bool{}
	for _, o := range objs {
		if av, kind, ns, name := o.Meta(); av == "v1" && kind == "Pod" && name == cmd.Names[0] && (cmd.Namespace == "" || ns == cmd.Namespace) {
			copied[ns] = true
		}
	}
	for _, o := range objs {
		if av, kind, ns, name := o.Meta(); av == "v1" && kind == "Pod" && name == cmd.Debug.Copy.Name && copied[ns] {
			if pod, err := o.Decode(); err == nil {
				cmd.Debug.Copy.Existing = pod
			}
		}
	}
}

// checkSwapped refuses MANIFESTS and LIVE given the wrong way round: every manifest
// carries metadata.managedFields, as a dump of the cluster does, and no live object does.
func (in *Inputs) checkSwapped(manifests []*input.Object, ls *livestate.State) error {
	live := in.opts.Live
	if live == "" || ls.Record != nil || len(manifests) == 0 || len(ls.Objects) == 0 || len(in.paths) != 1 || len(in.opts.Kustomize) > 0 {
		return nil
	}
	managed := func(objs []*input.Object) []bool {
		out := make([]bool, len(objs))
		for i, o := range objs {
			out[i] = o.HasManagedFields()
		}
		return out
	}
	return mistakes.Swapped(in.paths[0], live, managed(manifests), managed(ls.Objects))
}

// Slots are the run's results to print, in order (plan.Slots): the manifests (or what
// could not be read of them), the live objects client prunes, the live objects that could
// not be read; less those skipped (--skip) and those of other shards (--shard), whose
// record of the run's part it returns too.
func (in *Inputs) Slots(client appliers.Applier) ([]*plan.Slot, *shard.Record) {
	opts, pairs := in.opts, in.Matching.Pairs
	var pruned []*report.Result
	if opts.Prune {
		visitedAlso := ""
		if opts.PruneVisits {
			visitedAlso = in.Namespace
		}
		pruned = report.Prunes(&predict.Run{Applier: client, Schemas: in.Registry}, pairs, in.State.Objects, visitedAlso)
		if k, _ := appliers.KindOf(opts.ApplierName); k.PruneWarning != "" {
			in.warnf("%s", k.PruneWarning) // a note the applier's prune preview always carries
		}
	}
	slots := plan.Slots(in.Manifests, pairs, in.crdWarnings, pruned, append(in.liveErrs, in.Matching.Errors...))
	if word := in.State.Judge(pairs, in.Registry, opts.NamespaceSet, opts.AllowNoManagedFields); word != "" {
		in.warnf("%s", word)
	}
	return plan.Shard(plan.Skip(slots, opts.Noise), opts.Shard)
}
