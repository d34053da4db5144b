package features

import (
	"fmt"
	"slices"

	"github.com/ssa-diff/ssa-diff/kube"
)

// Gate is one feature gate of kube-apiserver.
type Gate uint16

// String is the gate's name, as --feature-gates spells it.
func (g Gate) String() string {
	if g >= gateCount {
		return fmt.Sprintf("Gate(%d)", uint16(g))
	}
	return gateNames[g]
}

// Lookup is the gate of a name, false when no supported release has it. The generator
// numbers the gates in the order of their names (sort.Strings), so the names are searched
// by bisection (the strategies' tables look some fifty up when first used).
func Lookup(name string) (Gate, bool) {
	g, ok := slices.BinarySearch(gateNames[:], name)
	return Gate(g), ok
}

const words = (int(gateCount) + 63) / 64

// Set is the feature gates of one server: which are on. The zero Set has every gate off.
type Set struct {
	on [words]uint64
}

// Defaults is the gates of kube-apiserver at a minor with no --feature-gates flag; false
// for a minor the table does not describe (no release of it was generated: never another
// minor's gates).
func Defaults(v kube.Minor) (Set, bool) {
	var s Set
	r, ok := release(v)
	if !ok {
		return s, false
	}
	for _, g := range defaults[r] {
		s.on[g/64] |= 1 << (g % 64)
	}
	return s, true
}

// Known reports whether the server of minor v has the gate at all (a gate added later, or
// removed earlier, is unknown to it: --feature-gates would refuse it).
func Known(v kube.Minor, g Gate) bool {
	r, ok := release(v)
	if !ok {
		return false
	}
	for _, k := range known[r] {
		if k == g {
			return true
		}
	}
	return false
}

// release is the index of v's release in the table; false when the table has none.
func release(v kube.Minor) (int, bool) {
	r := int(v) - oldestMinor
	return r, r >= 0 && r < releaseCount
}

// Enabled reports whether the gate is on.
func (s Set) Enabled(g Gate) bool { return s.on[g/64]&(1<<(g%64)) != 0 }

// With is s with the gate set on or off (a --feature-gates setting).
func (s Set) With(g Gate, on bool) Set {
	if on {
		s.on[g/64] |= 1 << (g % 64)
	} else {
		s.on[g/64] &^= 1 << (g % 64)
	}
	return s
}
