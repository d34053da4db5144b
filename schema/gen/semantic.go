package main

import (
	"reflect"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// semantic compares the types of two schemas as structured-merge-diff reads them: a named
// reference means its type's atom, an inlined atom itself; fields are a set (SMD finds them
// by name); unions are not compared (neither SMD's typed nor merge package reads them,
// and the field manager normalizes none). Scalars, list and map relationships (an unset
// map relationship is separable), keys, element types, field types, defaults and
// nullability must agree.
type semantic struct {
	a, b    *smdschema.Schema
	visited map[[2]string]bool
}

func newSemantic(a, b *smdschema.Schema) *semantic {
	return &semantic{a: a, b: b, visited: map[[2]string]bool{}}
}

// representations are the types whose SMD form differs between the apply configurations
// (converted from the OpenAPI v2 form of the definitions) and the server (v3), in a way no
// object the server accepts can tell.
var representations = map[string]string{
	// v2: a string of format int-or-string, an untyped scalar; v3: anyOf integer and
	// string, which SMD reads as untyped (scalar, atomic list, deduced map). Both read every
	// integer and string alike; a list or a map is refused by the server's decoding.
	"io.k8s.apimachinery.pkg.util.intstr.IntOrString": "v2 untyped scalar, v3 untyped",
}

// named compares type na of a with type nb of b.
func (s *semantic) named(na, nb string) bool {
	if na == nb && representations[na] != "" {
		return true
	}
	key := [2]string{na, nb}
	if done, ok := s.visited[key]; ok {
		return done
	}
	s.visited[key] = true // assumed while comparing (recursive types)
	ta, okA := s.a.FindNamedType(na)
	tb, okB := s.b.FindNamedType(nb)
	eq := okA && okB && s.atom(&ta.Atom, nil, &tb.Atom, nil)
	s.visited[key] = eq
	return eq
}

func (s *semantic) resolve(sc *smdschema.Schema, r *smdschema.TypeRef) (*smdschema.Atom, bool) {
	if r.NamedType != nil {
		t, ok := sc.FindNamedType(*r.NamedType)
		if !ok {
			return nil, false
		}
		return &t.Atom, true
	}
	return &r.Inlined, true
}

func (s *semantic) ref(ra, rb *smdschema.TypeRef) bool {
	if nullable(ra) != nullable(rb) {
		return false
	}
	if ra.NamedType != nil && rb.NamedType != nil && ra.ElementRelationship == nil && rb.ElementRelationship == nil {
		return s.named(*ra.NamedType, *rb.NamedType)
	}
	aa, okA := s.resolve(s.a, ra)
	ab, okB := s.resolve(s.b, rb)
	return okA && okB && s.atom(aa, ra.ElementRelationship, ab, rb.ElementRelationship)
}

func isZero(r *smdschema.TypeRef) bool {
	return r.NamedType == nil && r.Inlined == (smdschema.Atom{}) && r.ElementRelationship == nil && !nullable(r)
}

func relOf(own smdschema.ElementRelationship, override *smdschema.ElementRelationship, unset smdschema.ElementRelationship) smdschema.ElementRelationship {
	if override != nil {
		own = *override
	}
	if own == "" {
		return unset
	}
	return own
}

func (s *semantic) atom(a *smdschema.Atom, oa *smdschema.ElementRelationship, b *smdschema.Atom, ob *smdschema.ElementRelationship) bool {
	if (a.Scalar == nil) != (b.Scalar == nil) || a.Scalar != nil && *a.Scalar != *b.Scalar {
		return false
	}
	if (a.List == nil) != (b.List == nil) || (a.Map == nil) != (b.Map == nil) {
		return false
	}
	if a.List != nil {
		if relOf(a.List.ElementRelationship, oa, smdschema.Atomic) != relOf(b.List.ElementRelationship, ob, smdschema.Atomic) ||
			!reflect.DeepEqual(a.List.Keys, b.List.Keys) || !s.ref(&a.List.ElementType, &b.List.ElementType) {
			return false
		}
	}
	if a.Map != nil {
		if relOf(a.Map.ElementRelationship, oa, smdschema.Separable) != relOf(b.Map.ElementRelationship, ob, smdschema.Separable) {
			return false
		}
		if isZero(&a.Map.ElementType) != isZero(&b.Map.ElementType) || !isZero(&a.Map.ElementType) && !s.ref(&a.Map.ElementType, &b.Map.ElementType) {
			return false
		}
		if len(a.Map.Fields) != len(b.Map.Fields) {
			return false
		}
		fb := map[string]*smdschema.StructField{}
		for i := range b.Map.Fields {
			fb[b.Map.Fields[i].Name] = &b.Map.Fields[i]
		}
		for i := range a.Map.Fields {
			f := &a.Map.Fields[i]
			g, ok := fb[f.Name]
			if !ok || !reflect.DeepEqual(f.Default, g.Default) || !s.ref(&f.Type, &g.Type) {
				return false
			}
		}
	}
	return true
}
