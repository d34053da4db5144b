package schema

import (
	"slices"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema/builtin"
)

// This file answers a request for a kind the server does not serve with what was most
// likely meant: the same kind spelt in another case (configmap), a kind a letter or two
// away (Deploymnet), the group that has the kind (app/v1 for apps/v1).

// Suggest returns the served kinds a request for gvk most likely meant, best first: the
// same name in another case or another group, then names at most two edits away
// (case-insensitive), those of gvk's group before the others. Each is at the version the
// server prefers. It returns nil when the registry serves gvk, or knows nothing near it.
func (r *Registry) Suggest(gvk GVK) []GVK {
	if t, ok := r.current(gvk); ok && t.Served {
		return nil
	}
	type candidate struct {
		gvk  GVK
		rank int
	}
	var found []candidate
	want := strings.ToLower(gvk.Kind)
	for _, gk := range r.kinds() {
		preferred, ok := r.preferredServed(r.versionsOf(gk.group, gk.kind))
		if !ok {
			continue
		}
		name := strings.ToLower(gk.kind)
		var rank int
		switch {
		case gk.kind == gvk.Kind && gk.group != gvk.Group:
			rank = 0 // the group is the mistake
		case name == want && gk.group == gvk.Group:
			rank = 1 // the case is
		case name == want:
			rank = 2
		default:
			d := editDistance(name, want, 2)
			if d > 2 || len(want) < 4 {
				continue
			}
			rank = 2 + 2*d
			if gk.group != gvk.Group {
				rank++
			}
		}
		if gk.group == gvk.Group && gk.kind == gvk.Kind && preferred == gvk {
			continue
		}
		found = append(found, candidate{preferred, rank})
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.gvk.Group != b.gvk.Group {
			return a.gvk.Group < b.gvk.Group
		}
		return a.gvk.Kind < b.gvk.Kind
	})
	var out []GVK
	for _, c := range found {
		if len(out) == 3 {
			break
		}
		out = append(out, c.gvk)
	}
	return out
}

// preferredServed is the version of a kind the server prefers among those it serves.
func (r *Registry) preferredServed(versions []GVK) (GVK, bool) {
	for _, v := range versions {
		if t, ok := r.current(v); ok && t.Served && t.Resource != "" {
			return v, true
		}
	}
	return GVK{}, false
}

// kinds are the kinds the registry knows, built-in and added, each once.
func (r *Registry) kinds() []groupKind {
	var out []groupKind
	for i := range builtin.KindPositions() {
		k, ok := r.release.KindAt(i)
		if gk := (groupKind{k.Group, k.Kind}); ok && (len(out) == 0 || out[len(out)-1] != gk) {
			out = append(out, gk)
		}
	}
	for gk := range r.versions {
		if !slices.Contains(out, gk) {
			out = append(out, gk)
		}
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, or max+1 once it exceeds max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
