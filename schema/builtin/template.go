package builtin

import "sigs.k8s.io/structured-merge-diff/v6/schema"

// The template's records: tables of fixed-size values without pointers, positions in each
// other and in the table of strings strs (zz_generated.schema.go), which the linker lays out
// as data the garbage collector never scans and the runtime's start-up never walks (strs
// aside, some 2,100 strings). A 1-based position of 0 means none. The decoder (below) makes
// SMD's values of them.

// ref is an atom, or a reference to a type: the named type, the inlined atom's scalar, list
// and map, and the reference's element-relationship override and nullability.
type ref struct {
	named  uint16 // 1 + the string of the type's name
	list   uint16 // 1 + the position in lists
	mp     uint16 // 1 + the position in maps
	scalar uint8  // a position in scalars (0: none)
	rel    uint8  // a position in relationships (0: none), nullableBit when nullable
}

// nullableBit marks a nullable reference in ref.rel.
const nullableBit = 1 << 2

// typeRec is a type of the template: the string of its name and its atom.
type typeRec struct {
	name uint16
	atom ref
}

// listRec is a list atom: its element type, its run of keys and its relationship.
type listRec struct {
	elem         ref
	keys, nkeys  uint16
	relationship uint8
}

// mapRec is a map atom: its element type, its runs of fields and unions, its relationship.
type mapRec struct {
	elem            ref
	fields, nfields uint16
	unions          uint16
	nunions         uint8
	relationship    uint8
}

// fieldRec is a field of a map: the string of its name, 1 + its default in defaults, its type.
type fieldRec struct {
	name, def uint16
	typ       ref
}

// unionRec is a union of a map: 1 + the string of its discriminator, its run of members.
type unionRec struct {
	discriminator uint16
	fields        uint16
	nfields       uint8
	deduce        bool // DeduceInvalidDiscriminator
}

// unionFieldRec is a member of a union: the strings of its field name and discriminator value.
type unionFieldRec struct {
	name, value uint16
}

// The values the decoded references point to, shared by every copy: SMD only reads them.
// Read-only.
var (
	scalars       = [...]schema.Scalar{"", schema.String, schema.Numeric, schema.Boolean, schema.Untyped}
	relationships = [...]schema.ElementRelationship{"", schema.Associative, schema.Atomic, schema.Separable}
)

// str is string i of strs.
func str(i uint16) string { return strs[i] }

// decoder makes SMD's values of the template's records, every value fresh: they are cut
// from slabs made to the sizes slabSizes counted first, a few allocations instead of
// thousands.
type decoder struct {
	maps        []schema.Map
	lists       []schema.List
	fields      []schema.StructField
	strs        []string // what NamedType and Discriminator point to
	keys        []string
	unions      []schema.Union
	unionFields []schema.UnionField
}

// slabSizes is what a decoder's slabs hold.
type slabSizes struct{ maps, lists, fields, strs, keys, unions, unionFields int }

// decoder returns a decoder with slabs of the sizes n.
func (n *slabSizes) decoder() decoder {
	return decoder{
		maps:        make([]schema.Map, n.maps),
		lists:       make([]schema.List, n.lists),
		fields:      make([]schema.StructField, n.fields),
		strs:        make([]string, n.strs),
		keys:        make([]string, n.keys),
		unions:      make([]schema.Union, n.unions),
		unionFields: make([]schema.UnionField, n.unionFields),
	}
}

// count adds what decoding r takes and calls named, unless nil, with the string of every
// reference by name in r, at any depth of its inlined atoms.
func (n *slabSizes) count(r *ref, named func(name uint16)) {
	if r.named != 0 {
		n.strs++
		if named != nil {
			named(r.named - 1)
		}
	}
	if r.list != 0 {
		l := &lists[r.list-1]
		n.lists++
		n.keys += int(l.nkeys)
		n.count(&l.elem, named)
	}
	if r.mp != 0 {
		m := &maps[r.mp-1]
		n.maps++
		n.count(&m.elem, named)
		n.fields += int(m.nfields)
		for i := range m.nfields {
			n.count(&fields[m.fields+i].typ, named)
		}
		n.unions += int(m.nunions)
		for i := range uint16(m.nunions) {
			u := &unions[m.unions+i]
			n.unionFields += int(u.nfields)
			if u.discriminator != 0 {
				n.strs++
			}
		}
	}
}

// ptr returns a pointer to a fresh copy of string i of text.
func (d *decoder) ptr(i uint16) *string {
	p := &d.strs[0]
	d.strs = d.strs[1:]
	*p = str(i)
	return p
}

// typeRef decodes the reference r into out, which is zero.
func (d *decoder) typeRef(out *schema.TypeRef, r *ref) {
	d.atom(&out.Inlined, r)
	if r.named != 0 {
		out.NamedType = d.ptr(r.named - 1)
	}
	if rel := r.rel &^ nullableBit; rel != 0 {
		out.ElementRelationship = &relationships[rel]
	}
	out.Nullable = r.rel&nullableBit != 0
}

// atom decodes the atom of r (its scalar, list and map) into out, which is zero.
func (d *decoder) atom(out *schema.Atom, r *ref) {
	if r.scalar != 0 {
		out.Scalar = &scalars[r.scalar]
	}
	if r.list != 0 {
		rec := &lists[r.list-1]
		l := &d.lists[0]
		d.lists = d.lists[1:]
		d.typeRef(&l.ElementType, &rec.elem)
		l.ElementRelationship = relationships[rec.relationship]
		if n := rec.nkeys; n > 0 {
			l.Keys = d.keys[:n:n]
			d.keys = d.keys[n:]
			for i := range n {
				l.Keys[i] = str(keys[rec.keys+i])
			}
		}
		out.List = l
	}
	if r.mp != 0 {
		d.mapAtom(out, &maps[r.mp-1])
	}
}

// mapAtom decodes the map rec into out.
func (d *decoder) mapAtom(out *schema.Atom, rec *mapRec) {
	m := &d.maps[0]
	d.maps = d.maps[1:]
	d.typeRef(&m.ElementType, &rec.elem)
	m.ElementRelationship = relationships[rec.relationship]
	if n := rec.nfields; n > 0 {
		m.Fields = d.fields[:n:n]
		d.fields = d.fields[n:]
		for i := range n {
			f, to := &fields[rec.fields+i], &m.Fields[i]
			to.Name = str(f.name)
			d.typeRef(&to.Type, &f.typ)
			if f.def != 0 {
				to.Default = defaultValue(defaults[f.def-1])
			}
		}
	}
	if n := uint16(rec.nunions); n > 0 {
		m.Unions = d.unions[:n:n]
		d.unions = d.unions[n:]
		for i := range n {
			u, to := &unions[rec.unions+i], &m.Unions[i]
			to.DeduceInvalidDiscriminator = u.deduce
			if u.discriminator != 0 {
				to.Discriminator = d.ptr(u.discriminator - 1)
			}
			if k := uint16(u.nfields); k > 0 {
				to.Fields = d.unionFields[:k:k]
				d.unionFields = d.unionFields[k:]
				for j := range k {
					uf := &unionFields[u.fields+j]
					to.Fields[j] = schema.UnionField{FieldName: str(uf.name), DiscriminatorValue: str(uf.value)}
				}
			}
		}
	}
	out.Map = m
}

// object is how the template writes a default value that is a non-empty JSON object: its
// members in order, a value the linker lays out as data. A map in the template would be
// made by code run at every start-up, so the decoder makes the maps instead, as SMD's YAML
// parser gives them (map[any]any), for the types asked for only. An empty object is
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
