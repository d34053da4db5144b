package main

import (
	"reflect"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// The Equals methods of SMD's schema package compare element-relationship
// overrides by pointer and only one member of a multi-member atom, so the
// generator compares types itself.

func equalTypeDefs(a, b []smdschema.TypeDef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalTypeDef(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func equalTypeDef(a, b *smdschema.TypeDef) bool {
	return a.Name == b.Name && equalAtom(&a.Atom, &b.Atom)
}

func equalAtom(a, b *smdschema.Atom) bool {
	if (a.Scalar == nil) != (b.Scalar == nil) || (a.List == nil) != (b.List == nil) || (a.Map == nil) != (b.Map == nil) {
		return false
	}
	if a.Scalar != nil && *a.Scalar != *b.Scalar {
		return false
	}
	if a.List != nil {
		if a.List.ElementRelationship != b.List.ElementRelationship ||
			!reflect.DeepEqual(a.List.Keys, b.List.Keys) ||
			!equalRef(&a.List.ElementType, &b.List.ElementType) {
			return false
		}
	}
	if a.Map != nil {
		if a.Map.ElementRelationship != b.Map.ElementRelationship ||
			!equalRef(&a.Map.ElementType, &b.Map.ElementType) ||
			!reflect.DeepEqual(a.Map.Unions, b.Map.Unions) ||
			len(a.Map.Fields) != len(b.Map.Fields) {
			return false
		}
		for i := range a.Map.Fields {
			fa, fb := &a.Map.Fields[i], &b.Map.Fields[i]
			if fa.Name != fb.Name || !reflect.DeepEqual(fa.Default, fb.Default) || !equalRef(&fa.Type, &fb.Type) {
				return false
			}
		}
	}
	return true
}

func equalRef(a, b *smdschema.TypeRef) bool {
	if (a.NamedType == nil) != (b.NamedType == nil) || (a.NamedType != nil && *a.NamedType != *b.NamedType) {
		return false
	}
	if (a.ElementRelationship == nil) != (b.ElementRelationship == nil) ||
		(a.ElementRelationship != nil && *a.ElementRelationship != *b.ElementRelationship) {
		return false
	}
	return nullable(a) == nullable(b) && equalAtom(&a.Inlined, &b.Inlined)
}

// nullable reads TypeRef.Nullable, which structured-merge-diff has since v6.4 (Kubernetes
// 1.37): the generator is built against each release's version, older ones without it.
func nullable(r *smdschema.TypeRef) bool {
	f := reflect.ValueOf(r).Elem().FieldByName("Nullable")
	return f.IsValid() && f.Bool()
}
