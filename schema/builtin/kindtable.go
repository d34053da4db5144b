package builtin

import "sort"

// The kind table: every built-in kind of every embedded release in every version, sorted by
// group, kind and version, each with the releases that have it (a kind whose resource
// changed between releases has an entry per variant). It is data the linker lays
// out; a registry answers from it by position (KindAt) and bisection (KindRange) instead
// of indexing the release's kinds (153 at 1.37) in maps at every start.

// KindPositions is the number of positions of the kind table: those of every release.
func KindPositions() int { return len(kinds) }

// KindAt returns the kind at position i of the kind table, and whether the release has it.
func (r Release) KindAt(i int) (Kind, bool) {
	e := &kinds[i]
	return e.Kind, e.releases&(1<<r.index) != 0
}

// KindRange returns the positions [lo, hi) of the kind table holding the kind of the group
// in any version and release; of every kind of the group when kind is "". lo == hi when
// the table has none.
func KindRange(group, kind string) (lo, hi int) {
	// before reports the entry at i before the kind (or group) asked for. Looked up for
	// every object a run predicts, several times: a loop without closures.
	before := func(i int) bool {
		k := &kinds[i].Kind
		if k.Group != group || kind == "" {
			return k.Group < group
		}
		return k.Kind < kind
	}
	lo, hi = 0, len(kinds)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); before(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if kind != "" {
		// A kind has a few versions: its entries end where another kind starts.
		hi = lo
		for hi < len(kinds) && kinds[hi].Group == group && kinds[hi].Kind.Kind == kind {
			hi++
		}
		return lo, hi
	}
	hi = lo + sort.Search(len(kinds)-lo, func(i int) bool { return kinds[lo+i].Group != group })
	return lo, hi
}

// FindKind returns the position in the kind table of the release's kind of group, version
// and kind; false when the release has none.
func (r Release) FindKind(group, version, kind string) (int, bool) {
	lo, hi := KindRange(group, kind)
	for i := lo; i < hi; i++ {
		// A version whose kind changed between releases (gained a /status) has an entry
		// per variant, each with its releases.
		if kinds[i].Version == version && kinds[i].releases&(1<<r.index) != 0 {
			return i, true
		}
	}
	return 0, false
}
