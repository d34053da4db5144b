package celrules

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FuzzFieldPath reads any fieldPath against a schema with a property named by the fuzzer:
// it never panics, an error comes without a path, and the property is found under both its
// notations (.name when the name allows it, ['name'] with ' and \ escaped always).
func FuzzFieldPath(f *testing.F) {
	for _, c := range [][2]string{{".a", "a"}, {"['a.b']", "a.b"}, {".x['k']", "x"}, {"[", "it's"}, {"..", "a]"},
		{"['\\'']", "'"}, {".a[0]", "a"}, {"['a\\tb']", "a\tb"}, {"", ""}, {".m.k", "m"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, jsonPath, name string) {
		leaf := &crdschema.Schema{Type: "string"}
		s := &crdschema.Schema{Type: "object", Properties: map[string]*crdschema.Schema{
			name: {Type: "object", AdditionalProperties: &crdschema.SchemaOrBool{Allows: true, Schema: leaf}},
			"x":  {Type: "object", Properties: map[string]*crdschema.Schema{"k": leaf}},
		}}
		p, at, err := FieldPath(jsonPath, s)
		if err != nil && (p != nil || at != nil) {
			t.Fatalf("FieldPath(%q) = %v, %v and error %v", jsonPath, p, at, err)
		}
		if strings.ContainsAny(name, "\\") || name == "" || name == "x" {
			return
		}
		want := field.NewPath(name).Key("k").String()
		quoted := "['" + strings.ReplaceAll(name, "'", "\\'") + "']['k']"
		p, at, err = FieldPath(quoted, s)
		if err != nil || p.String() != want || at != leaf {
			t.Fatalf("FieldPath(%q) = %v, %v, %v; want %s", quoted, p, at, err, want)
		}
		if !strings.ContainsAny(name, ".[]'") {
			p, at, err = FieldPath("."+name+".k", s)
			if err != nil || p.String() != want || at != leaf {
				t.Fatalf("FieldPath(%q) = %v, %v, %v; want %s", "."+name+".k", p, at, err, want)
			}
		}
	})
}
