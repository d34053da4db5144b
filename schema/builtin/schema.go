package builtin

import (
	"slices"
	"sort"

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
func (r Release) TypeCount() int { return len(releaseTypes[r.index]) }

// NewSchema returns the SMD schema of every built-in type of the release. Every call
// returns fresh values wherever SMD keeps state (the schema's and each map's lazily built
// lookup caches), so callers may use the result freely; the parts SMD only reads (names,
// keys, unions, default values, field lists without inlined maps) are shared with the
// generated template, which holds each type once for all the releases that have it.
//
// The template is data laid out by the linker, so this costs a copy of a few thousand
// small values and no parsing; only the release asked for is copied. A kind needs only
// the types its own reaches: Closure copies those.
func (r Release) NewSchema() *schema.Schema {
	idx := releaseTypes[r.index]
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
// 1,014 types). Nothing is copied, or looked up, for the others.
func (r Release) Closure(names ...string) []schema.TypeDef {
	idx := releaseTypes[r.index]
	var reached []int // positions in idx
	in := make([]bool, len(idx))
	reach := func(name string) {
		if i, ok := r.find(name); ok && !in[i] {
			in[i] = true
			reached = append(reached, i)
		}
	}
	for _, n := range names {
		reach(n)
	}
	// The template's references to one name all point at its one copy in strs: each
	// name is looked up once, however many fields refer to it.
	asked := map[*string]bool{}
	for next := 0; next < len(reached); next++ {
		forEachNamedRef(&template[idx[reached[next]]].Atom, func(name *string) {
			if !asked[name] {
				asked[name] = true
				reach(*name)
			}
		})
	}
	slices.Sort(reached)
	return copyTypes(idx, reached)
}

// Type returns a fresh copy, as NewSchema makes it, of the release's type named name alone;
// false when the release has no type of that name.
func (r Release) Type(name string) (schema.TypeDef, bool) {
	i, ok := r.find(name)
	if !ok {
		return schema.TypeDef{}, false
	}
	return copyTypes(releaseTypes[r.index], []int{i})[0], true
}

// find returns the position in releaseTypes[r.index] of the release's type named name:
// the release lists its types sorted by name (TestReleaseTypesSortedByName).
func (r Release) find(name string) (int, bool) {
	idx := releaseTypes[r.index]
	i := sort.Search(len(idx), func(i int) bool { return template[idx[i]].Name >= name })
	return i, i < len(idx) && template[idx[i]].Name == name
}

// copyTypes copies the types of the template at idx[i] for every i of at, in that order.
func copyTypes(idx []uint16, at []int) []schema.TypeDef {
	// The copies are cut from three slabs, counted first: a few allocations instead of
	// thousands.
	var n slabSizes
	for _, i := range at {
		n.count(&template[idx[i]].Atom)
	}
	c := slabs{maps: make([]schema.Map, n.maps), lists: make([]schema.List, n.lists), fields: make([]schema.StructField, n.fields), copyFields: n.copyFields}
	types := make([]schema.TypeDef, len(at))
	for j, i := range at {
		t := idx[i]
		types[j] = schema.TypeDef{Name: template[t].Name, Atom: c.copyAtom(&template[t].Atom)}
	}
	return types
}

// forEachNamedRef calls f with every reference by name of a, at any depth of its inlined
// atoms.
func forEachNamedRef(a *schema.Atom, f func(name *string)) {
	if a.List != nil {
		forEachNamedRefIn(&a.List.ElementType, f)
	}
	if a.Map != nil {
		forEachNamedRefIn(&a.Map.ElementType, f)
		for i := range a.Map.Fields {
			forEachNamedRefIn(&a.Map.Fields[i].Type, f)
		}
	}
}

func forEachNamedRefIn(r *schema.TypeRef, f func(name *string)) {
	if r.NamedType != nil {
		f(r.NamedType)
	}
	forEachNamedRef(&r.Inlined, f)
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

// slabs hands out the values a copy needs, from slices made to the sizes slabSizes counted.
type slabs struct {
	maps   []schema.Map
	lists  []schema.List
	fields []schema.StructField
	// copyFields is fieldsToCopy of each map, in the order the copy meets them, as
	// slabSizes found it (asked once, not again by the copy).
	copyFields []bool
}

// slabSizes counts what copies take from the slabs.
type slabSizes struct {
	maps, lists, fields int
	copyFields          []bool
}

// count adds what copyAtom(a) takes.
func (s *slabSizes) count(a *schema.Atom) {
	if a.List != nil {
		s.lists++
		s.countRef(&a.List.ElementType)
	}
	if a.Map != nil {
		s.maps++
		s.countRef(&a.Map.ElementType)
		copyFields := fieldsToCopy(a.Map)
		s.copyFields = append(s.copyFields, copyFields)
		if copyFields {
			s.fields += len(a.Map.Fields)
			for j := range a.Map.Fields {
				s.countRef(&a.Map.Fields[j].Type)
			}
		}
	}
}

func (s *slabSizes) countRef(r *schema.TypeRef) {
	if holdsMap(r) {
		s.count(&r.Inlined)
	}
}

// copyAtom copies the parts of an atom that SMD mutates (the Map caches)
// and the values reachable from them.
func (s *slabs) copyAtom(a *schema.Atom) schema.Atom {
	out := schema.Atom{Scalar: a.Scalar}
	if a.List != nil {
		l := &s.lists[0]
		s.lists = s.lists[1:]
		l.ElementRelationship, l.Keys = a.List.ElementRelationship, a.List.Keys
		l.ElementType = s.copyRef(&a.List.ElementType)
		out.List = l
	}
	if a.Map != nil {
		m := &s.maps[0]
		s.maps = s.maps[1:]
		m.Unions, m.ElementRelationship = a.Map.Unions, a.Map.ElementRelationship
		m.ElementType = s.copyRef(&a.Map.ElementType)
		m.Fields = a.Map.Fields
		copyFields := s.copyFields[0]
		s.copyFields = s.copyFields[1:]
		if copyFields {
			n := len(a.Map.Fields)
			m.Fields = s.fields[:n:n]
			s.fields = s.fields[n:]
			for j := range a.Map.Fields {
				f := &a.Map.Fields[j]
				m.Fields[j] = schema.StructField{Name: f.Name, Type: s.copyRef(&f.Type), Default: f.Default}
				if f.Default != nil {
					m.Fields[j].Default = defaultValue(f.Default)
				}
			}
		}
		out.Map = m
	}
	return out
}

func (s *slabs) copyRef(r *schema.TypeRef) schema.TypeRef {
	out := *r
	if holdsMap(r) {
		out.Inlined = s.copyAtom(&r.Inlined)
	}
	return out
}

// fieldsToCopy reports a field of m whose type holds an inlined map or whose default holds
// an object: then m's fields are copied, not shared.
func fieldsToCopy(m *schema.Map) bool {
	for i := range m.Fields {
		f := &m.Fields[i]
		if holdsMap(&f.Type) || f.Default != nil && holdsObject(f.Default) {
			return true
		}
	}
	return false
}

// object is how the template writes a default value that is a non-empty JSON object: its
// members in order, a value the linker lays out as data. A map in the template would be
// made by code run at every start-up and written into the template's pages (each write a
// copy-on-write page fault), so NewSchema's copy makes the maps instead, as SMD's YAML
// parser gives them (map[any]any), for the release asked for only. An empty object is
// written as a nil map[any]any, which is data already and, to SMD, which only reads
// defaults, the same value as an empty one (and SMD only reads the defaults of key fields).
type object []member

// member is one member of an object default.
type member struct {
	name  string
	value any
}

// holdsObject reports an object in the default value v.
func holdsObject(v any) bool {
	switch v := v.(type) {
	case object:
		return true
	case []any:
		for _, x := range v {
			if holdsObject(x) {
				return true
			}
		}
	}
	return false
}

// defaultValue is the default value v of the template as the schema holds it: objects made maps,
// everything else shared.
func defaultValue(v any) any {
	switch v := v.(type) {
	case object:
		m := make(map[any]any, len(v))
		for _, x := range v {
			m[x.name] = defaultValue(x.value)
		}
		return m
	case []any:
		if !holdsObject(v) {
			return v
		}
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = defaultValue(x)
		}
		return out
	}
	return v
}

// holdsMap reports an inlined map below a reference: a value with caches
// that a copy must not share.
func holdsMap(r *schema.TypeRef) bool {
	return r.Inlined.Map != nil || r.Inlined.List != nil && holdsMap(&r.Inlined.List.ElementType)
}
