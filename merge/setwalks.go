package merge

import (
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// This file holds two of structured-merge-diff's typed walks computed without its generic
// walkers (a walker per level from a pool, a value interface and an allocator per node,
// the full path inserted from the root for every field), for the common case alone:
// the field set of an applied configuration, and whether reconciling a set with the
// schema keeps it. Anything else is left to structured-merge-diff itself, so the answers
// stay its own. FuzzSetWalks compares both with structured-merge-diff's on random objects
// and sets under real schemas.

// fieldSetOf is tv.ToFieldSet() for an object without duplicates in its associative
// lists (an applied configuration, the merged object of an apply, as a rule): the set of
// its fields, built one level at a time. ok is false — and the
// caller asks structured-merge-diff — for anything its walker would take otherwise than
// plainly: a value of a kind its schema does not allow, a keyed item without any key or
// a list item twice (found by itemIDs: a key without one, an object or a number beyond
// 2^53, is left to it too), an index into a plain list, a value of a Go type unstructured
// JSON does not have.
func fieldSetOf(tv *typed.TypedValue) (set *smdpath.Set, ok bool) {
	obj, isMap := tv.AsValue().Unstructured().(map[string]any)
	if !isMap || obj == nil {
		return nil, false
	}
	sc := tv.Schema()
	atom, found := sc.Resolve(tv.TypeRef())
	if !found || atom.Map == nil || atom.Map.ElementRelationship == smdschema.Atomic {
		return nil, false
	}
	w := setWalker{schema: sc}
	set = &smdpath.Set{}
	if !w.mapItems(set, atom.Map, obj) {
		return nil, false
	}
	return set, true
}

type setWalker struct {
	schema *smdschema.Schema
}

// node adds to parent what structured-merge-diff's ToFieldSet adds for v, found at
// parent's child pe and typed tr: a member pe for a leaf (a scalar, an atomic map or list,
// a null), its fields or items below pe for a granular map or list.
func (w *setWalker) node(parent *smdpath.Set, pe smdpath.PathElement, tr smdschema.TypeRef, v any) bool {
	atom, found := w.schema.Resolve(tr)
	if !found {
		return false
	}
	switch x := v.(type) {
	case nil:
		// Every handler of a null is a leaf or adds nothing; the map holding it adds the
		// member itself, and a list item cannot be null here (see items).
		if atom.Map == nil && atom.Scalar == nil && atom.List == nil {
			return false
		}
		if atom.Map != nil {
			if atom.Map.ElementRelationship == smdschema.Atomic {
				parent.Members.Insert(pe)
			}
			return true
		}
		if atom.Scalar != nil || atom.List.ElementRelationship == smdschema.Atomic {
			parent.Members.Insert(pe)
		}
		return true
	case string, bool, int64, float64:
		if atom.Scalar == nil {
			return false
		}
		parent.Members.Insert(pe)
		return true
	case map[string]any:
		if atom.Map == nil {
			return false
		}
		if atom.Map.ElementRelationship == smdschema.Atomic {
			parent.Members.Insert(pe)
			return true
		}
		if x == nil {
			return true
		}
		child := smdpath.Set{}
		if !w.mapItems(&child, atom.Map, x) {
			return false
		}
		if !child.Empty() {
			*parent.Children.Descend(pe) = child
		}
		return true
	case []any:
		if atom.List == nil {
			return false
		}
		if atom.List.ElementRelationship == smdschema.Atomic {
			parent.Members.Insert(pe)
			return true
		}
		if x == nil {
			return true
		}
		child := smdpath.Set{}
		if !w.items(&child, atom.List, x) {
			return false
		}
		if !child.Empty() {
			*parent.Children.Descend(pe) = child
		}
		return true
	}
	return false
}

// mapItems adds the fields of a granular map to set, the set at the map's own path: a
// field of the schema with a value that is a null or an empty map, and every field the
// schema does not name, are members besides what their values add.
func (w *setWalker) mapItems(set *smdpath.Set, t *smdschema.Map, m map[string]any) bool {
	for k, v := range m {
		name := k
		pe := smdpath.PathElement{FieldName: &name}
		tr := t.ElementType
		sf, known := t.FindField(k)
		if known {
			tr = sf.Type
		}
		if !w.node(set, pe, tr, v) {
			return false
		}
		if !known {
			set.Members.Insert(pe)
			continue
		}
		switch x := v.(type) {
		case nil:
			set.Members.Insert(pe)
		case map[string]any:
			if len(x) == 0 {
				set.Members.Insert(pe)
			}
		}
	}
	return true
}

// items adds the items of an associative list to set, the set at the list's own path:
// each item is a member, found by its key fields or, in a set, by its value.
func (w *setWalker) items(set *smdpath.Set, t *smdschema.List, l []any) bool {
	if t.ElementRelationship != smdschema.Associative {
		return false
	}
	keyDefaults, ok := keyedElem(w.schema, t)
	if !ok {
		return false
	}
	if _, ok := itemIDsOf(t, keyDefaults, l); !ok {
		return false // an item twice, or one without its keys
	}
	for _, item := range l {
		pe, ok := itemPathElement(t, keyDefaults, item)
		if !ok {
			return false
		}
		if !w.node(set, pe, t.ElementType, item) {
			return false
		}
		set.Members.Insert(pe)
	}
	return true
}

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
