package gen

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// fieldType is the type of key k of a map of type m (a struct field, or the element type).
func fieldType(m *smdschema.Map, k string) (smdschema.TypeRef, bool) {
	if f, ok := m.FindField(k); ok {
		return f.Type, true
	}
	if m.ElementType.NamedType != nil || m.ElementType.Inlined != (smdschema.Atom{}) {
		return m.ElementType, true
	}
	return smdschema.TypeRef{}, false
}

func isKeyed(l *smdschema.List) bool {
	return l.ElementRelationship == smdschema.Associative && len(l.Keys) > 0
}

// Subset returns a random part of v (of type tr) that is itself a valid value: struct
// fields and map keys are kept with probability keep, list-map items too (with their key
// fields), set items too; atomic values are kept or dropped whole by their parent.
func (g *Generator) Subset(tr smdschema.TypeRef, v any, keep float64) any {
	return g.subset(tr, v, keep, "", 0)
}

func (g *Generator) subset(tr smdschema.TypeRef, v any, keep float64, path string, depth int) any {
	a := g.resolve(tr)
	switch t := v.(type) {
	case map[string]any:
		if a.Map == nil || a.Map.ElementRelationship == smdschema.Atomic {
			return unstructured.DeepCopy(v)
		}
		out := map[string]any{}
		for _, k := range sortedKeys(t) {
			ft, ok := fieldType(a.Map, k)
			if !ok {
				out[k] = unstructured.DeepCopy(t[k])
				continue
			}
			if depth == 0 && (k == "apiVersion" || k == "kind") {
				out[k] = t[k]
				continue
			}
			if path == "metadata" && (k == "name" || k == "namespace") {
				out[k] = t[k]
				continue
			}
			if g.rnd.Float64() < keep || (depth == 0 && k == "metadata") {
				out[k] = g.subset(ft, t[k], keep, join(path, k), depth+1)
			}
		}
		return out
	case []any:
		if a.List == nil || a.List.ElementRelationship == smdschema.Atomic {
			return unstructured.DeepCopy(v)
		}
		out := []any{}
		for _, item := range t {
			if g.rnd.Float64() >= keep {
				continue
			}
			if isKeyed(a.List) {
				sub := g.subset(a.List.ElementType, item, keep, path, depth+1)
				if sm, ok := sub.(map[string]any); ok {
					if im, ok := item.(map[string]any); ok {
						for _, k := range a.List.Keys {
							if kv, present := im[k]; present {
								sm[k] = unstructured.DeepCopy(kv)
							}
						}
					}
				}
				out = append(out, sub)
			} else {
				out = append(out, unstructured.DeepCopy(item))
			}
		}
		return out
	default:
		return v
	}
}

// Mutate returns v (of type tr) with random changes at about the given rate: scalars
// replaced, fields and items added or removed, list items reordered.
func (g *Generator) Mutate(tr smdschema.TypeRef, v any, rate float64, path string) any {
	g.budget = 6
	return g.mutate(tr, v, rate, path, 0)
}

func (g *Generator) mutate(tr smdschema.TypeRef, v any, rate float64, path string, depth int) any {
	a := g.resolve(tr)
	switch t := v.(type) {
	case map[string]any:
		if a.Map == nil {
			return unstructured.DeepCopy(v)
		}
		if a.Map.ElementRelationship == smdschema.Atomic && g.rnd.Float64() < rate {
			return g.value(tr, path, depth)
		}
		out := map[string]any{}
		for _, k := range sortedKeys(t) {
			ft, ok := fieldType(a.Map, k)
			switch {
			case !ok || (depth == 0 && (k == "apiVersion" || k == "kind")) || skipped(path, k):
				out[k] = unstructured.DeepCopy(t[k])
			case g.rnd.Float64() < rate/3:
				// dropped
			default:
				out[k] = g.mutate(ft, t[k], rate, join(path, k), depth+1)
			}
		}
		if g.rnd.Float64() < rate/2 && depth < maxDepth {
			g.addField(a.Map, out, path, depth)
		}
		return out
	case []any:
		if a.List == nil {
			return unstructured.DeepCopy(v)
		}
		if a.List.ElementRelationship == smdschema.Atomic {
			if g.rnd.Float64() < rate/2 {
				return g.value(tr, path, depth)
			}
			out := make([]any, len(t))
			for i, item := range t {
				out[i] = g.mutate(a.List.ElementType, item, rate, path, depth+1)
			}
			return out
		}
		out := []any{}
		for _, item := range t {
			if g.rnd.Float64() < rate/3 {
				continue
			}
			if isKeyed(a.List) {
				m := g.mutate(a.List.ElementType, item, rate, path, depth+1)
				restoreKeys(a.List, item, m)
				out = append(out, m)
			} else {
				out = append(out, unstructured.DeepCopy(item))
			}
		}
		if g.rnd.Float64() < rate/2 {
			var item any
			if isKeyed(a.List) {
				item = g.keyedItem(a.List, path, depth)
			} else {
				item = g.value(a.List.ElementType, path, depth+1)
			}
			if !g.containsIdentity(a.List, out, item) {
				out = append(out, item)
			}
		}
		if len(out) > 1 && g.rnd.Float64() < rate {
			g.rnd.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		}
		return out
	default:
		if g.rnd.Float64() < rate {
			return g.value(tr, path, depth)
		}
		return v
	}
}

// restoreKeys keeps the key fields of a list-map item as they were (a mutated key would
// make another item).
func restoreKeys(l *smdschema.List, from, to any) {
	fm, ok1 := from.(map[string]any)
	tm, ok2 := to.(map[string]any)
	if !ok1 || !ok2 {
		return
	}
	for _, k := range l.Keys {
		if v, ok := fm[k]; ok {
			tm[k] = unstructured.DeepCopy(v)
		} else {
			delete(tm, k)
		}
	}
}

func (g *Generator) containsIdentity(l *smdschema.List, items []any, item any) bool {
	id := g.identity(l, item)
	for _, it := range items {
		if g.identity(l, it) == id {
			return true
		}
	}
	return false
}

func (g *Generator) addField(m *smdschema.Map, out map[string]any, path string, depth int) {
	var free []smdschema.StructField
	for _, f := range g.fields(m) {
		if _, taken := out[f.Name]; taken {
			continue
		}
		if skipped(path, f.Name) || (depth == 0 && (f.Name == "apiVersion" || f.Name == "kind")) {
			continue
		}
		free = append(free, f)
	}
	if len(free) > 0 && (len(m.Fields) > 0) {
		f := free[g.rnd.Intn(len(free))]
		out[f.Name] = g.value(f.Type, join(path, f.Name), depth+1)
		return
	}
	if m.ElementType.NamedType != nil || m.ElementType.Inlined != (smdschema.Atom{}) {
		k := keyVocab[g.rnd.Intn(len(keyVocab))]
		if _, taken := out[k]; !taken {
			out[k] = g.value(m.ElementType, join(path, k), depth+1)
		}
	}
}

// Merge returns base with overlay laid over it as a client edits an object: struct fields
// and map keys merge, list-map items merge by key, sets unite, atomic values are replaced.
func (g *Generator) Merge(tr smdschema.TypeRef, base, overlay any) any {
	a := g.resolve(tr)
	switch o := overlay.(type) {
	case map[string]any:
		b, ok := base.(map[string]any)
		if !ok || a.Map == nil || a.Map.ElementRelationship == smdschema.Atomic {
			return unstructured.DeepCopy(overlay)
		}
		out := unstructured.DeepCopy(b).(map[string]any)
		for _, k := range sortedKeys(o) {
			ft, ok := fieldType(a.Map, k)
			if bv, present := out[k]; ok && present {
				out[k] = g.Merge(ft, bv, o[k])
			} else {
				out[k] = unstructured.DeepCopy(o[k])
			}
		}
		return out
	case []any:
		b, ok := base.([]any)
		if !ok || a.List == nil || a.List.ElementRelationship == smdschema.Atomic {
			return unstructured.DeepCopy(overlay)
		}
		out := unstructured.DeepCopy(b).([]any)
		for _, item := range o {
			id := g.identity(a.List, item)
			found := false
			for i, bi := range out {
				if g.identity(a.List, bi) == id {
					found = true
					if isKeyed(a.List) {
						out[i] = g.Merge(a.List.ElementType, bi, item)
					}
					break
				}
			}
			if !found {
				out = append(out, unstructured.DeepCopy(item))
			}
		}
		return out
	default:
		return overlay
	}
}

// Spot is one place in a value: a map key or a list index, with its type.
type Spot struct {
	Path []any // string keys and int indexes from the root
	Type smdschema.TypeRef
	// List is set for list-typed spots (the list's own schema).
	List *smdschema.List
	// Map is set for map-typed spots.
	Map *smdschema.Map
	// Key is set when the spot is a key field of a list-map item.
	Key bool
}

// Spots lists every non-root place in v, in a stable order.
func (g *Generator) Spots(tr smdschema.TypeRef, v any) []Spot {
	var out []Spot
	g.spots(tr, v, nil, nil, false, &out)
	return out
}

func (g *Generator) spots(tr smdschema.TypeRef, v any, at []any, keys []string, isKey bool, out *[]Spot) {
	a := g.resolve(tr)
	s := Spot{Path: append([]any{}, at...), Type: tr, Key: isKey}
	switch t := v.(type) {
	case map[string]any:
		if a.Map == nil {
			return
		}
		s.Map = a.Map
		if len(at) > 0 {
			*out = append(*out, s)
		}
		for _, k := range sortedKeys(t) {
			if ft, ok := fieldType(a.Map, k); ok {
				key := false
				for _, kk := range keys {
					key = key || kk == k
				}
				g.spots(ft, t[k], append(at, k), nil, key, out)
			}
		}
	case []any:
		if a.List == nil {
			return
		}
		s.List = a.List
		*out = append(*out, s)
		var itemKeys []string
		if isKeyed(a.List) {
			itemKeys = a.List.Keys
		}
		for i, item := range t {
			g.spots(a.List.ElementType, item, append(at, i), itemKeys, false, out)
		}
	default:
		if len(at) > 0 {
			*out = append(*out, s)
		}
	}
}

// Get returns the value at path in v.
func Get(v any, path []any) (any, bool) {
	cur := v
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			l, ok := cur.([]any)
			if !ok || k >= len(l) {
				return nil, false
			}
			cur = l[k]
		}
	}
	return cur, true
}

// Set replaces the value at path in v (which must exist up to its parent).
func Set(v any, path []any, x any) bool {
	if len(path) == 0 {
		return false
	}
	parent, ok := Get(v, path[:len(path)-1])
	if !ok {
		return false
	}
	switch k := path[len(path)-1].(type) {
	case string:
		m, ok := parent.(map[string]any)
		if !ok {
			return false
		}
		m[k] = x
	case int:
		l, ok := parent.([]any)
		if !ok || k >= len(l) {
			return false
		}
		l[k] = x
	}
	return true
}

// Delete removes the value at path from v; a list element is cut out of its list.
func Delete(v any, path []any) bool {
	if len(path) == 0 {
		return false
	}
	parent, ok := Get(v, path[:len(path)-1])
	if !ok {
		return false
	}
	switch k := path[len(path)-1].(type) {
	case string:
		m, ok := parent.(map[string]any)
		if !ok {
			return false
		}
		delete(m, k)
	case int:
		l, ok := parent.([]any)
		if !ok || k >= len(l) {
			return false
		}
		return Set(v, path[:len(path)-1], append(append([]any{}, l[:k]...), l[k+1:]...))
	}
	return true
}

// Duplicate adds a copy of an item to a random list-map or set in v (live objects may
// hold duplicates; apply configurations may not). It reports whether one was added.
func (g *Generator) Duplicate(tr smdschema.TypeRef, v any) bool {
	var lists []Spot
	for _, s := range g.Spots(tr, v) {
		if s.List != nil && s.List.ElementRelationship == smdschema.Associative {
			if l, _ := Get(v, s.Path); len(l.([]any)) > 0 {
				lists = append(lists, s)
			}
		}
	}
	if len(lists) == 0 {
		return false
	}
	s := lists[g.rnd.Intn(len(lists))]
	lv, _ := Get(v, s.Path)
	l := lv.([]any)
	item := unstructured.DeepCopy(l[g.rnd.Intn(len(l))])
	if isKeyed(s.List) && g.rnd.Intn(2) == 0 {
		if m, ok := item.(map[string]any); ok {
			mm := g.mutate(s.List.ElementType, m, 0.5, "", len(s.Path))
			restoreKeys(s.List, m, mm)
			item = mm
		}
	}
	at := g.rnd.Intn(len(l) + 1)
	nl := append(append(append([]any{}, l[:at]...), item), l[at:]...)
	return Set(v, s.Path, nl)
}

// DeepCopy copies a JSON-like value.
func DeepCopy(v any) any { return unstructured.DeepCopy(v) }
