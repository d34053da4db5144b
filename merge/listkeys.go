package merge

import (
	"errors"
	"fmt"
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
				continue
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
