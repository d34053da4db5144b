package merge

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// omittedKeyFields is how Kubernetes 1.33 (structured-merge-diff v4) types an element of an
// associative list that omits one of its key fields: it refuses it unless that field has a
// default ("associative list with keys has an element that omits key field …"). From 1.34
// (structured-merge-diff v6) the element is typed by the keys it has, and only one that
// omits them all is refused, which the engine's own typing does. It returns the errors the
// v4 typing lists (in a list, its first such element's first missing key in the keys' order, and the list no further), as
// structured-merge-diff's ValidationErrors prints them, or nil.
func omittedKeyFields(p typed.ParseableType, obj map[string]any) error {
	var errs []string
	walkKeys(p.Schema, p.TypeRef, obj, nil, &errs)
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errors.New(errs[0])
	}
	return errors.New(strings.Join(append([]string{"errors:"}, indent(errs)...), "\n"))
}

// withOmittedKeyFields is the error of typing obj up to Kubernetes 1.33 when the engine's own
// typing (structured-merge-diff v6's, keys in order) failed with err: v4 reports, besides
// err's errors, each element omitting a key field (omittedKeyFields), and nothing else of
// that list (v4 bails on it: v6's errors within it, an element omitting all its keys
// included, are not v4's). The errors are listed in the order of their paths, as a walk of
// the keys in order meets them.
func withOmittedKeyFields(p typed.ParseableType, obj map[string]any, err error) error {
	kerr := omittedKeyFields(p, obj)
	if kerr == nil {
		return err
	}
	keyLines := errorLines(kerr.Error())
	var lists []string
	for _, l := range keyLines {
		lists = append(lists, errorPath(l))
	}
	lines := keyLines
	for _, l := range errorLines(err.Error()) {
		path := errorPath(l)
		within := false
		for _, list := range lists {
			if path == list || strings.HasPrefix(path, list+"[") {
				within = true
				break
			}
		}
		if !within {
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

func walkKeys(s *smdschema.Schema, tr smdschema.TypeRef, v any, path smdpath.Path, errs *[]string) {
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
			walkKeys(s, et, t[k], append(path[:len(path):len(path)], smdpath.PathElement{FieldName: &name}), errs)
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
						*errs = append(*errs, fmt.Sprintf("%s: element %d: associative list with keys has an element that omits key field %q (and doesn't have default value)", path, i, k))
						return
					}
				}
			}
			idx := i
			walkKeys(s, l.ElementType, e, append(path[:len(path):len(path)], smdpath.PathElement{Index: &idx}), errs)
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
