package merge

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// omittedKeyFields is how Kubernetes 1.33 (structured-merge-diff v4) types an element of an
// associative list that omits one of its key fields: it refuses it unless that field has a
// default ("associative list with keys has an element that omits key field …"). From 1.34
// (structured-merge-diff v6) the element is typed by the keys it has, and only one that
// omits them all is refused, which the engine's own typing does. It returns the errors the
// v4 typing lists (in a list, its first such element's first missing key in the keys' order, and the list no further), as
// structured-merge-diff's ValidationErrors prints them, or nil.
func omittedKeyFields(p typed.ParseableType, obj map[string]any) error {
	w := walkOmittedKeys(p, obj)
	switch len(w.errs) {
	case 0:
		return nil
	case 1:
		return errors.New(w.errs[0])
	}
	return errors.New(strings.Join(append([]string{"errors:"}, indent(w.errs)...), "\n"))
}

// keyWalk is what a walk of an object's associative lists found: the v4 typing's error for
// each list with an element omitting a key field, and for each such list (by its path) the
// paths of the elements before that one, as v6's errors name them (the keys it has and the
// defaults of those it omits, sorted by name): v4 types those elements, so their errors
// are reported too.
type keyWalk struct {
	errs   []string
	before map[string][]string
}

func walkOmittedKeys(p typed.ParseableType, obj map[string]any) *keyWalk {
	w := &keyWalk{before: map[string][]string{}}
	walkKeys(p.Schema, p.TypeRef, obj, nil, w)
	return w
}

// withOmittedKeyFields is the error of typing obj up to Kubernetes 1.33 when the engine's own
// typing (structured-merge-diff v6's, keys in order) failed with err: v4 reports, besides
// err's errors, each element omitting a key field (omittedKeyFields), and of that list only
// the errors of the elements before it (v4 types the elements in order and bails on the
// list at that one: v6's errors of the later elements, an element omitting all its keys
// included, are not v4's). The errors are listed in the order of their paths (the server's
// order is its walk's, which ranges over maps: internalError sorts the lines).
func withOmittedKeyFields(p typed.ParseableType, obj map[string]any, err error) error {
	w := walkOmittedKeys(p, obj)
	if len(w.errs) == 0 {
		return err
	}
	lines := w.errs
	for _, l := range errorLines(err.Error()) {
		path := errorPath(l)
		keep := true
		for list, before := range w.before { // every list holding it (they nest) must keep it
			if path == list || strings.HasPrefix(path, list+"[") {
				keep = keep && slices.ContainsFunc(before, func(e string) bool {
					rest, ok := strings.CutPrefix(path, e)
					return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
				})
			}
		}
		if keep {
			lines = append(lines, l)
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return errorPath(lines[i]) < errorPath(lines[j]) })
	if len(lines) == 1 {
		return errors.New(lines[0])
	}
	return errors.New(strings.Join(append([]string{"errors:"}, indent(lines)...), "\n"))
}

// errorLines are the errors of a ValidationErrors message: one, or the indented lines
// after "errors:".
func errorLines(msg string) []string {
	rest, ok := strings.CutPrefix(msg, "errors:\n")
	if !ok {
		return []string{msg}
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		out = append(out, strings.TrimPrefix(l, "  "))
	}
	return out
}

// errorPath is the path an error line starts with.
func errorPath(line string) string {
	path, _, _ := strings.Cut(line, ": ")
	return path
}

func indent(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "  " + l
	}
	return out
}

func walkKeys(s *smdschema.Schema, tr smdschema.TypeRef, v any, path smdpath.Path, w *keyWalk) {
	atom, ok := s.Resolve(tr)
	if !ok {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		if atom.Map == nil {
			return
		}
		for _, k := range unstructured.SortedKeys(t) {
			et := atom.Map.ElementType
			if sf, ok := atom.Map.FindField(k); ok {
				et = sf.Type
			} else if et == (smdschema.TypeRef{}) {
				// A field the schema does not declare: the typing reports it and walks this
				// map no further (the engine's typing walks keys in order, parseSorted).
				return
			}
			name := k
			walkKeys(s, et, t[k], append(path[:len(path):len(path)], smdpath.PathElement{FieldName: &name}), w)
		}
	case []any:
		if atom.List == nil {
			return
		}
		l := atom.List
		keyed := l.ElementRelationship == smdschema.Associative && len(l.Keys) > 0
		for i, e := range t {
			if keyed {
				if m, ok := e.(map[string]any); ok {
					if k, missing := missingKey(s, l, m); missing {
						// The v4 typing stops at the list's first such element.
						w.errs = append(w.errs, fmt.Sprintf("%s: element %d: associative list with keys has an element that omits key field %q (and doesn't have default value)", path, i, k))
						w.before[path.String()] = elementPaths(s, l, path, t[:i])
						return
					}
				}
			}
			idx := i
			walkKeys(s, l.ElementType, e, append(path[:len(path):len(path)], smdpath.PathElement{Index: &idx}), w)
		}
	}
}

// missingKey is the first key field of l that element m omits and whose field has no
// default.
func missingKey(s *smdschema.Schema, l *smdschema.List, m map[string]any) (string, bool) {
	et, ok := s.Resolve(l.ElementType)
	if !ok || et.Map == nil {
		return "", false
	}
	_, missing, ok := fieldpath.ItemKey(m, l.Keys, func(k string) bool {
		sf, ok := et.Map.FindField(k)
		return ok && sf.Default != nil
	})
	return missing, !ok
}

// elementPaths are the paths v6's typing gives the elements of associative list l at path:
// each element's key fields, those it omits at their defaults, sorted by name (elements
// that are not maps are left out: the typing names them by no key).
func elementPaths(s *smdschema.Schema, l *smdschema.List, path smdpath.Path, elems []any) []string {
	et, _ := s.Resolve(l.ElementType)
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		key := value.FieldList{}
		for _, name := range l.Keys {
			if v, ok := m[name]; ok {
				key = append(key, value.Field{Name: name, Value: value.NewValueInterface(v)})
			} else if et.Map != nil {
				if sf, ok := et.Map.FindField(name); ok && sf.Default != nil {
					key = append(key, value.Field{Name: name, Value: value.NewValueInterface(sf.Default)})
				}
			}
		}
		key.Sort()
		out = append(out, path.String()+smdpath.PathElement{Key: &key}.String())
	}
	return out
}
