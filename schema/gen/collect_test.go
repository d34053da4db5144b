package main

import (
	"testing"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// Another major version's schema (here a stand-in with the YAML form of structured-merge-diff
// v4's types, as 1.32 and 1.33 link) reads as this generator's version; a field this version
// does not know is an error, not a field lost.
func TestSchemaOfAnotherMajor(t *testing.T) {
	type structField struct {
		Name string  `yaml:"name,omitempty"`
		Type typeRef `yaml:"type,omitempty"`
	}
	type mapType struct {
		Fields []structField `yaml:"fields,omitempty"`
	}
	type atom struct {
		Map *mapType `yaml:"map,omitempty"`
	}
	type typeDef struct {
		Name string `yaml:"name,omitempty"`
		atom `yaml:",inline,omitempty"`
	}
	type v4Schema struct {
		Types []typeDef `yaml:"types,omitempty"`
	}
	str := "string"
	in := &v4Schema{Types: []typeDef{{Name: "io.k8s.T", atom: atom{Map: &mapType{Fields: []structField{{Name: "a", Type: typeRef{Scalar: &str}}}}}}}}
	got, err := schemaOf(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Types) != 1 || got.Types[0].Name != "io.k8s.T" || got.Types[0].Map == nil || len(got.Types[0].Map.Fields) != 1 ||
		got.Types[0].Map.Fields[0].Type.Inlined.Scalar == nil || *got.Types[0].Map.Fields[0].Type.Inlined.Scalar != smdschema.String {
		t.Errorf("schemaOf = %+v", got)
	}
	if v6 := (&smdschema.Schema{}); func() *smdschema.Schema { s, _ := schemaOf(v6); return s }() != v6 {
		t.Error("a schema of this version is not returned as it is")
	}
	type unknown struct {
		Types []struct {
			Name    string `yaml:"name"`
			Surplus string `yaml:"surplus"`
		} `yaml:"types"`
	}
	bad := &unknown{Types: []struct {
		Name    string `yaml:"name"`
		Surplus string `yaml:"surplus"`
	}{{Name: "x", Surplus: "y"}}}
	if _, err := schemaOf(bad); err == nil {
		t.Error("a field this version does not know: no error")
	}
}

// typeRef is the stand-in's TypeRef (a scalar only).
type typeRef struct {
	Scalar *string `yaml:"scalar,omitempty"`
}
