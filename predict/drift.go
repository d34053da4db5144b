package predict

import (
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/merge"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// drift is judge.Drift of out, the answer to a's request against live: the live object's
// owners decoded once (the prediction's own decoding when it has it), the manifest's fields
// as the server recorded them for the applier, and the manifest as the engine defaults it
// (when the predictor is the engine), which tells the server's defaults from drift.
// forced, when out is a refusal predicted again with force, is that prediction.
func (r *Run) drift(a Apply, live map[string]any, out, forced *merge.Result) []judge.DriftField {
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
		manager := r.Applier.Manager()
		in.Applied = func() *smdpath.Set {
			for _, e := range out.ManagedFields {
				if e.Manager == manager && e.Operation == fieldpath.OperationApply && e.Subresource == r.Subresource {
					if set, err := fieldpath.FieldsV1ToSet(e.FieldsV1); err == nil {
						return set
					}
				}
			}
			return nil
		}
	}
	if e, ok := r.Predictor.(Engine); ok && e.Engine != nil && a.Manifest != nil {
		gvk := a.GVK
		in.Defaulted = func() map[string]any {
			d, _ := e.Defaulted(gvk, WithDefaultNamespace(a.Manifest, a.Namespace))
			return d
		}
	}
	if e, ok := r.Predictor.(Engine); ok && e.Engine != nil && a.Manifest != nil && r.Subresource == "" {
		create := r.request(a, false)
		create.Live = nil
		in.Created = func() (map[string]any, []string) {
			res, err := e.Apply(create)
			if err != nil || res == nil || res.Object == nil {
				return nil, nil
			}
			return res.Object, res.Assigned
		}
	}
	return judge.Drift(in)
}
