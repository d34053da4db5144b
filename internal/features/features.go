package features

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/server/version"
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

// Lookup is the gate of a name, false when no supported release has it.
func Lookup(name string) (Gate, bool) {
	for g, n := range gateNames {
		if n == name {
			return Gate(g), true
		}
	}
	return 0, false
}

const words = (int(gateCount) + 63) / 64

// Set is the feature gates of one server: which are on. The zero Set has every gate off.
type Set struct {
	on [words]uint64
}

// Defaults is the gates of kube-apiserver at a minor with no --feature-gates flag. For a
// minor outside the table it is the nearest release's.
func Defaults(v version.Version) Set {
	var s Set
	for _, g := range defaults[release(v)] {
		s.on[g/64] |= 1 << (g % 64)
	}
	return s
}

// Known reports whether the server of minor v has the gate at all (a gate added later, or
// removed earlier, is unknown to it: --feature-gates would refuse it).
func Known(v version.Version, g Gate) bool {
	for _, k := range known[release(v)] {
		if k == g {
			return true
		}
	}
	return false
}

// release is the index of v's release in the table.
func release(v version.Version) int {
	r := v.MinorNumber() - oldestMinor
	return max(0, min(r, releaseCount-1))
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
