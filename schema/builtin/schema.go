package builtin

import (
	"slices"

	"github.com/ssa-diff/ssa-diff/kube"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// Release is the embedded data of one Kubernetes minor: its release (the patch release
// of that minor it is generated from, "1.34.4"), the SMD schema of its built-in types and its kinds. Releases are
// values of the generated table; the zero Release is not one of them.
type Release struct {
	minor      int
	kubernetes string
	index      int // in releases, releaseTypes and the kinds' release bits
}

// Releases returns the embedded releases, oldest first, one per minor.
func Releases() []Release { return append([]Release(nil), releases[:]...) }

// For returns the embedded release of the minor v; false when ssa-diff embeds no release
// of it.
func For(v kube.Minor) (Release, bool) {
	for _, r := range releases {
		if r.minor == int(v) {
			return r, true
		}
	}
	return Release{}, false
}

// Minor is the release's minor.
func (r Release) Minor() kube.Minor { return kube.Minor(r.minor) }

// Kubernetes is the release, "1.34.4".
func (r Release) Kubernetes() string { return r.kubernetes }

// TypeCount is the number of types the release's NewSchema returns.
func (r Release) TypeCount() int { return len(r.types()) }

// types are the positions in template of the release's types, sorted by name.
func (r Release) types() []uint16 {
	start := uint16(0)
	if r.index > 0 {
		start = releaseTypesEnd[r.index-1]
	}
	return releaseTypes[start:releaseTypesEnd[r.index]]
}

// NewSchema returns the SMD schema of every built-in type of the release. Every call
// returns fresh values (the strings aside, which are constants): the schema's
// and each map's lazily built lookup caches, and everything else, so callers may use the
// result freely; only the scalar kinds and element-relationship overrides that references
// point to, and default values other than objects, are shared, and SMD only reads those.
//
// The template is records without pointers that the linker lays out as data, so this
// costs decoding a few thousand small values and no parsing; only the release asked for
// is decoded. A kind needs only the types its own reaches: Closure decodes those.
func (r Release) NewSchema() *schema.Schema {
	idx := r.types()
	all := make([]int, len(idx))
	for i := range all {
		all[i] = i
	}
	return &schema.Schema{Types: copyTypes(idx, all)}
}

// Closure returns fresh copies, as NewSchema makes them, of the release's types named
// (names the release has no type of are left out) and of every type they refer to, and
// those refer to, in the release's order (by name): a complete schema of the named
// types, such as one kind's ("io.k8s.api.apps.v1.Deployment" reaches 123 of 1.37's
// 1,014 types). Nothing is decoded, or looked up, for the others.
func (r Release) Closure(names ...string) []schema.TypeDef {
	idx := r.types()
	var reached []int // positions in idx
	in := make([]bool, len(idx))
	reach := func(name string) {
		if i, ok := r.find(name); ok && !in[i] {
			in[i] = true
			reached = append(reached, i)
		}
	}
	for _, name := range names {
		reach(name)
	}
	// Each name is one string of the template, looked up once however many fields refer
	// to it; counting what the types take finds their references.
	var n slabSizes
	asked := make([]uint64, (len(strs)+63)/64)
	for next := 0; next < len(reached); next++ {
		n.count(&template[idx[reached[next]]].atom, func(name uint16) {
			if w, bit := name/64, uint64(1)<<(name%64); asked[w]&bit == 0 {
				asked[w] |= bit
				reach(str(name))
			}
		})
	}
	slices.Sort(reached)
	return decodeTypes(idx, reached, &n)
}

// Type returns a fresh copy, as NewSchema makes it, of the release's type named name alone;
// false when the release has no type of that name.
func (r Release) Type(name string) (schema.TypeDef, bool) {
	i, ok := r.find(name)
	if !ok {
		return schema.TypeDef{}, false
	}
	return copyTypes(r.types(), []int{i})[0], true
}

// find returns the position in r.types() of the release's type named name: the release
// lists its types sorted by name (TestReleaseTypesSortedByName).
func (r Release) find(name string) (int, bool) {
	// A loop without closures: Closure looks up every name its types refer to.
	idx := r.types()
	lo, hi := 0, len(idx)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); str(template[idx[m]].name) < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(idx) && str(template[idx[lo]].name) == name
}

// copyTypes decodes the types of the template at idx[i] for every i of at, in that order.
func copyTypes(idx []uint16, at []int) []schema.TypeDef {
	var n slabSizes
	for _, i := range at {
		n.count(&template[idx[i]].atom, nil)
	}
	return decodeTypes(idx, at, &n)
}

// decodeTypes decodes the types of the template at idx[i] for every i of at, in that order,
// into slabs of the sizes n, which counted them.
func decodeTypes(idx []uint16, at []int, n *slabSizes) []schema.TypeDef {
	d := n.decoder()
	types := make([]schema.TypeDef, len(at))
	for j, i := range at {
		t := &template[idx[i]]
		types[j].Name = str(t.name)
		d.atom(&types[j].Atom, &t.atom)
	}
	return types
}

// Kinds returns every built-in kind of the release in every version, sorted by group, kind
// and version. Each call returns a new slice.
func (r Release) Kinds() []Kind {
	out := make([]Kind, 0, len(kinds))
	for i := range kinds {
		if kinds[i].releases&(1<<r.index) != 0 {
			out = append(out, kinds[i].Kind)
		}
	}
	return out
}

// API is one group-version of a release as kube-apiserver's --runtime-config sees it.
type API struct {
	Group, Version string
	// Registered: the API servers' schemes register the group-version; --runtime-config
	// may name it (a group-version of a registered group that is not is refused).
	Registered bool
	// InDefaults: the default API configuration names it (api/all, api/ga, api/beta and
	// api/alpha switch only those); OnByDefault: it enables it.
	InDefaults, OnByDefault bool
	// Resources are the resources its storage providers register, under the release's
	// default feature gates: what the server serves when the group-version is enabled.
	Resources []string
}

// APIs returns the release's group-versions, sorted by group and version: every one its
// servers register, its default configuration names, or its storage serves. Each call
// returns a new slice; the Resources are shared and read-only.
func (r Release) APIs() []API { return append([]API(nil), apis[r.index]...) }

// kindEntry is one kind of the generated table and the releases that have it.
type kindEntry struct {
	releases uint32 // bit i: releases[i]
	Kind
}
