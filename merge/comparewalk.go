package merge

import (
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// compareValues is lhs.Compare(rhs) — the fields rhs adds, removes and modifies, the
// typed comparison of structured-merge-diff's updater — walked on the unstructured values
// themselves, without its value interfaces, allocator and walker pool. ok is false, and the
// caller asks structured-merge-diff, for anything its walker would take otherwise than
// plainly: a value whose kind differs between the sides or that its schema does not allow,
// a list item twice or without its keys, a key that has no itemID (an object, a number
// beyond 2^53), an index into a plain list, a Go type unstructured JSON does not have.
// Items are matched by their itemIDs. FuzzSetWalks holds it to Compare.
func compareValues(lhs, rhs *typed.TypedValue) (*typed.Comparison, bool) {
	return compareMerged(lhs, rhs, nil)
}

// compareMerged is compareValues(lhs, rhs) where rhs may be mergeValues' merge of the
// applied object guide over lhs (nil: it is not): a field of a map guide lacks then holds
// in rhs a copy of lhs's value, which compares equal, so it is not walked (a live object's
// status, defaults and fields of other managers, most of it when the same object is applied
// again). Below a field guide holds as something else than a map, and in lists, every
// field is walked.
func compareMerged(lhs, rhs *typed.TypedValue, guide any) (*typed.Comparison, bool) {
	lt, rt := lhs.TypeRef(), rhs.TypeRef()
	if lhs.Schema() != rhs.Schema() || !lt.Equals(&rt) {
		return nil, false
	}
	w := compareWalk{
		schema: lhs.Schema(),
		cmp:    &typed.Comparison{Removed: smdpath.NewSet(), Modified: smdpath.NewSet(), Added: smdpath.NewSet()},
	}
	if !w.node(lhs.TypeRef(), lhs.AsValue().Unstructured(), rhs.AsValue().Unstructured(), true, true, guide) {
		return nil, false
	}
	return w.cmp, true
}

type compareWalk struct {
	schema *smdschema.Schema
	cmp    *typed.Comparison
	// steps lead to the node being compared; their path elements are made only when a
	// path is inserted (most nodes are equal and never are).
	steps []compareStep
	path  smdpath.Path
}

// compareStep is one step of the path of the node being compared: a field by its name,
// or an item of the associative list t (element type elem).
type compareStep struct {
	name string
	t    *smdschema.List
	elem *smdschema.Map
	item any
	// pe is the step's path element once made (made: true).
	pe   smdpath.PathElement
	made bool
}

// insert adds the path of the node being compared to s; ok is false when an item's path
// element cannot be made.
func (w *compareWalk) insert(s *smdpath.Set) bool {
	w.path = w.path[:0]
	for i := range w.steps {
		st := &w.steps[i]
		if !st.made {
			if st.t == nil {
				name := st.name
				st.pe = smdpath.PathElement{FieldName: &name}
			} else if pe, ok := itemPathElement(st.t, st.elem, st.item); ok {
				st.pe = pe
			} else {
				return false
			}
			st.made = true
		}
		w.path = append(w.path, st.pe)
	}
	s.Insert(w.path)
	return true
}

// node compares the values at the path of w.steps, typed tr; hasL and hasR tell a value present (null
// included) from an absent one.
func (w *compareWalk) node(tr smdschema.TypeRef, l, r any, hasL, hasR bool, guide any) bool {
	atom, found := w.schema.Resolve(tr)
	if !found {
		return false
	}
	var a smdschema.Atom
	switch {
	case !hasR:
		if a, found = deduced(atom, l); !found {
			return false
		}
	case !hasL:
		if a, found = deduced(atom, r); !found {
			return false
		}
	default:
		al, okL := deduced(atom, l)
		ar, okR := deduced(atom, r)
		if !okL || !okR || !sameAtom(al, ar) {
			return false
		}
		a = ar
	}
	leaf := false
	switch {
	case a.Map != nil:
		lm, okL := asMap(l)
		rm, okR := asMap(r)
		if !okL || !okR {
			return false
		}
		if a.Map.ElementRelationship == smdschema.Atomic || len(lm) == 0 && len(rm) == 0 {
			if !w.leaf(l, r, hasL, hasR) {
				return false
			}
			leaf = true
		} else if g, _ := guide.(map[string]any); !w.mapItems(a.Map, lm, rm, g) {
			return false
		}
	case a.Scalar != nil:
		if hasL && !scalarFits(*a.Scalar, l) || hasR && !scalarFits(*a.Scalar, r) {
			return false
		}
		if !w.leaf(l, r, hasL, hasR) {
			return false
		}
		leaf = true
	case a.List != nil:
		ll, okL := asList(l)
		rl, okR := asList(r)
		if !okL || !okR {
			return false
		}
		if a.List.ElementRelationship == smdschema.Atomic || len(ll) == 0 && len(rl) == 0 {
			if !w.leaf(l, r, hasL, hasR) {
				return false
			}
			leaf = true
		} else if !w.items(a.List, ll, rl) {
			return false
		}
	default:
		return false
	}
	if !leaf {
		if !hasL {
			return w.insert(w.cmp.Added)
		} else if !hasR {
			return w.insert(w.cmp.Removed)
		}
	}
	return true
}

// leaf compares a leaf (a scalar, an atomic or empty map or list) as a whole.
func (w *compareWalk) leaf(l, r any, hasL, hasR bool) bool {
	switch {
	case !hasL:
		return w.insert(w.cmp.Added)
	case !hasR:
		return w.insert(w.cmp.Removed)
	case !sameValue(r, l):
		return w.insert(w.cmp.Modified)
	}
	return true
}

// mapItems compares two maps key by key; guide is the applied object's map at this node
// when rhs is its merge over lhs (see compareMerged), else nil.
func (w *compareWalk) mapItems(t *smdschema.Map, l, r map[string]any, guide map[string]any) bool {
	visit := func(k string, lv, rv any, hasL, hasR bool, g any) bool {
		tr := t.ElementType
		if sf, ok := t.FindField(k); ok {
			tr = sf.Type
		}
		w.steps = append(w.steps, compareStep{name: k})
		ok := w.node(tr, lv, rv, hasL, hasR, g)
		w.steps = w.steps[:len(w.steps)-1]
		return ok
	}
	for k, lv := range l {
		var g any
		if guide != nil {
			var applied bool
			if g, applied = guide[k]; !applied {
				continue // rhs holds lhs's value, copied
			}
		}
		rv, hasR := r[k]
		if !visit(k, lv, rv, true, hasR, g) {
			return false
		}
	}
	for k, rv := range r {
		if _, hasL := l[k]; !hasL && !visit(k, nil, rv, false, true, nil) {
			return false
		}
	}
	return true
}

func (w *compareWalk) items(t *smdschema.List, l, r []any) bool {
	if t.ElementRelationship != smdschema.Associative {
		return false
	}
	elem, ok := keyedElem(w.schema, t)
	if !ok {
		return false
	}
	lids, ok := itemIDsOf(t, elem, l)
	if !ok {
		return false
	}
	rids, ok := itemIDsOf(t, elem, r)
	if !ok {
		return false
	}
	// The items of the left, then those of the right alone.
	for i := range l {
		j := rids.find(lids.ids[i])
		var rv any
		if j >= 0 {
			rv = r[j]
		}
		if !w.item(t, elem, l[i], rv, true, j >= 0) {
			return false
		}
	}
	for j := range r {
		if lids.find(rids.ids[j]) < 0 && !w.item(t, elem, nil, r[j], false, true) {
			return false
		}
	}
	return true
}

// item compares an item of an associative list t, found on the left when hasL (its path
// element then the left one's) and on the right when hasR.
func (w *compareWalk) item(t *smdschema.List, elem *smdschema.Map, l, r any, hasL, hasR bool) bool {
	v := l
	if !hasL {
		v = r
	}
	w.steps = append(w.steps, compareStep{t: t, elem: elem, item: v})
	ok := w.node(t.ElementType, l, r, hasL, hasR, nil)
	w.steps = w.steps[:len(w.steps)-1]
	return ok
}

// deduced is the part of atom that fits v, as structured-merge-diff deduces it: the map,
// list or scalar type for a value of that kind, the whole atom for a null or a value of a
// kind the atom does not have. ok is false for a Go type unstructured JSON does not have.
func deduced(atom smdschema.Atom, v any) (smdschema.Atom, bool) {
	switch v.(type) {
	case nil:
	case string, bool, int64, float64:
		if atom.Scalar != nil {
			return smdschema.Atom{Scalar: atom.Scalar}, true
		}
	case []any:
		if atom.List != nil {
			return smdschema.Atom{List: atom.List}, true
		}
	case map[string]any:
		if atom.Map != nil {
			return smdschema.Atom{Map: atom.Map}, true
		}
	default:
		return atom, false
	}
	return atom, true
}

// asMap is v as a map: nil when absent or null; ok is false for anything but a map.
func asMap(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case map[string]any:
		return x, true
	}
	return nil, false
}

// asList is v as a list: nil when absent or null; ok is false for anything but a list.
func asList(v any) ([]any, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case []any:
		return x, true
	}
	return nil, false
}

// scalarFits reports that structured-merge-diff's check of a scalar of type t finds
// nothing wrong with v (a null fits every type).
func scalarFits(t smdschema.Scalar, v any) bool {
	switch v.(type) {
	case nil:
		return true
	case string:
		return t == smdschema.String || t == smdschema.Untyped
	case bool:
		return t == smdschema.Boolean || t == smdschema.Untyped
	case int64, float64:
		return t == smdschema.Numeric || t == smdschema.Untyped
	}
	return false
}
