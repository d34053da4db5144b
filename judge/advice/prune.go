package advice

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// coOwnedKept: fields the applier applied before and no longer applies that stay in the
// object because another manager still owns them (rules.md prune.when, prune.co-owner-keeps). The applier expects them
// gone; they are not.
func (a *analysis) coOwnedKept() {
	if a.after == nil {
		return
	}
	released := leavesNotIn(setOf(a.before, a.self), setOf(a.afterFields, a.self))
	if len(released) == 0 {
		return
	}
	// Group the kept fields by the set of managers keeping them.
	type group struct {
		owners []string
		paths  []string
	}
	var groups []*group
	byOwners := map[string]*group{}
	for _, p := range released {
		if !present(a.after, p) {
			continue
		}
		var owners []string
		for _, key := range sortedKeys(a.afterFields) {
			if key != a.self && setOf(a.afterFields, key).Has(p) {
				owners = append(owners, a.afterFields.Ref(key).Manager)
			}
		}
		if len(owners) == 0 {
			continue // defaulted again, owned by nobody (rules.md prune.defaults-return)
		}
		owners = unique(owners)
		k := strings.Join(owners, "\x00")
		g, ok := byOwners[k]
		if !ok {
			g = &group{owners: owners}
			byOwners[k] = g
			groups = append(groups, g)
		}
		g.paths = append(g.paths, fieldpath.PathString(p))
	}
	for _, g := range groups {
		a.add(Advice{ID: IDCoOwnedFieldKept, Severity: SeverityInfo,
			Message: fmt.Sprintf("the manifest no longer sets %s, but %s %s: %s still %s %s",
				listPaths(g.paths), plural(len(g.paths), "it stays", "they stay"), "in the object", quoteAll(g.owners), plural(len(g.owners), "owns", "own"), plural(len(g.paths), "it", "them")),
			Fix: fmt.Sprintf("to remove %s, %s must stop applying %s too (or take %s over with %s, then drop %s)",
				plural(len(g.paths), "it", "them"), quoteAll(g.owners), plural(len(g.paths), "it", "them"), plural(len(g.paths), "it", "them"), a.forceHint(), plural(len(g.paths), "it", "them")),
			Paths: g.paths, Managers: g.owners})
	}
}

// itemsRemoved: list items the applier dropped that the write deletes although another
// manager owns a field inside them (rules.md prune.item-needs-item-owner). Owning a sub-field does not keep an item;
// only owning the item itself does.
func (a *analysis) itemsRemoved() {
	if a.after == nil || a.live == nil {
		return
	}
	mine := setOf(a.before, a.self)
	if mine.Empty() {
		return // the applier owned no item: it drops none
	}
	type removal struct {
		item     smdpath.Path
		managers []string
		inside   []string
	}
	var list []*removal
	byItem := map[string]*removal{}
	for _, key := range sortedKeys(a.before) {
		if key == a.self {
			continue
		}
		ref := a.before.Ref(key)
		owned := setOf(a.before, key)
		removedLeaves(owned, a.live, a.after, func(p smdpath.Path) {
			item, ok := removedItem(a.live, a.after, p)
			if !ok || len(item) == len(p) || owned.Has(item) || !mine.Has(item) {
				return
			}
			k := item.String()
			r, ok := byItem[k]
			if !ok {
				r = &removal{item: item.Copy()}
				byItem[k] = r
				list = append(list, r)
			}
			r.managers = unique(append(r.managers, ref.Manager))
			r.inside = append(r.inside, fieldpath.PathString(p))
		})
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].item.String() < list[j].item.String() })
	for _, r := range list {
		item := fieldpath.PathString(r.item)
		rel := make([]string, len(r.inside))
		for i, p := range r.inside {
			rel[i] = strings.TrimPrefix(p, item)
		}
		a.add(Advice{ID: IDItemRemovedDespiteCoOwner, Severity: SeverityWarning,
			Message: fmt.Sprintf("dropping %s from the manifest deletes the whole item, although %s %s %s inside it: owning a field of an item does not keep the item",
				item, quoteAll(r.managers), plural(len(r.managers), "owns", "own"), listPaths(rel)),
			Fix: fmt.Sprintf("to keep the item, keep it in the manifest (its key fields are enough) or have %s apply the whole item; to delete it, agree with %s first",
				quoteAll(r.managers), quoteAll(r.managers)),
			Paths: append([]string{item}, r.inside...), Managers: r.managers})
	}
}

// removedLeaves calls f with each leaf of s that live (the live object) has and after
// (the written object) has not (fieldpath.IterateLeavesIn). f keeps no path past its call.
func removedLeaves(s *smdpath.Set, live, after any, f func(smdpath.Path)) {
	fieldpath.IterateLeavesIn(s, live, after, nil, func(p smdpath.Path, _ any) { f(p) })
}

// removedItem finds the topmost list item on p that live has and after lacks.
func removedItem(live, after map[string]any, p smdpath.Path) (smdpath.Path, bool) {
	for i := 1; i <= len(p); i++ {
		prefix := p[:i]
		if !isItem(p[i-1]) {
			continue
		}
		if present(live, prefix) && !present(after, prefix) {
			return prefix, true
		}
	}
	return nil, false
}

func unique(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
