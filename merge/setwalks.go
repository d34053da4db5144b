package merge

import (
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// This file holds structured-merge-diff's typed walks of field sets computed without its
// generic walkers, for the common case alone; anything else is left to
// structured-merge-diff itself, so the answers stay its own. FuzzSetWalks compares them
// with structured-merge-diff's on random objects and sets under real schemas.

// reconcileKeeps reports that typed.ReconcileFieldSetWithSchema(set, live) returns nil
// (nothing to change) without error: that walk reads only the set and the schema, and
// changes a set only where it goes below a field whose schema is an atomic map or list
// now. False when it may change the set or fail: the caller then asks it.
func reconcileKeeps(set *smdpath.Set, live *typed.TypedValue) bool {
	return reconcileKeepsAt(live.Schema(), live.TypeRef(), set, false)
}

// reconcileKeepsAt follows the reconciling walk at a node typed tr whose part of the set
// is set (nil for a member without children); atomic: the node is a member without
// children.
func reconcileKeepsAt(sc *smdschema.Schema, tr smdschema.TypeRef, set *smdpath.Set, atomic bool) bool {
	atom, found := sc.Resolve(tr)
	if !found {
		return false
	}
	// The walk takes a map, then a scalar, then a list, whatever the value.
	switch {
	case atom.Map != nil:
		t := atom.Map
		if isUntypedDeduced(t.ElementType) && t.Fields == nil {
			return true
		}
		if !atomic && t.ElementRelationship == smdschema.Atomic {
			return set == nil || set.Size() == 0
		}
		if set == nil {
			return true
		}
		return reconcileKeepsBelow(set, func(pe smdpath.PathElement) (smdschema.TypeRef, bool) {
			tr := t.ElementType
			if pe.FieldName != nil {
				if sf, ok := t.FindField(*pe.FieldName); ok {
					tr = sf.Type
				}
			}
			return tr, tr != smdschema.TypeRef{}
		}, sc)
	case atom.Scalar != nil:
		return true
	case atom.List != nil:
		t := atom.List
		if !atomic && t.ElementRelationship == smdschema.Atomic {
			return false
		}
		if set == nil {
			return true
		}
		return reconcileKeepsBelow(set, func(smdpath.PathElement) (smdschema.TypeRef, bool) { return t.ElementType, true }, sc)
	}
	return false
}

// reconcileKeepsBelow follows the walk into the children and members of set, each typed
// by typeOf (ok false: a field the schema does not know, which the walk skips).
func reconcileKeepsBelow(set *smdpath.Set, typeOf func(smdpath.PathElement) (smdschema.TypeRef, bool), sc *smdschema.Schema) bool {
	keeps := true
	set.Children.Iterate(func(pe smdpath.PathElement) {
		if !keeps || set.Members.Has(pe) {
			return
		}
		if tr, ok := typeOf(pe); ok {
			child, _ := set.Children.Get(pe)
			keeps = reconcileKeepsAt(sc, tr, child, false)
		}
	})
	set.Members.Iterate(func(pe smdpath.PathElement) {
		if !keeps {
			return
		}
		if tr, ok := typeOf(pe); ok {
			child, hasChildren := set.Children.Get(pe)
			keeps = reconcileKeepsAt(sc, tr, child, !hasChildren)
		}
	})
	return keeps
}

// isUntypedDeduced reports whether tr is structured-merge-diff's deduced type (the
// elements of a map that preserves unknown fields without naming any).
func isUntypedDeduced(tr smdschema.TypeRef) bool {
	if tr.NamedType != nil {
		return *tr.NamedType == "__untyped_deduced_"
	}
	return tr.Inlined.Scalar != nil && *tr.Inlined.Scalar == "untyped"
}
