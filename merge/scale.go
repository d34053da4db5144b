package merge

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

const scaleAPIVersion = "autoscaling/v1"

var replicasInScale = smdpath.MakePathOrDie("spec", "replicas")

// replicasPath is where the parent keeps the replica count the Scale's spec.replicas maps to.
func (r *request) replicasPath() (smdpath.Path, []string, error) {
	spec := ".spec.replicas"
	if r.typ.Scale != nil && r.typ.Scale.SpecReplicasPath != "" {
		spec = r.typ.Scale.SpecReplicasPath
	}
	parts := strings.Split(strings.TrimPrefix(spec, "."), ".")
	elems := make([]any, len(parts))
	for i, p := range parts {
		elems[i] = p
	}
	p, err := smdpath.MakePath(elems...)
	return p, parts, err
}

// updateScale predicts a write through /scale (rules.md sub.scale): the Scale's spec.replicas is the
// parent's replica count, and ownership of it moves between the parent's entries and
// entries marked subresource "scale", recorded at the parent's apiVersion and — because the
// server carries times over by identity and the Scale's identities name autoscaling/v1 —
// without a time.
func (r *request) updateScale(live, scale map[string]any, manager string) *Result {
	res := &Result{Endpoint: r.ep}
	if live == nil {
		res.Action, res.Rejection = ActionRejected, notFound(r.typ, r.ep.Name)
		return res
	}
	path, parts, err := r.replicasPath()
	if err != nil {
		res.Action, res.Rejection = ActionRejected, internalError(err.Error())
		return res
	}
	liveEntries, _, _ := managedFieldsOf(live)
	parent, err := fieldpath.Decode(liveEntries)
	if err != nil {
		parent = fieldpath.NewManaged()
	}
	before := parent.Copy()

	// The parent's entries as the Scale sees them: only those owning the replica count.
	sub := fieldpath.NewManaged()
	for key, vs := range parent.Fields {
		if vs.Set().Has(path) {
			sub.Fields[key] = smdpath.NewVersionedSet(smdpath.NewSet(replicasInScale), scaleAPIVersion, vs.Applied())
			sub.Times[key] = parent.Times[key]
		}
	}
	// Re-encoding names them by the Scale's apiVersion.
	if entries, err := sub.Encode(); err == nil {
		sub, _ = fieldpath.Decode(entries)
	}

	oldReplicas, hasOld := nestedValue(live, parts)
	specOf, _ := scale["spec"].(map[string]any)
	newReplicas, hasNew := specOf["replicas"]
	changed := hasOld != hasNew || (hasNew && !value.Equals(value.NewValueInterface(oldReplicas), value.NewValueInterface(newReplicas)))

	writer := fieldpath.ManagerKey(fieldpath.Entry{Manager: orUnknown(manager), Operation: fieldpath.OperationUpdate, APIVersion: scaleAPIVersion, Subresource: "scale"})
	// A Scale nobody owns the replicas of is untracked, and updates leave it so (rules.md untracked.updates-stay-untracked).
	if changed && len(sub.Fields) > 0 {
		for key, vs := range sub.Fields {
			if key == writer {
				continue
			}
			rest := vs.Set().Difference(smdpath.NewSet(replicasInScale))
			if rest.Empty() {
				delete(sub.Fields, key)
			} else {
				sub.Fields[key] = smdpath.NewVersionedSet(rest, vs.APIVersion(), vs.Applied())
			}
		}
		sub.Fields[writer] = smdpath.NewVersionedSet(smdpath.NewSet(replicasInScale), scaleAPIVersion, false)
	}

	// Back to the parent.
	out := fieldpath.NewManaged()
	for key, vs := range parent.Fields {
		if !vs.Set().Has(path) {
			out.Fields[key], out.Times[key] = vs, parent.Times[key]
			continue
		}
		if _, ok := sub.Fields[key]; !ok {
			if rest := vs.Set().Difference(smdpath.NewSet(path)); !rest.Empty() {
				out.Fields[key] = smdpath.NewVersionedSet(rest, vs.APIVersion(), vs.Applied())
				out.Times[key] = parent.Times[key]
			}
			continue
		}
		out.Fields[key], out.Times[key] = vs, parent.Times[key]
		delete(sub.Fields, key)
	}
	for key, vs := range sub.Fields {
		if !vs.Set().Has(replicasInScale) {
			continue
		}
		out.Fields[key] = smdpath.NewVersionedSet(smdpath.NewSet(path), r.version, vs.Applied())
		out.Times[key] = parent.Times[key]
	}

	obj := unstructured.DeepCopyObject(live)
	if hasNew {
		setNestedValue(obj, parts, newReplicas)
	}
	entries, err := out.Encode()
	if err != nil {
		res.Action, res.Rejection = ActionRejected, internalError(fmt.Sprintf("failed to encode managed fields: %v", err))
		return res
	}
	if err := setManagedFields(obj, entries, r.e.compactManagedFields); err != nil {
		res.Action, res.Rejection = ActionRejected, internalError(err.Error())
		return res
	}
	if err := r.e.model.PrepareForUpdate(r.typ, "", nil, obj, live); err != nil {
		res.Action, res.Rejection = ActionRejected, internalError(err.Error())
		return res
	}
	// The scale handler writes the parent through the main resource: its validation runs.
	if s := r.validateAs("", obj, live); s != nil {
		res.Action, res.Rejection = ActionRejected, s
		return res
	}
	res.Object, res.ManagedFields = obj, entries
	res.Action = ActionUpdate
	if r.unchanged(live, liveEntries, obj, entries) {
		res.Action, res.Object, res.ManagedFields = ActionUnchanged, unstructured.DeepCopyObject(live), liveEntries
	}
	res.Ownership = r.ownershipChanges(before, out, fieldpath.ManagerKey(fieldpath.Entry{Manager: orUnknown(manager), Operation: fieldpath.OperationUpdate, APIVersion: string(r.version), Subresource: "scale"}))
	return res
}

func orUnknown(m string) string {
	if m == "" {
		return "unknown"
	}
	return m
}

func nestedValue(obj map[string]any, parts []string) (any, bool) {
	var cur any = obj
	for _, p := range parts {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func setNestedValue(obj map[string]any, parts []string, v any) {
	cur := obj
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[parts[len(parts)-1]] = v
}
