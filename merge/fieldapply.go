package merge

import (
	"errors"
	"fmt"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// This file is the apply of structured-merge-diff's Updater (the server's field manager
// core) computed without its prune step when that step provably keeps everything, and with
// each set of that step computed once otherwise.
//
// The prune step of an apply removes the fields the applier owned before (its last set L)
// and owns no more, unless another manager owns them. It does so in three walks over the
// merged object: remove every field of L, add back every field anybody owns, then add back
// every removed field that was not in L. Each walk types, removes and collects the whole
// object again, and together they cost more than the merge, the comparison and the
// conflict check put together.
//
// When the applier keeps everything it owned (L is a subset of its new set C, the common
// case of a repository applied again), nothing can be pruned: every field of L is in C,
// so owned; every ancestor of a field of C is in C or a named field, so owned too; so no
// field of L or above it is removed by the second walk, and the third walk, which removes
// only fields of L, removes nothing. Two details of the walks could still lose a field of
// L, and the shortcut is taken only when neither can happen:
//   - an item of a keyed list is found by its key fields: if a key field were removed the
//     item's path could change. Every key field of every keyed item on a path of L must be
//     in C (owned, so kept) or read the same when removed (its schema default, such as
//     protocol TCP of a port), and one at least in C (so the item keeps a field).
//   - a named field that holds a non-empty object is collected only through its children;
//     if those left were only empty lists it would not be collected again. Fields of L that
//     hold a non-empty object are accepted only when the applied value holds one too
//     (collected as a whole: an atomic object, or a key of a map).
// Keys addressed by index are not accepted either. And the first walk must leave a field
// at the top: when L and the named fields above it cover every top-level field (an entry
// that holds apiVersion and kind: the server strips them from the entry of the manager
// that writes, not from entries a client supplies), it leaves no object, which the
// updater fails to convert (keepsATopField). Otherwise the prune runs as the updater
// runs it (pruneOneVersion). Entries at another version than the request's (whose prune
// converts between versions) always take structured-merge-diff's own path. The
// differential test against the Kubernetes field manager and FuzzEngine's comparison of
// both paths (Engine.noShortcuts) check the equivalence.

// applyFields is structured-merge-diff's Updater.Apply for r's request: the merged object
// (nil when nothing changes) and the new entries, or the conflicts as an error. With the
// conflicts, forced is, when this path knows it, the same apply with force: the walks made
// already, only its ownership step left to run (see forcedFields); nil on the updater's own
// path.
func (r *request) applyFields(live, cfg *typed.TypedValue, cfgObj map[string]any, managers smdpath.ManagedFields, manager string, force bool) (merged *typed.TypedValue, fields smdpath.ManagedFields, forced *forcedFields, err error) {
	if r.e.noShortcuts || !r.oneVersion(managers) {
		merged, fields, err = r.updater.Apply(live, cfg, r.version, managers, manager, force)
		return merged, fields, nil, err
	}
	full := func() (*typed.TypedValue, smdpath.ManagedFields, *forcedFields, error) {
		merged, fields, err := r.updater.Apply(live, cfg, r.version, managers, manager, force)
		return merged, fields, nil, err
	}
	// Any error is left to the updater, which reports the first in its own order.
	reconciled, err := reconcileWithSchema(live, managers)
	if err != nil {
		return full()
	}
	set, err := toFieldSet(cfg)
	if err != nil {
		return full()
	}
	if f := r.ignore[r.version]; f != nil {
		set = f.Filter(set)
	}
	last := reconciled[manager]
	// guide: the applied object, when merged is mergeValues' merge of it over live (so a
	// field it lacks holds live's value, copied) and nothing has been pruned since.
	var guide any
	if m, walked := mergeValues(live, cfg); walked {
		merged, guide = m, cfg.AsValue().Unstructured()
	} else if merged, err = live.Merge(cfg); err != nil {
		return full()
	}
	reconciled[manager] = smdpath.NewVersionedSet(set, r.version, true)
	if last != nil && !last.Set().Empty() && !keepsEverything(last.Set(), set, merged, cfgObj) {
		if merged, err = pruneOneVersion(merged, reconciled, last.Set()); err != nil {
			return full()
		}
		guide = nil
	}
	cmp, differs, conflicts, err := r.compareFields(live, merged, guide, reconciled, manager)
	if err != nil {
		return full()
	}
	if len(conflicts) != 0 {
		f := &forcedFields{live: live, merged: merged, differs: differs, managers: reconciled, manager: manager, cmp: cmp, conflicts: conflicts}
		if !force {
			return nil, smdpath.ManagedFields{}, f, smdmerge.ConflictsFromManagers(conflicts)
		}
		merged, fields = f.take()
		return merged, fields, nil, nil
	}
	// No conflicts (the common apply): nothing will be kept for a forced apply, so the
	// reconciled entries, this request's own, are changed in place.
	return changedOrNil(live, merged, differs), takeFields(reconciled, manager, cmp, nil), nil, nil
}

// changedOrNil is merged, or nil when it equals live (nothing changes). differs: their
// comparison found a field added, removed or modified, which two equal values never give
// (equal values give equal items, keys and leaves at every level), so they differ.
func changedOrNil(live, merged *typed.TypedValue, differs bool) *typed.TypedValue {
	if differs {
		return merged
	}
	if sameValue(live.AsValue().Unstructured(), merged.AsValue().Unstructured()) {
		return nil
	}
	return merged
}

// forcedFields is an apply's ownership step still to run with force, after the walks that
// found its conflicts: the updater's update computes the same comparison and the same
// conflicts with force or without, and force only decides whether they are an error or
// are taken from their owners. So the apply without force that meets conflicts has made
// every walk the forced apply makes (typing, merge, field set, prune, comparison), and
// what force does follows from them alone (take).
type forcedFields struct {
	live, merged *typed.TypedValue
	// differs: the comparison of live and merged found a change (changedOrNil).
	differs bool
	// managers are the entries reconciled with the schema, the applier's new set in them.
	managers  smdpath.ManagedFields
	manager   string
	cmp       *typed.Comparison
	conflicts smdpath.ManagedFields
}

// take is the apply with force: the merged object (nil when nothing changes) and the new
// entries. f is not changed: an answer may keep it for a later request (Request.Unforced).
func (f *forcedFields) take() (*typed.TypedValue, smdpath.ManagedFields) {
	managers := make(smdpath.ManagedFields, len(f.managers))
	for m, vs := range f.managers {
		managers[m] = vs
	}
	return changedOrNil(f.live, f.merged, f.differs), takeFields(managers, f.manager, f.cmp, f.conflicts)
}

// pruneOneVersion is the updater's prune when every entry is at the merged object's
// version: the same three walks, each set computed once (the updater collects the merged
// object's fields, and completes named fields of two sets, twice).
func pruneOneVersion(merged *typed.TypedValue, managers smdpath.ManagedFields, last *smdpath.Set) (*typed.TypedValue, error) {
	sc, tr := merged.Schema(), merged.TypeRef()
	lastNamed := last.EnsureNamedFieldsAreMembers(sc, tr)
	// Remove every field of the last set...
	pruned := merged.RemoveItems(lastNamed)
	if !isObject(pruned) {
		return nil, errPrunedNotAnObject
	}
	// ...add back every field anybody owns (the applier's new set included)...
	owned := smdpath.NewSet()
	for _, vs := range managers {
		owned = owned.Union(vs.Set())
	}
	mergedSet, err := toFieldSet(merged)
	if err != nil {
		return nil, err
	}
	prunedSet, err := toFieldSet(pruned)
	if err != nil {
		return nil, err
	}
	mergedNamed := mergedSet.EnsureNamedFieldsAreMembers(sc, tr)
	pruned = merged.RemoveItems(mergedNamed.Difference(prunedSet.EnsureNamedFieldsAreMembers(sc, tr).Union(owned.EnsureNamedFieldsAreMembers(sc, tr))))
	if !isObject(pruned) {
		return nil, errPrunedNotAnObject
	}
	// ...and every removed field that was not in the last set.
	if prunedSet, err = toFieldSet(pruned); err != nil {
		return nil, err
	}
	if pruned = merged.RemoveItems(mergedNamed.Difference(prunedSet.EnsureNamedFieldsAreMembers(sc, tr)).Intersection(lastNamed)); !isObject(pruned) {
		return nil, errPrunedNotAnObject
	}
	return pruned, nil
}

// errPrunedNotAnObject: a step of the prune left a value that is not an object (the
// deduced type's removal of every field leaves none). The updater converts each step's
// result between versions, which fails on such a value as the server's converter fails
// it; pruneOneVersion, which converts nothing, leaves that answer to the updater.
var errPrunedNotAnObject = errors.New("the pruned value is not an object")

// isObject reports whether tv holds an object (a map), which the version converter
// takes.
func isObject(tv *typed.TypedValue) bool {
	_, ok := tv.AsValue().Unstructured().(map[string]any)
	return ok
}

// toFieldSet is tv.ToFieldSet(), built by fieldSetOf when it can.
func toFieldSet(tv *typed.TypedValue) (*smdpath.Set, error) {
	if set, ok := fieldSetOf(tv); ok {
		return set, nil
	}
	return tv.ToFieldSet()
}

// oneVersion reports whether every entry is recorded at the request's version.
func (r *request) oneVersion(managers smdpath.ManagedFields) bool {
	for _, vs := range managers {
		if vs.APIVersion() != r.version {
			return false
		}
	}
	return true
}

// reconcileWithSchema drops from each entry what the schema no longer allows, as the
// updater does before every write (entries are at the live object's version). An entry
// whose set goes below no atomic map or list of the schema (reconcileKeeps, most of them)
// is kept without structured-merge-diff's walk.
func reconcileWithSchema(live *typed.TypedValue, managers smdpath.ManagedFields) (smdpath.ManagedFields, error) {
	out := make(smdpath.ManagedFields, len(managers))
	for m, vs := range managers {
		if reconcileKeeps(vs.Set(), live) {
			out[m] = vs
			continue
		}
		rec, err := reconcileEntry(vs, live)
		if err != nil {
			return nil, err
		}
		out[m] = rec
	}
	return out, nil
}

// reconcileEntry is entry vs less what the schema of tv (the object at vs's version) no
// longer allows, as structured-merge-diff's updater reconciles each entry.
func reconcileEntry(vs smdpath.VersionedSet, tv *typed.TypedValue) (smdpath.VersionedSet, error) {
	rec, err := typed.ReconcileFieldSetWithSchema(vs.Set(), tv)
	if err != nil || rec == nil {
		return vs, err
	}
	return smdpath.NewVersionedSet(rec, vs.APIVersion(), vs.Applied()), nil
}

// compareFields is the first half of the updater's ownership step at one version: the comparison of the live and
// the merged object (less the reset fields), whether that comparison found any change
// before the reset fields were taken out of it, and per other manager the fields of it
// that the write changes — the conflicts, with force or without.
func (r *request) compareFields(live, merged *typed.TypedValue, guide any, managers smdpath.ManagedFields, manager string) (*typed.Comparison, bool, smdpath.ManagedFields, error) {
	cmp, ok := compareMerged(live, merged, guide)
	if !ok {
		var err error
		if cmp, err = live.Compare(merged); err != nil {
			return nil, false, nil, fmt.Errorf("failed to compare objects: %v", err)
		}
	}
	differs := !cmp.IsSame()
	cmp = cmp.FilterFields(r.ignore[r.version])
	changed := cmp.Modified.Union(cmp.Added)
	conflicts := smdpath.ManagedFields{}
	for m, vs := range managers {
		if m == manager {
			continue
		}
		if c := vs.Set().Intersection(changed); !c.Empty() {
			conflicts[m] = smdpath.NewVersionedSet(c, vs.APIVersion(), false)
		}
	}
	return cmp, differs, conflicts, nil
}

// takeFields is the second half with force (or without conflicts): the conflicting fields
// leave their owners, the removed fields every manager but the writer, and empty entries
// go. It changes managers and returns them.
func takeFields(managers smdpath.ManagedFields, manager string, cmp *typed.Comparison, conflicts smdpath.ManagedFields) smdpath.ManagedFields {
	for m, c := range conflicts {
		vs := managers[m]
		managers[m] = smdpath.NewVersionedSet(vs.Set().Difference(c.Set()), vs.APIVersion(), vs.Applied())
	}
	if !cmp.Removed.Empty() {
		for m, vs := range managers {
			if m == manager {
				continue
			}
			managers[m] = smdpath.NewVersionedSet(vs.Set().Difference(cmp.Removed), vs.APIVersion(), vs.Applied())
		}
	}
	for m, vs := range managers {
		if vs.Set().Empty() {
			delete(managers, m)
		}
	}
	return managers
}

// keepsEverything reports whether the prune of an apply whose applier owned last and now
// owns set keeps the merged object whole (see the top of this file).
func keepsEverything(last, set *smdpath.Set, merged *typed.TypedValue, cfg map[string]any) bool {
	obj := merged.AsValue().Unstructured()
	sc, tr := merged.Schema(), merged.TypeRef()
	ok := last.Difference(set).Empty() && keepsATopField(last, sc, tr, obj)
	last.Iterate(func(p smdpath.Path) {
		if ok {
			ok = keyFieldsOwned(p, set, sc, tr) && collectedAgain(p, obj, cfg)
		}
	})
	return ok
}

// keepsATopField reports whether the prune's first walk, which removes every field of
// last and the named fields above them, leaves a field at the top of the merged object
// obj. When it leaves none, what is left is no object, which the updater fails to
// convert (errPrunedNotAnObject): that answer is the updater's to give.
func keepsATopField(last *smdpath.Set, sc *smdschema.Schema, tr smdschema.TypeRef, obj any) bool {
	m, _ := obj.(map[string]any)
	atom, _ := sc.Resolve(tr)
	for k := range m {
		name := k
		pe := smdpath.PathElement{FieldName: &name}
		if last.Members.Has(pe) {
			continue
		}
		if _, below := last.Children.Get(pe); below && atom.Map != nil {
			if _, named := atom.Map.FindField(k); named {
				continue
			}
		}
		return true
	}
	return false
}

// keyFieldsOwned reports whether no key of a keyed item on p can change when the fields
// nobody owns are removed: each key field is in set, or has a schema default equal to its
// value (a removed field reads as its default), and one at least is in set (the item keeps
// a field). p must have no index either.
func keyFieldsOwned(p smdpath.Path, set *smdpath.Set, sc *smdschema.Schema, tr smdschema.TypeRef) bool {
	for i, pe := range p {
		atom, ok := sc.Resolve(tr)
		if !ok {
			return false
		}
		switch {
		case pe.FieldName != nil:
			if atom.Map == nil {
				return false
			}
			tr = atom.Map.ElementType
			if sf, ok := atom.Map.FindField(*pe.FieldName); ok {
				tr = sf.Type
			}
			continue
		case pe.Index != nil || atom.List == nil:
			return false
		}
		tr = atom.List.ElementType
		if pe.Key == nil {
			continue // an item of a set: its path is its value
		}
		item, ok := sc.Resolve(tr)
		if !ok || item.Map == nil {
			return false
		}
		owned := false
		for _, k := range *pe.Key {
			name := k.Name
			kp := make(smdpath.Path, i+2)
			copy(kp, p[:i+1])
			kp[i+1] = smdpath.PathElement{FieldName: &name}
			if set.Has(kp) {
				owned = true
				continue
			}
			sf, _ := item.Map.FindField(name)
			if sf.Default == nil || !value.Equals(value.NewValueInterface(sf.Default), k.Value) {
				return false
			}
		}
		if !owned {
			return false
		}
	}
	return true
}

// collectedAgain reports whether the field at p is collected as itself whatever is
// removed below it: it is not an object with fields, or it is a list item, or the applied
// value is an object with fields too (an atomic object or a map's key).
func collectedAgain(p smdpath.Path, merged any, cfg map[string]any) bool {
	if len(p) == 0 {
		return false
	}
	if p[len(p)-1].FieldName == nil {
		return true // an item: collected by its key, value or index
	}
	v, found := fieldpath.ValueAt(merged, p)
	if !found {
		return false
	}
	if m, isMap := v.(map[string]any); !isMap || len(m) == 0 {
		return true
	}
	c, found := fieldpath.ValueAt(cfg, p)
	if !found {
		return false
	}
	m, isMap := c.(map[string]any)
	return isMap && len(m) > 0
}
