package judge

import (
	"encoding/json"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The fates of a drifted field: what the predicted write leaves of it.
const (
	// DriftKept: the predicted object has the field with its live value.
	DriftKept = "kept"
	// DriftRemoved: the predicted object no longer has the field.
	DriftRemoved = "removed"
	// DriftChanged: the predicted object has the field with another value.
	DriftChanged = "changed"
	// DriftRefused: the server refuses the write, so the object keeps everything it has.
	DriftRefused = "refused"
)

// DriftField is one field the live object has that the manifest does not set: a change
// made on the cluster (kubectl edit, a controller, a previous apply) that the repository
// lacks. Its fate is read from the prediction, never worked out apart from it.
type DriftField struct {
	// Path is the field as the server prints it in conflict messages.
	Path string `json:"path"`
	// Pointer is the field as a JSON pointer into the live object.
	Pointer string `json:"pointer,omitempty"`
	// Live is the live value.
	Live any `json:"live"`
	// Owners are the managers the live object's managedFields say own the field, in the
	// order of its entries.
	Owners []DriftOwner `json:"owners"`
	// Fate is kept, removed, changed (Predicted is the new value) or refused.
	Fate string `json:"fate"`
	// Predicted is the value the write leaves, when the fate is changed.
	Predicted any `json:"predicted,omitempty"`
	// Default says the field, owned by updates only, has the value the server gives the
	// manifest, which does not set it: the server's default, owned by whoever created the
	// object with an update (which owns every field it stored), not a change made on the
	// cluster.
	Default bool `json:"default,omitempty"`
}

// DriftOwner names a managedFields entry that owns a drifted field.
type DriftOwner struct {
	Manager     string `json:"manager"`
	Operation   string `json:"operation"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
}

// Ref is the owner as a fieldpath.ManagerRef (without a time).
func (o DriftOwner) Ref() fieldpath.ManagerRef {
	return fieldpath.ManagerRef{Manager: o.Manager, Operation: fieldpath.Operation(o.Operation), APIVersion: o.APIVersion, Subresource: o.Subresource}
}

// DriftInput is what Drift reads: the inputs and the answer of one prediction.
type DriftInput struct {
	// Live is the live object as the request read it (nil for a create: no drift).
	Live map[string]any
	// Managed is Live's managedFields decoded (fieldpath.Decode of LiveEntries).
	Managed fieldpath.Managed
	// LiveEntries are Live's managedFields entries, which give the owners their order.
	LiveEntries []fieldpath.Entry
	// Manifest is the object sent.
	Manifest map[string]any
	// Applied, when set, gives the field set the server recorded for the manifest (the
	// applier's Apply entry in the predicted managedFields; nil when the write is no apply
	// or is refused): its keyed items carry the keys the server defaulted, which the
	// manifest may omit. Asked only when there is drift, and once.
	Applied func() *smdpath.Set
	// Predicted is the object the write leaves; nil when Refused.
	Predicted map[string]any
	// Refused says the server refuses the write.
	Refused bool
	// Defaulted, when set, is the manifest as the server decodes and defaults it (asked
	// only when there is drift, and once); nil from it when it cannot say.
	Defaulted func() map[string]any
}

// Drift lists the fields some manager of the live object owns that the manifest does not
// set, with their owners and what the predicted write leaves of each. Fields of status and
// the metadata only the server writes (uid, resourceVersion, generation, creationTimestamp,
// managedFields, deletion fields) are not drift; nor are fields nobody owns (the server's
// defaults, mostly), which no managedFields entry can say anything about.
func Drift(in DriftInput) []DriftField {
	if in.Live == nil || len(in.LiveEntries) == 0 {
		return nil
	}
	keys := make([]string, 0, len(in.LiveEntries))
	union := &smdpath.Set{}
	for _, e := range in.LiveEntries {
		k := fieldpath.ManagerKey(e)
		vs, ok := in.Managed.Fields[k]
		if !ok || containsKey(keys, k) {
			continue
		}
		keys = append(keys, k)
		union = union.Union(vs.Set())
	}
	var out []DriftField
	var defaulted map[string]any
	var applied *smdpath.Set
	askedDefaults, askedApplied := false, false
	union.Leaves().Iterate(func(p smdpath.Path) {
		if serverOnly(p) {
			return
		}
		live, ok := fieldpath.ValueAt(in.Live, p)
		if !ok {
			return
		}
		if _, set := fieldpath.ValueAt(in.Manifest, p); set {
			return
		}
		if !askedApplied && in.Applied != nil {
			applied, askedApplied = in.Applied(), true
		}
		if applied != nil && applied.Has(p) {
			return
		}
		d := DriftField{Path: fieldpath.PathString(p), Live: live, Owners: []DriftOwner{}}
		if ptr, ok := fieldpath.JSONPointer(p, in.Live); ok {
			d.Pointer = ptr
		}
		applies := false
		for _, k := range keys {
			if in.Managed.Fields[k].Set().Has(p) {
				r := in.Managed.Ref(k)
				d.Owners = append(d.Owners, DriftOwner{Manager: r.Manager, Operation: string(r.Operation), APIVersion: r.APIVersion, Subresource: r.Subresource})
				applies = applies || r.Operation == fieldpath.OperationApply
			}
		}
		if !applies {
			if !askedDefaults && in.Defaulted != nil {
				defaulted, askedDefaults = in.Defaulted(), true
			}
			if v, ok := fieldpath.ValueAt(defaulted, p); ok && sameJSON(v, live) {
				d.Default = true
			}
		}
		switch pred, ok := fieldpath.ValueAt(in.Predicted, p); {
		case in.Refused:
			d.Fate = DriftRefused
		case !ok:
			d.Fate = DriftRemoved
		case sameJSON(live, pred):
			d.Fate = DriftKept
		default:
			d.Fate, d.Predicted = DriftChanged, pred
		}
		out = append(out, d)
	})
	return out
}

func containsKey(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// serverOnly reports whether p is in status or in the metadata only the server writes.
func serverOnly(p smdpath.Path) bool {
	if len(p) == 0 || p[0].FieldName == nil {
		return false
	}
	switch *p[0].FieldName {
	case "status":
		return true
	case "metadata":
		if len(p) < 2 || p[1].FieldName == nil {
			return false
		}
		switch *p[1].FieldName {
		case "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields",
			"deletionTimestamp", "deletionGracePeriodSeconds", "selfLink":
			return true
		}
	}
	return false
}

// sameJSON compares two decoded JSON values as JSON prints them (numbers of any Go type
// print alike when equal).
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
