package builtin

import "sigs.k8s.io/structured-merge-diff/v6/schema"

// NewSchema returns the SMD schema of every built-in type. Every call
// returns fresh values wherever SMD keeps state (the schema's and each
// map's lazily built lookup caches), so callers may use the result freely;
// the parts SMD only reads (names, keys, unions, default values, field
// lists without inlined maps) are shared with the generated template.
//
// The template is data laid out by the linker, so this costs a copy of a
// few thousand small values and no parsing.
func NewSchema() *schema.Schema {
	types := make([]schema.TypeDef, len(template))
	for i := range template {
		types[i] = schema.TypeDef{Name: template[i].Name, Atom: copyAtom(&template[i].Atom)}
	}
	return &schema.Schema{Types: types}
}

// copyAtom copies the parts of an atom that SMD mutates (the Map caches)
// and the values reachable from them.
func copyAtom(a *schema.Atom) schema.Atom {
	out := schema.Atom{Scalar: a.Scalar}
	if a.List != nil {
		l := &schema.List{ElementRelationship: a.List.ElementRelationship, Keys: a.List.Keys}
		l.ElementType = copyRef(&a.List.ElementType)
		out.List = l
	}
	if a.Map != nil {
		m := &schema.Map{Unions: a.Map.Unions, ElementRelationship: a.Map.ElementRelationship}
		m.ElementType = copyRef(&a.Map.ElementType)
		m.Fields = a.Map.Fields
		for i := range a.Map.Fields {
			if holdsMap(&a.Map.Fields[i].Type) {
				m.Fields = make([]schema.StructField, len(a.Map.Fields))
				for j := range a.Map.Fields {
					f := &a.Map.Fields[j]
					m.Fields[j] = schema.StructField{Name: f.Name, Type: copyRef(&f.Type), Default: f.Default}
				}
				break
			}
		}
		out.Map = m
	}
	return out
}

func copyRef(r *schema.TypeRef) schema.TypeRef {
	out := *r
	if holdsMap(r) {
		out.Inlined = copyAtom(&r.Inlined)
	}
	return out
}

// holdsMap reports an inlined map below a reference: a value with caches
// that a copy must not share.
func holdsMap(r *schema.TypeRef) bool {
	return r.Inlined.Map != nil || r.Inlined.List != nil && holdsMap(&r.Inlined.List.ElementType)
}
