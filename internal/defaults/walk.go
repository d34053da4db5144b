package defaults

import (
	"encoding/json"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// defaulterFunc hand-ports one upstream SetDefaults_<Type> function. It gets
// the encoded value of its type (a struct as map[string]any, or a named map)
// and changes it in place. It may leave values in a non-canonical form (e.g.
// int64 zero in an omitempty field): the final encoding pass fixes that.
type defaulterFunc func(m map[string]any)

// gatedDefaulterFunc is a defaulterFunc that consults feature gates: g holds their
// defaults at the minor being defaulted.
type gatedDefaulterFunc func(g *featureGates, m map[string]any)

// walker applies the defaulters that kube-apiserver runs for one root kind.
type walker struct {
	// packages whose SetDefaults_ functions and `+default=` markers the
	// root's group-version runs (its own package and its defaulter-gen
	// peers).
	packages packageSet
	// gates are the feature gates' defaults at the minor being defaulted.
	gates *featureGates
}

// walk visits v, the encoded value of type t, in the order defaulter-gen's
// generated code does: a struct's own defaulter first, then each field in
// declaration order (its `+default=` marker, then its own contents).
func (w *walker) walk(t int, v any) {
	td := &generatedTypes[t]
	switch td.kind {
	case kindPointer:
		if v != nil {
			w.walk(td.elem, v)
		}
	case kindSlice:
		items, _ := v.([]any)
		for _, item := range items {
			w.walk(td.elem, item)
		}
	case kindMap:
		m, _ := v.(map[string]any)
		if fn := w.defaulter(td); fn != nil && m != nil {
			fn(m)
		}
		if !hasDefaults(td.elem) {
			return
		}
		for _, item := range m {
			w.walk(td.elem, item)
		}
	case kindStruct:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if fn := w.defaulter(td); fn != nil {
			fn(m)
		}
		w.fields(td, m)
	}
}

func (w *walker) fields(td *typeDef, m map[string]any) {
	markers := w.packages.has(td.pkg())
	fields := td.fields()
	for i := range fields {
		f := &fields[i]
		if f.flags&inline != 0 {
			inner := &generatedTypes[f.typ]
			if fn := w.defaulter(inner); fn != nil {
				fn(m)
			}
			w.fields(inner, m)
			continue
		}
		marked := markers && f.marker() != ""
		if !marked && !hasDefaults(f.typ) {
			continue // a scalar without a marker: nothing to default
		}
		if marked {
			if e, err := roundTrip(f.typ, m[f.name()]); err == nil && e.zero {
				var v any
				if err := json.Unmarshal([]byte(f.marker()), &v); err == nil {
					m[f.name()] = jsonNumbers(v)
				}
			}
		}
		if v, ok := m[f.name()]; ok && v != nil {
			w.walk(f.typ, v)
		}
	}
}

// defaulter returns the defaulter of a type if the root kind runs it.
func (w *walker) defaulter(td *typeDef) defaulterFunc {
	if !w.packages.has(td.pkg()) {
		return nil
	}
	name := td.name()
	if fn, ok := defaulterFuncs()[name]; ok {
		return fn
	}
	if fn, ok := gatedDefaulterFuncs()[name]; ok {
		return func(m map[string]any) { fn(w.gates, m) }
	}
	return nil
}

// hasDefaults reports whether values of type t can be changed by defaulting;
// it lets the walker skip large maps of scalars.
func hasDefaults(t int) bool {
	switch generatedTypes[t].kind {
	case kindStruct, kindPointer, kindSlice, kindMap:
		return true
	}
	return false
}

// jsonNumbers turns the float64 numbers of encoding/json into int64 where
// they are whole, as the unstructured form uses.
func jsonNumbers(v any) any {
	switch x := v.(type) {
	case float64:
		if n, ok := unstructured.Int(x); ok {
			return n
		}
	case map[string]any:
		for k, e := range x {
			x[k] = jsonNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = jsonNumbers(e)
		}
	}
	return v
}
