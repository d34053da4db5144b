package merge

import (
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// unchanged reports whether the server would write nothing (rules.md time.store-ignores-time-only, time.no-op-no-write): the object is
// the live one, or differs only in managedFields times. The entries are those of live and
// obj (as managedFieldsOf reads them).
func (r *request) unchanged(live map[string]any, liveEntries []fieldpath.Entry, obj map[string]any, objEntries []fieldpath.Entry) bool {
	if !unstructured.EqualIgnoringManagedFields(live, obj) {
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

// keepTimesOfNoop is the store's last step before writing (rules.md time.store-ignores-time-only): when the new
// managedFields are the live ones but for some times, and the object is otherwise equal to
// the live one as the server compares them — semantically once decoded into its Go type for
// built-in kinds (quantities by value …), as decoded JSON for custom resources — the live
// times are put back into obj, so that no timestamp-only change is written. It returns the
// entries obj then has.
func (r *request) keepTimesOfNoop(live map[string]any, liveEntries []fieldpath.Entry, obj map[string]any, entries []fieldpath.Entry) []fieldpath.Entry {
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
	if !timesDiffer || unstructured.EqualIgnoringManagedFields(live, obj) || !r.e.model.SemanticallyEqual(r.typ, live, obj) {
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
	if err := r.holdManagedFields(obj, out); err != nil {
		return entries
	}
	return out
}

// sameEntryIgnoringTime reports whether the server would store x and y alike but for their
// times: the same identity and the same fieldsV1 tree (rules.md encode.fields-v1). Two
// texts of one field set are not alike: a live entry written by another release's
// structured-merge-diff (1.37's \u0026 where 1.38 writes &) is rewritten, and so written,
// by the server's next encoding.
func sameEntryIgnoringTime(x, y fieldpath.Entry) bool {
	if x.Manager != y.Manager || x.Operation != y.Operation || x.APIVersion != y.APIVersion ||
		x.FieldsType != y.FieldsType || x.Subresource != y.Subresource {
		return false
	}
	if string(x.FieldsV1) == string(y.FieldsV1) {
		return true
	}
	// Either may be in the server's layout or canonical (a dump's keys sorted): their
	// trees are compared.
	cx, err1 := fieldsjson.CanonicalFieldsV1(orEmptySet(x.FieldsV1))
	cy, err2 := fieldsjson.CanonicalFieldsV1(orEmptySet(y.FieldsV1))
	if err1 != nil || err2 != nil {
		return false
	}
	return string(cx) == string(cy)
}

// orEmptySet is raw, or the empty set's text when there is none (fieldpath.FieldsV1ToSet).
func orEmptySet(raw []byte) []byte {
	if len(raw) == 0 {
		return []byte("{}")
	}
	return raw
}
