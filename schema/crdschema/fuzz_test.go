package crdschema

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzParse feeds Parse any JSON: it never panics, and a schema it reads is read the same
// way from the normalized form of its input (Normalize is what loading a CRD does to a
// decoded value first).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"type":"object","properties":{"a":{"type":"string","maxLength":3}}}`,
		`{"type":"array","items":{"type":"integer","minimum":1.5,"exclusiveMinimum":true},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"]}`,
		`{"additionalProperties":false,"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
		`{"x-kubernetes-validations":[{"rule":"self.a","messageExpression":"'x'","reason":"FieldValueForbidden","fieldPath":".a","optionalOldSelf":true}]}`,
		`{"allOf":[{"not":{"enum":[1,"a",null]}}],"default":{"a":1},"example":[1],"nullable":true}`,
		`{"maxLength":"3"}`, `{"items":[{},{"type":"string"}]}`, `{"additionalItems":true,"x-kubernetes-preserve-unknown-fields":false}`,
		`{"properties":{"a":null}}`, `[1]`, `"x"`, `{"minItems":1e30}`, `{"minItems":-1}`, `{"multipleOf":0.1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw any
		if json.Unmarshal(data, &raw) != nil {
			return
		}
		s, err := Parse(raw)
		if err != nil {
			if s != nil {
				t.Fatalf("Parse returned a schema and an error %v", err)
			}
			return
		}
		if s == nil {
			t.Fatal("Parse returned neither a schema nor an error")
		}
		s2, err := Parse(Normalize(raw))
		if err != nil {
			t.Fatalf("Parse of the normalized input: %v", err)
		}
		if !reflect.DeepEqual(s, s2) {
			t.Fatalf("Parse reads %s differently once normalized", data)
		}
		_ = s.PropertyNames()
	})
}
