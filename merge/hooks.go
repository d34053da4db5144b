package merge

import (
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge/defaults"
	"github.com/ssa-diff/ssa-diff/schema"
	smd "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// FieldManagementOnly is ServerHooks without defaulting and registry rules: the object is
// what field management alone makes of it (as the client-go and controller-runtime fakes
// do), reset fields aside.
type FieldManagementOnly struct{}

// Default does nothing.
func (FieldManagementOnly) Default(*schema.Type, map[string]interface{}) error { return nil }

// EmptyObject is {apiVersion, kind} for custom resources and {metadata: {}} otherwise.
func (FieldManagementOnly) EmptyObject(t *schema.Type) map[string]interface{} {
	if t.Source != schema.SourceBuiltin {
		return map[string]interface{}{"apiVersion": t.GVK.APIVersion(), "kind": t.GVK.Kind}
	}
	return map[string]interface{}{"metadata": map[string]interface{}{}}
}

// PrepareForCreate does nothing.
func (FieldManagementOnly) PrepareForCreate(*schema.Type, map[string]interface{}) error { return nil }

// PrepareForUpdate puts the reset fields back.
func (FieldManagementOnly) PrepareForUpdate(t *schema.Type, subresource string, obj, old map[string]interface{}) error {
	RestoreResetFields(t, subresource, obj, old)
	return nil
}

// Validate checks only what every kind shares: an update cannot change metadata.uid.
func (FieldManagementOnly) Validate(_ *schema.Type, _ string, obj, old map[string]any) Validation {
	return Validation{Errors: uidChanged(obj, old)}
}

// RestoreResetFields puts the old values of an endpoint's reset fields back into obj, as
// the registry strategies do on update (catalog J2), managedFields aside.
func RestoreResetFields(t *schema.Type, subresource string, obj, old map[string]interface{}) {
	for _, p := range resetPaths(t, subresource) {
		restorePath(obj, old, p)
	}
}

func restorePath(obj, old map[string]interface{}, p smd.Path) {
	for i, pe := range p {
		name := *pe.FieldName
		if i == len(p)-1 {
			if name == "metadata" {
				// Everything but managedFields comes back.
				mf, hasMF := metadataOf(obj)["managedFields"]
				if ov, ok := old[name]; ok {
					obj[name] = unstructured.DeepCopy(ov)
				} else {
					delete(obj, name)
				}
				// The new managedFields stand, also when there are none.
				if hasMF {
					ensureMetadata(obj)["managedFields"] = mf
				} else if md := metadataOf(obj); md != nil {
					delete(md, "managedFields")
				}
				return
			}
			if ov, ok := old[name]; ok {
				obj[name] = unstructured.DeepCopy(ov)
			} else {
				delete(obj, name)
			}
			return
		}
		next, _ := obj[name].(map[string]interface{})
		oldNext, _ := old[name].(map[string]interface{})
		if next == nil {
			if oldNext == nil {
				return
			}
			next = map[string]interface{}{}
			obj[name] = next
		}
		if oldNext == nil {
			oldNext = map[string]interface{}{}
		}
		obj, old = next, oldNext
	}
}

// unchanged reports whether the server would write nothing (catalog G5, G6): the object is
// the live one, or differs only in managedFields times. The entries are those of live and
// obj (as managedFieldsOf reads them).
func (r *request) unchanged(live map[string]interface{}, liveEntries []fieldpath.Entry, obj map[string]interface{}, objEntries []fieldpath.Entry) bool {
	if !equalIgnoringManagedFields(live, obj) {
		return false
	}
	if len(liveEntries) != len(objEntries) {
		return false
	}
	for i := range liveEntries {
		if !sameEntryIgnoringTime(liveEntries[i], objEntries[i]) {
			return false
		}
	}
	return true
}

// keepTimesOfNoop is the store's last step before writing (catalog G5): when the new
// managedFields are the live ones but for some times, and the object is otherwise equal to
// the live one as the server compares them — semantically once decoded into its Go type for
// built-in kinds (quantities by value …), as decoded JSON for custom resources — the live
// times are put back into obj, so that no timestamp-only change is written. It returns the
// entries obj then has.
func (r *request) keepTimesOfNoop(live map[string]interface{}, liveEntries []fieldpath.Entry, obj map[string]interface{}, entries []fieldpath.Entry) []fieldpath.Entry {
	if len(entries) == 0 || len(entries) != len(liveEntries) {
		return entries
	}
	// The cheap tests first: most writes change the object, and comparing field sets costs.
	timesDiffer := false
	for i := range entries {
		x, y := liveEntries[i], entries[i]
		if x.Manager != y.Manager || x.Operation != y.Operation || x.APIVersion != y.APIVersion ||
			x.FieldsType != y.FieldsType || x.Subresource != y.Subresource {
			return entries
		}
		a, b := x.Time, y.Time
		if (a == nil) != (b == nil) || (a != nil && !a.Equal(*b)) {
			timesDiffer = true
		}
	}
	// An object equal as JSON is left to unchanged, which compares the entries itself.
	if !timesDiffer || equalIgnoringManagedFields(live, obj) || !r.semanticallyEqual(live, obj) {
		return entries
	}
	for i := range entries {
		if !sameEntryIgnoringTime(liveEntries[i], entries[i]) {
			return entries
		}
	}
	out := make([]fieldpath.Entry, len(entries))
	for i := range entries {
		out[i] = entries[i]
		out[i].Time = liveEntries[i].Time
	}
	if err := setManagedFields(obj, out, r.e.compactManagedFields); err != nil {
		return entries
	}
	return out
}

// semanticallyEqual compares two built-in objects, managedFields aside, once decoded into
// their Go type, as the store does for catalog G5 (custom resources compare as JSON).
func (r *request) semanticallyEqual(a, b map[string]interface{}) bool {
	av, kind := r.typ.GVK.APIVersion(), r.typ.GVK.Kind
	if r.typ.Source != schema.SourceBuiltin || !defaults.Known(av, kind) {
		return false
	}
	return defaults.Equal(av, kind, defaults.Semantic, withoutManagedFields(a), withoutManagedFields(b))
}

// withoutManagedFields is a shallow copy of obj whose metadata has no managedFields.
func withoutManagedFields(obj map[string]interface{}) map[string]interface{} {
	md, ok := obj["metadata"].(map[string]interface{})
	if !ok {
		return obj
	}
	c := make(map[string]interface{}, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	m := make(map[string]interface{}, len(md))
	for k, v := range md {
		if k != "managedFields" {
			m[k] = v
		}
	}
	c["metadata"] = m
	return c
}

func sameEntryIgnoringTime(x, y fieldpath.Entry) bool {
	if x.Manager != y.Manager || x.Operation != y.Operation || x.APIVersion != y.APIVersion ||
		x.FieldsType != y.FieldsType || x.Subresource != y.Subresource {
		return false
	}
	if string(x.FieldsV1) == string(y.FieldsV1) {
		return true
	}
	sx, err1 := fieldpath.FieldsV1ToSet(x.FieldsV1)
	sy, err2 := fieldpath.FieldsV1ToSet(y.FieldsV1)
	if err1 != nil || err2 != nil {
		return string(x.FieldsV1) == string(y.FieldsV1)
	}
	return sx.Equals(sy)
}

// equalIgnoringManagedFields compares two objects as JSON values, metadata.managedFields aside.
func equalIgnoringManagedFields(a, b map[string]interface{}) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok {
			return false
		}
		if k != "metadata" {
			if !unstructured.Equal(av, bv) {
				return false
			}
			continue
		}
		am, _ := av.(map[string]interface{})
		bm, _ := bv.(map[string]interface{})
		if (am == nil) != (bm == nil) {
			return false
		}
		na, nb := len(am), len(bm)
		if _, ok := am["managedFields"]; ok {
			na--
		}
		if _, ok := bm["managedFields"]; ok {
			nb--
		}
		if na != nb {
			return false
		}
		for mk, mv := range am {
			if mk == "managedFields" {
				continue
			}
			if bmv, ok := bm[mk]; !ok || !unstructured.Equal(mv, bmv) {
				return false
			}
		}
	}
	return true
}
