package judge

import (
	"sort"
	"strconv"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// KeepLive is manifest as Argo CD syncs it with the sync option
// RespectIgnoreDifferences=true: every field an ignore path of oi names holds its live
// value, and is left out where the live object has none (a create: the manifest as it
// is). The paths are resolved on both objects (wildcards too); a live value whose parent
// the manifest lacks is set with its parents as maps, and one inside a list the manifest
// lacks or holds fewer items of is not set. The ignored managers' fields are not taken
// (HasManagers says whether oi has any). manifest is not changed: the answer is a copy, or
// manifest itself when nothing applies.
func (oi *ObjectIgnore) KeepLive(manifest, live map[string]any) map[string]any {
	if oi == nil || len(oi.paths) == 0 || live == nil || manifest == nil {
		return manifest
	}
	out := unstructured.DeepCopyObject(manifest)
	for _, p := range oi.paths {
		// The manifest's fields first, the last positions first (removing an item moves
		// those after it)...
		var drop [][]string
		matches(out, p.segs, nil, func(toks []string, _ any) { drop = append(drop, toks) })
		sort.Slice(drop, func(i, j int) bool { return tokensAfter(drop[i], drop[j]) })
		for _, toks := range drop {
			removeAt(out, toks)
		}
		// ...then the live values.
		matches(live, p.segs, nil, func(toks []string, v any) {
			setAt(out, toks, unstructured.DeepCopy(v))
		})
	}
	return out
}

// HasManagers reports whether oi hides the fields of managers (managedFieldsManagers).
func (oi *ObjectIgnore) HasManagers() bool { return oi != nil && len(oi.managers) > 0 }

// matches calls f with the pointer tokens and value of each field of v that segs names.
func matches(v any, segs []ignoreSeg, at []string, f func([]string, any)) {
	if len(segs) == 0 {
		f(append([]string(nil), at...), v)
		return
	}
	s := segs[0]
	switch c := v.(type) {
	case map[string]any:
		if !s.wildcard {
			if x, ok := c[s.token]; ok {
				matches(x, segs[1:], append(at, s.token), f)
			}
			return
		}
		for _, k := range unstructured.SortedKeys(c) {
			matches(c[k], segs[1:], append(at, k), f)
		}
	case []any:
		for i, x := range c {
			if s.wildcard || s.token == strconv.Itoa(i) {
				matches(x, segs[1:], append(at, strconv.Itoa(i)), f)
			}
		}
	}
}

// removeAt removes the field at toks of obj (a list item is cut out of its list).
func removeAt(obj map[string]any, toks []string) {
	if len(toks) == 0 {
		return
	}
	var parent any = obj
	for _, t := range toks[:len(toks)-1] {
		parent = child(parent, t)
	}
	last := toks[len(toks)-1]
	switch c := parent.(type) {
	case map[string]any:
		delete(c, last)
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(c) {
			return
		}
		// The list is held by its parent: write the shorter list back.
		shorter := append(append([]any(nil), c[:i]...), c[i+1:]...)
		setAt(obj, toks[:len(toks)-1], shorter)
	}
}

// setAt sets the field at toks of obj to v, making the maps on the way; it sets nothing
// through a list the object lacks or whose item is missing.
func setAt(obj map[string]any, toks []string, v any) {
	var cur any = obj
	for i, t := range toks {
		lastStep := i == len(toks)-1
		switch c := cur.(type) {
		case map[string]any:
			if lastStep {
				c[t] = v
				return
			}
			next, ok := c[t]
			if !ok || next == nil {
				if _, err := strconv.Atoi(toks[i+1]); err == nil {
					return // a list the manifest lacks: no position to set
				}
				next = map[string]any{}
				c[t] = next
			}
			cur = next
		case []any:
			j, err := strconv.Atoi(t)
			if err != nil || j < 0 || j >= len(c) {
				return
			}
			if lastStep {
				c[j] = v
				return
			}
			cur = c[j]
		default:
			return
		}
	}
}

// child is the value at one pointer token of v (nil when none).
func child(v any, tok string) any {
	switch c := v.(type) {
	case map[string]any:
		return c[tok]
	case []any:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(c) {
			return c[i]
		}
	}
	return nil
}
