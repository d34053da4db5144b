package merge

import (
	"github.com/ssa-diff/ssa-diff/schema"
)

// Empty lists of a write (rules.md valid.builtin). The server decodes an empty JSON list of a
// built-in object into an empty, non-nil Go slice and keeps it through defaulting,
// conversion, its registry rules and validation; only storage, which is protobuf, turns it
// into nil. Package defaults models the object as stored, so it drops them: its validators
// would see nil, and print "Invalid value: null" where the server prints "[]". The engine
// notes where the merged object had them before defaulting, puts them back for validation
// where the registry step left the field unset (not in what the write's strategy takes
// from the stored object: the status of a main-resource write to a kind with a status
// subresource, all but the status of a /status write), and takes them out again for the
// object it predicts.

// emptyAt is the path of an empty list.
type emptyAt struct {
	path []step
	// null: the defaulted object held null there (a field without omitempty), else nothing.
	null bool
}

// emptyCollections lists the empty lists of a built-in object outside its metadata; nil
// when there are none. Empty maps are left out: without the Go types an empty map cannot be
// told from an empty struct ("resources": {}, which defaulting keeps), every object has
// some, and an empty map is seldom what a 422 prints.
// step is a map key, or a list index when index >= 0.
type step struct {
	key   string
	index int
}

func emptyCollections(t *schema.Type, obj map[string]any) []emptyAt {
	if t == nil || t.Source != schema.SourceBuiltin {
		return nil
	}
	var out []emptyAt
	var walk func(v any, path []step)
	walk = func(v any, path []step) {
		switch x := v.(type) {
		case map[string]any:
			for k, item := range x {
				if len(path) == 0 && k == "metadata" {
					continue
				}
				walk(item, append(path, step{key: k, index: -1}))
			}
		case []any:
			if len(x) == 0 {
				out = append(out, emptyAt{path: append([]step(nil), path...)})
				return
			}
			for i, item := range x {
				walk(item, append(path, step{index: i}))
			}
		}
	}
	walk(obj, make([]step, 0, 16))
	return out
}

// restoreEmpties puts back into obj, the object about to be validated, the empty lists
// that defaulting dropped from the part of it the write sets (where defaulting or the
// registry filled in a value, the value stays); it returns those it put back.
func (r *request) restoreEmpties(obj map[string]any, empties []emptyAt) []emptyAt {
	var put []emptyAt
	for _, e := range empties {
		if !r.sets(e.path) {
			continue
		}
		parent, key, ok := parentOf(obj, e.path)
		if !ok {
			continue
		}
		cur, has := parent[key]
		if has && cur != nil {
			continue
		}
		e.null = has
		parent[key] = []any{}
		put = append(put, e)
	}
	return put
}

// sets reports whether the write sets the part of the object at path, rather than the
// strategy taking it from the stored object.
func (r *request) sets(path []step) bool {
	inStatus := path[0].index < 0 && path[0].key == "status"
	switch r.ep.Subresource {
	case "":
		return !inStatus || !r.typ.Status
	case "status":
		return inStatus
	case "resize":
		return path[0].index < 0 && path[0].key == "spec"
	case "ephemeralcontainers":
		return len(path) > 1 && path[0].index < 0 && path[0].key == "spec" && path[1].index < 0 && path[1].key == "ephemeralContainers"
	}
	return false
}

// dropEmpties takes out of obj again what restoreEmpties put back, where it is still an
// empty list (the registry rules may have replaced or removed it).
func dropEmpties(obj map[string]any, put []emptyAt) {
	for _, e := range put {
		parent, key, ok := parentOf(obj, e.path)
		if !ok {
			continue
		}
		if l, ok := parent[key].([]any); !ok || len(l) != 0 {
			continue
		}
		if e.null {
			parent[key] = nil
		} else {
			delete(parent, key)
		}
	}
}

// parentOf finds the map holding the last step of path (a map key) in obj.
func parentOf(obj map[string]any, path []step) (map[string]any, string, bool) {
	if len(path) == 0 || path[len(path)-1].index >= 0 {
		return nil, "", false // an empty list item: defaulting keeps list items
	}
	var cur any = obj
	for _, s := range path[:len(path)-1] {
		if s.index < 0 {
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, "", false
			}
			cur = m[s.key]
			continue
		}
		l, ok := cur.([]any)
		if !ok || s.index >= len(l) {
			return nil, "", false
		}
		cur = l[s.index]
	}
	m, ok := cur.(map[string]any)
	return m, path[len(path)-1].key, ok
}
