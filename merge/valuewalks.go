package merge

import (
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// This file holds two of structured-merge-diff's walks of values computed on the
// unstructured values themselves, without its value interfaces and allocator: the
// validation that types an object (only its verdict: an object it cannot vouch for is
// typed by structured-merge-diff, whose errors are the ones reported) and the equality of
// two values. FuzzSetWalks compares both with structured-merge-diff's on random objects
// under real schemas.

// validates reports that typed.AsTyped(obj, sc, tr) validates obj without error, duplicates
// in associative lists allowed or not. False when it finds an error or meets what it does
// not know (a Go type unstructured JSON does not have, a type the schema cannot resolve,
// an item key without an itemID: an object, a number beyond 2^53):
// structured-merge-diff then validates, and reports the error if there is one.
func validates(sc *smdschema.Schema, tr smdschema.TypeRef, obj any, allowDuplicates bool) bool {
	v := validator{schema: sc, allowDuplicates: allowDuplicates}
	return v.node(tr, obj)
}

type validator struct {
	schema          *smdschema.Schema
	allowDuplicates bool
}

// node follows structured-merge-diff's validating walker at a value v typed tr: the atom
// of the schema that fits v's kind, or, when none does, the first of map, scalar and list
// (which refuses v).
func (w *validator) node(tr smdschema.TypeRef, v any) bool {
	atom, found := w.schema.Resolve(tr)
	if !found {
		return false
	}
	switch x := v.(type) {
	case nil:
		return atom.Map != nil || atom.Scalar != nil || atom.List != nil
	case string:
		return atom.Scalar != nil && (*atom.Scalar == smdschema.String || *atom.Scalar == smdschema.Untyped)
	case bool:
		return atom.Scalar != nil && (*atom.Scalar == smdschema.Boolean || *atom.Scalar == smdschema.Untyped)
	case int64, float64:
		return atom.Scalar != nil && (*atom.Scalar == smdschema.Numeric || *atom.Scalar == smdschema.Untyped)
	case map[string]any:
		if atom.Map == nil {
			return false
		}
		t := atom.Map
		for k, item := range x {
			tr := t.ElementType
			if sf, ok := t.FindField(k); ok {
				tr = sf.Type
			} else if (tr == smdschema.TypeRef{}) {
				return false
			}
			if !w.node(tr, item) {
				return false
			}
		}
		return true
	case []any:
		if atom.List == nil {
			return false
		}
		return w.items(atom.List, x)
	}
	return false
}

// items validates the items of a list: each typed by the element type, and in an
// associative list each with its key fields (or in a set a scalar) and, unless duplicates
// are allowed, no two with the same.
func (w *validator) items(t *smdschema.List, l []any) bool {
	if t.ElementRelationship != smdschema.Associative {
		for _, item := range l {
			if !w.node(t.ElementType, item) {
				return false
			}
		}
		return true
	}
	elem, ok := keyedElem(w.schema, t)
	if !ok {
		return false
	}
	if w.allowDuplicates {
		for _, item := range l {
			if _, ok := itemIDOf(t, elem, item); !ok {
				return false
			}
		}
	} else if _, ok := itemIDsOf(t, elem, l); !ok {
		return false
	}
	for _, item := range l {
		if !w.node(t.ElementType, item) {
			return false
		}
	}
	return true
}

// keyedElem is the element type of an associative list t when it has keys (nil for a set
// of scalars); ok is false when that type does not resolve to a map, which the walks leave
// to structured-merge-diff.
func keyedElem(sc *smdschema.Schema, t *smdschema.List) (elem *smdschema.Map, ok bool) {
	if len(t.Keys) == 0 {
		return nil, true
	}
	atom, found := sc.Resolve(t.ElementType)
	if !found || atom.Map == nil {
		return nil, false
	}
	return atom.Map, true
}

// itemPathElement is the path element of an item of an associative list t, whose
// element type is elem when it has keys: its key fields, present or defaulted, sorted
// by name; in a set its value. ok is false where structured-merge-diff fails (an item
// with none of its keys, a set item that is not a scalar) and for Go types unstructured
// JSON does not have.
func itemPathElement(t *smdschema.List, elem *smdschema.Map, item any) (pe smdpath.PathElement, ok bool) {
	if len(t.Keys) > 0 {
		m, isMap := item.(map[string]any)
		if !isMap {
			return pe, false
		}
		keys := make(value.FieldList, 0, len(t.Keys))
		for _, name := range t.Keys {
			if v, found := m[name]; found {
				keys = append(keys, value.Field{Name: name, Value: value.NewValueInterface(v)})
			} else if sf, _ := elem.FindField(name); sf.Default != nil {
				keys = append(keys, value.Field{Name: name, Value: value.NewValueInterface(sf.Default)})
			}
		}
		if len(keys) == 0 {
			return pe, false
		}
		keys.Sort()
		pe.Key = &keys
		return pe, true
	}
	switch item.(type) {
	case string, bool, int64, float64:
	default:
		return pe, false
	}
	v := value.NewValueInterface(item)
	pe.Value = &v
	return pe, true
}

// sameValue is value.Equals of two unstructured values: numbers equal as numbers (an
// integer and a float alike), a map and a list by their entries (a nil one and an empty
// one alike), anything else as structured-merge-diff compares it.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			if len(x) != len(y) {
				return false
			}
			for k, v := range x {
				w, found := y[k]
				if !found || !sameValue(v, w) {
					return false
				}
			}
			return true
		}
	case []any:
		if y, ok := b.([]any); ok {
			if len(x) != len(y) {
				return false
			}
			for i := range x {
				if !sameValue(x[i], y[i]) {
					return false
				}
			}
			return true
		}
	case string:
		if y, ok := b.(string); ok {
			return x == y
		}
	case bool:
		if y, ok := b.(bool); ok {
			return x == y
		}
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return float64(x) == y
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int64:
			return x == float64(y)
		}
	case nil:
		if b == nil {
			return true
		}
	}
	return value.Equals(value.NewValueInterface(a), value.NewValueInterface(b))
}
