package crdvalidation

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// finalizerWarnings are the server's warnings about finalizers the write adds (all of them
// on a create): names that are not qualified names, and names without a domain or a path.
func finalizerWarnings(obj, old map[string]any) []string {
	added := map[string]bool{}
	for _, f := range finalizers(obj) {
		added[f] = true
	}
	for _, f := range finalizers(old) {
		delete(added, f)
	}
	names := make([]string, 0, len(added))
	for f := range added {
		names = append(names, f)
	}
	sort.Strings(names)
	const path = "metadata.finalizers"
	var out []string
	for _, f := range names {
		for _, msg := range utilvalidation.IsQualifiedName(f) {
			out = append(out, fmt.Sprintf("%s: %q: %s", path, f, msg))
		}
		if strings.Contains(f, "/") || standardFinalizer(f) {
			continue
		}
		if strings.Contains(f, ".") {
			out = append(out, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers", path, f))
		} else {
			out = append(out, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers", path, f))
		}
	}
	return out
}

func standardFinalizer(f string) bool {
	return f == metav1.FinalizerOrphanDependents || f == metav1.FinalizerDeleteDependents || f == "kubernetes"
}

func finalizers(obj map[string]any) []string {
	md, _ := obj["metadata"].(map[string]any)
	l, _ := md["finalizers"].([]any)
	out := make([]string, 0, len(l))
	for _, f := range l {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// listSetsAndMaps finds duplicates in x-kubernetes-list-type set and map lists below obj.
func listSetsAndMaps(p *field.Path, s *crdschema.Schema, obj map[string]any) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	var errs field.ErrorList
	keys := sortedKeys(obj)
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		for _, k := range keys {
			errs = append(errs, listSetsAndMapsValue(p.Key(k), s.AdditionalProperties.Schema, obj[k])...)
		}
	}
	if s.Properties != nil {
		for _, k := range keys {
			if sub, ok := s.Properties[k]; ok {
				errs = append(errs, listSetsAndMapsValue(p.Child(k), sub, obj[k])...)
			}
		}
	}
	return errs
}

func listSetsAndMapsValue(p *field.Path, s *crdschema.Schema, v any) field.ErrorList {
	switch v := v.(type) {
	case []any:
		return listSetsAndMapsList(p, s, v)
	case map[string]any:
		return listSetsAndMaps(p, s, v)
	}
	return nil
}

func listSetsAndMapsList(p *field.Path, s *crdschema.Schema, l []any) field.ErrorList {
	var errs field.ErrorList
	if s.XListType != nil {
		switch *s.XListType {
		case "set":
			dups, err := nonUnique(p, l)
			if err != nil {
				errs = append(errs, err)
			} else {
				for _, i := range dups {
					errs = append(errs, field.Duplicate(p.Index(i), l[i]))
				}
			}
		case "map":
			errs = append(errs, listMapDuplicates(p, s, l)...)
		}
	}
	if s.Items != nil {
		for i := range l {
			errs = append(errs, listSetsAndMapsValue(p.Index(i), s.Items, l[i])...)
		}
	}
	return errs
}

// nonUnique returns the index of the second occurrence of every value that occurs more than
// once (scalars compared as Go values, objects and lists by their JSON).
func nonUnique(p *field.Path, l []any) ([]int, *field.Error) {
	if len(l) <= 1 {
		return nil, nil
	}
	scalars := make(map[any]int, len(l))
	compounds := make(map[string]int, len(l))
	var out []int
	for i, x := range l {
		switch x.(type) {
		case map[string]any, []any:
			b, err := json.Marshal(x)
			if err != nil {
				return nil, field.Invalid(p.Index(i), x, "internal error")
			}
			n := compounds[string(b)]
			compounds[string(b)] = n + 1
			if n == 1 {
				out = append(out, i)
			}
		default:
			n := scalars[x]
			scalars[x] = n + 1
			if n == 1 {
				out = append(out, i)
			}
		}
	}
	return out, nil
}

type unspecifiedKey struct{}

func listMapDuplicates(p *field.Path, s *crdschema.Schema, l []any) field.ErrorList {
	for i, x := range l {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return field.ErrorList{field.Invalid(p.Index(i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(l) <= 1 {
		return nil
	}
	if len(s.XListMapKeys) == 1 {
		key := s.XListMapKeys[0]
		keys := make([]any, 0, len(l))
		for _, x := range l {
			m, _ := x.(map[string]any)
			k, ok := m[key]
			if !ok {
				keys = append(keys, unspecifiedKey{})
				continue
			}
			keys = append(keys, k)
		}
		dups, err := nonUnique(p, keys)
		if err != nil {
			return field.ErrorList{err}
		}
		var errs field.ErrorList
		for _, i := range dups {
			if keys[i] == (unspecifiedKey{}) {
				errs = append(errs, field.Duplicate(p.Index(i), map[string]interface{}{}))
			} else {
				errs = append(errs, field.Duplicate(p.Index(i), map[string]interface{}{key: keys[i]}))
			}
		}
		return errs
	}
	keys := make([]any, 0, len(l))
	for _, x := range l {
		k := map[string]interface{}{}
		m, _ := x.(map[string]any)
		for _, kf := range s.XListMapKeys {
			if v, ok := m[kf]; ok {
				k[kf] = v
			}
		}
		keys = append(keys, k)
	}
	dups, err := nonUnique(p, keys)
	if err != nil {
		return field.ErrorList{err}
	}
	var errs field.ErrorList
	for _, i := range dups {
		errs = append(errs, field.Duplicate(p.Index(i), keys[i]))
	}
	return errs
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
