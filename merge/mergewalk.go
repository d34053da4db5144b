package merge

import (
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// mergeValues is lhs.Merge(rhs) — the merge of an apply: the applied object laid over the
// live one, the applied value kept at every leaf — walked on the unstructured values
// themselves, without structured-merge-diff's value interfaces, allocator and walker
// pool. The result has structured-merge-diff's shape exactly: a new map or list for every
// granular map or list either side has, the sides' own values at the leaves (scalars,
// atomic and empty maps and lists, nulls), the items of a merged list in structured-merge-
// diff's order. ok is false, and the caller asks structured-merge-diff, for anything its
// walker would take otherwise than plainly: a value whose kind differs between the sides
// or that its schema does not allow, a list item twice or without its keys, a key that is
// not a plain scalar or a number beyond 2^53, a list that is not associative below a
// granular list type, a Go type unstructured JSON does not have. FuzzMergeWalk holds it
// to TypedValue.Merge.
func mergeValues(lhs, rhs *typed.TypedValue) (*typed.TypedValue, bool) {
	lt, rt := lhs.TypeRef(), rhs.TypeRef()
	if lhs.Schema() != rhs.Schema() || !lt.Equals(&rt) || lhs.AsValue() == nil || rhs.AsValue() == nil {
		return nil, false
	}
	w := mergeWalk{schema: lhs.Schema()}
	out, present, ok := w.node(lt, lhs.AsValue().Unstructured(), rhs.AsValue().Unstructured(), true, true)
	if !ok || !present {
		return nil, false
	}
	//lint:ignore SA1019 Merge does not validate its result either: it wraps it as it is
	return typed.AsTypedUnvalidated(value.NewValueInterface(out), lhs.Schema(), lt), true
}

type mergeWalk struct {
	schema *smdschema.Schema
}

// node merges the values l and r of one node typed tr; hasL and hasR tell a value present
// (null included) from an absent one, and one at least is present. present is false when
// the merge leaves the node out.
func (w *mergeWalk) node(tr smdschema.TypeRef, l, r any, hasL, hasR bool) (out any, present, ok bool) {
	atom, found := w.schema.Resolve(tr)
	if !found {
		return nil, false, false
	}
	var a smdschema.Atom
	switch {
	case !hasR:
		a, ok = deduced(atom, l)
	case !hasL:
		a, ok = deduced(atom, r)
	default:
		// Two atoms deduced otherwise are handled twice by structured-merge-diff: left
		// to it.
		al, okL := deduced(atom, l)
		ar, okR := deduced(atom, r)
		a, ok = ar, okL && okR && sameAtom(al, ar)
	}
	if !ok {
		return nil, false, false
	}
	switch {
	case a.Map != nil:
		lm, okL := asMap(l)
		rm, okR := asMap(r)
		if !okL || !okR {
			return nil, false, false
		}
		if a.Map.ElementRelationship == smdschema.Atomic || len(lm) == 0 && len(rm) == 0 {
			return leafOf(l, r, hasR), true, true
		}
		return w.mapItems(a.Map, lm, rm)
	case a.Scalar != nil:
		if hasL && !scalarFits(*a.Scalar, l) || hasR && !scalarFits(*a.Scalar, r) {
			return nil, false, false
		}
		return leafOf(l, r, hasR), true, true
	case a.List != nil:
		ll, okL := asList(l)
		rl, okR := asList(r)
		if !okL || !okR {
			return nil, false, false
		}
		if a.List.ElementRelationship == smdschema.Atomic || len(ll) == 0 && len(rl) == 0 {
			return leafOf(l, r, hasR), true, true
		}
		return w.items(a.List, ll, rl)
	}
	return nil, false, false
}

// leafOf is the merge of a leaf: the applied value when there is one, else the live one.
func leafOf(l, r any, hasR bool) any {
	if hasR {
		return r
	}
	return l
}

// sameAtom is a.Equals(&b), at once when both hold the same types.
func sameAtom(a, b smdschema.Atom) bool {
	if a.Map == b.Map && a.Scalar == b.Scalar && a.List == b.List {
		return true
	}
	return a.Equals(&b)
}

// mapItems merges two maps key by key into a new map.
func (w *mergeWalk) mapItems(t *smdschema.Map, l, r map[string]any) (any, bool, bool) {
	out := make(map[string]any, max(len(l), len(r)))
	for k, lv := range l {
		rv, hasR := r[k]
		v, present, ok := w.node(fieldType(t, k), lv, rv, true, hasR)
		if !ok {
			return nil, false, false
		}
		if present {
			out[k] = v
		}
	}
	for k, rv := range r {
		if _, hasL := l[k]; hasL {
			continue
		}
		v, present, ok := w.node(fieldType(t, k), nil, rv, false, true)
		if !ok {
			return nil, false, false
		}
		if present {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil, false, true
	}
	return out, true, true
}

// fieldType is the type of the field k of a map typed t.
func fieldType(t *smdschema.Map, k string) smdschema.TypeRef {
	if sf, ok := t.FindField(k); ok {
		return sf.Type
	}
	return t.ElementType
}

// items merges two associative lists into a new list. Its order is structured-merge-
// diff's: the applied list's order, each live item the applied list does not have kept
// where it stood among the items both have, and a live item the applied list has too
// but further on waiting for its place there.
func (w *mergeWalk) items(t *smdschema.List, l, r []any) (any, bool, bool) {
	if t.ElementRelationship != smdschema.Associative {
		return nil, false, false
	}
	elem, ok := keyedElem(w.schema, t)
	if !ok {
		return nil, false, false
	}
	lids, ok := itemIDsOf(t, elem, l)
	if !ok {
		return nil, false, false
	}
	rids, ok := itemIDsOf(t, elem, r)
	if !ok {
		return nil, false, false
	}
	// inR[i]: where the live item i is in the applied list, -1 when it is not; shared:
	// the applied items the live list has too, in the applied list's order.
	inR := make([]int, len(l))
	inL := make([]int, len(r))
	for j := range inL {
		inL[j] = -1
	}
	for i := range l {
		inR[i] = rids.find(lids.ids[i])
		if j := inR[i]; j >= 0 {
			inL[j] = i
		}
	}
	next := -1 // the next applied item the live list has too (its index in r)
	advance := func(from int) {
		next = -1
		for j := from; j < len(r); j++ {
			if inL[j] >= 0 {
				next = j
				return
			}
		}
	}
	advance(0)
	out := make([]any, 0, max(len(l), len(r)))
	emit := func(tr smdschema.TypeRef, lv, rv any, hasL, hasR bool) bool {
		v, present, ok := w.node(tr, lv, rv, hasL, hasR)
		if present {
			out = append(out, v)
		}
		return ok
	}
	for i, j := 0, 0; i < len(l) || j < len(r); {
		if i < len(l) && j < len(r) {
			if inR[i] == j {
				// The same item next on both sides.
				if !emit(t.ElementType, l[i], r[j], true, true) {
					return nil, false, false
				}
				i++
				j++
				advance(j)
				continue
			}
			if inR[i] >= 0 && next >= 0 && next != inR[i] {
				// A live item the applied list has further on: merged there.
				i++
				continue
			}
		}
		if i < len(l) {
			if inR[i] < 0 {
				if !emit(t.ElementType, l[i], nil, true, false) {
					return nil, false, false
				}
				i++
				continue
			}
			if inR[i] < j {
				i++ // merged already: every applied item before j is
			}
		}
		if j < len(r) {
			var lv any
			hasL := inL[j] >= 0
			if hasL {
				lv = l[inL[j]]
			}
			if !emit(t.ElementType, lv, r[j], hasL, true) {
				return nil, false, false
			}
			if next == j {
				advance(j + 1)
			}
			j++
		}
	}
	if len(out) == 0 {
		return nil, false, true
	}
	return out, true, true
}
