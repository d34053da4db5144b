package predict

import (
	"sync"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/merge"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// drift is judge.Drift of out, the answer to a's request against live: the live object's
// owners decoded once (the prediction's own decoding when it has it), the manifest's fields
// as the server recorded them for the applier (the answer's own decoding of its entries),
// and what tells the server's defaults from drift (once per object: shared).
// forced, when out is a refusal predicted again with force, is that prediction.
func (r *Run) drift(a Apply, live map[string]any, out, forced *merge.Result, shared *driftShared) []judge.DriftField {
	if r.NoDrift || a.Patch != nil || live == nil || out == nil {
		return nil
	}
	entries, _, err := fieldpath.EntriesOf(live)
	if err != nil {
		return nil
	}
	managed, ok := out.ManagedFieldsDecoded(entries)
	if !ok {
		if managed, err = fieldpath.Decode(entries); err != nil {
			return nil
		}
	}
	refused := out.Rejection != nil || out.Object == nil
	in := judge.DriftInput{Live: live, Managed: managed, LiveEntries: entries, Manifest: a.Manifest, Refused: refused}
	if refused && forced != nil {
		in.Forced = &judge.ForcedWrite{Predicted: forced.Object, Refused: forced.Rejection != nil || forced.Object == nil}
	}
	if !refused {
		in.Predicted = out.Object
		in.Applied = func() *smdpath.Set { return r.appliedSet(out) }
	}
	if shared != nil {
		in.Defaulted, in.Created, in.CreateAddsNothing = shared.defaulted, shared.created, shared.createAddsNothing
	}
	return judge.Drift(in)
}

// appliedSet is the field set out's managedFields record for the applier's apply, from
// the answer's own decoding of the entries it wrote (decoded again only when it has none).
func (r *Run) appliedSet(out *merge.Result) *smdpath.Set {
	manager := r.Applier.Manager()
	decoded, ok := out.ManagedFieldsDecoded(out.ManagedFields)
	for _, e := range out.ManagedFields {
		if e.Manager != manager || e.Operation != fieldpath.OperationApply || e.Subresource != r.Subresource {
			continue
		}
		if ok {
			if vs, has := decoded.Fields[fieldpath.ManagerKey(e)]; has {
				return vs.Set()
			}
		}
		if set, err := fieldpath.FieldsV1ToSet(e.FieldsV1); err == nil {
			return set
		}
	}
	return nil
}

// driftShared is what the drift of an answer and of its forced twin ask of the same
// manifest, each at most once: the manifest as the server defaults it and as a create
// would store it.
type driftShared struct {
	defaulted func() map[string]any
	created   func() (map[string]any, []string)
	// createAddsNothing: the create stores nothing the defaulted manifest lacks outside
	// status and the server's metadata (merge.Engine.CreateAddsToDefaults).
	createAddsNothing bool
}

// newDriftShared is a's driftShared when the predictor is the engine (nil otherwise: the
// drift then tells no defaults).
func (r *Run) newDriftShared(a Apply) *driftShared {
	e, ok := r.Predictor.(Engine)
	if !ok || e.Engine == nil || a.Manifest == nil || r.NoDrift || a.Patch != nil {
		return nil
	}
	s := &driftShared{}
	gvk := a.GVK
	s.defaulted = sync.OnceValue(func() map[string]any {
		d, _ := e.Defaulted(gvk, WithDefaultNamespace(a.Manifest, a.Namespace))
		return d
	})
	if r.Subresource == "" {
		create := r.request(a, false)
		create.Live = nil
		s.createAddsNothing = !e.CreateAddsToDefaults(gvk)
		s.created = sync.OnceValues(func() (map[string]any, []string) {
			res, err := e.Apply(create)
			if err != nil || res == nil || res.Object == nil {
				return nil, nil
			}
			return res.Object, res.Assigned
		})
	}
	return s
}
