package crdvalidation

import (
	"encoding/json"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
)

// nullsCRD declares, in one version, a field of every type that can meet a null: an object,
// an array, a string, a nullable object, a defaulted string, a list of objects with a
// non-nullable and a nullable member, a map of strings and a preserve-unknown-fields
// subtree; withRules adds a CEL rule on spec.
func nullsCRD(t *testing.T, withRules bool) map[string]any {
	rules := ""
	if withRules {
		rules = `
            x-kubernetes-validations:
            - rule: "!has(self.email) || self.email.contains('@')"
              message: email must be an address`
	}
	var crd map[string]any
	if err := yaml.Unmarshal([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: issuers.nulls.example.com
spec:
  group: nulls.example.com
  names: {kind: Issuer, listKind: IssuerList, plural: issuers, singular: issuer}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object`+rules+`
            properties:
              ca:
                type: object
                properties:
                  secretName: {type: string}
              tags:
                type: array
                items: {type: string}
              email: {type: string}
              mode: {type: string, default: auto}
              acme:
                type: object
                nullable: true
                properties:
                  server: {type: string}
              labels:
                type: object
                additionalProperties: {type: string}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              solvers:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    dns01:
                      type: object
                      properties:
                        provider: {type: string}
                    selector:
                      type: object
                      nullable: true
                      properties:
                        zone: {type: string}
`), &crd); err != nil {
		t.Fatal(err)
	}
	return crd
}

// TestNullsDifferential compares ssa-diff's validation of custom resources holding nulls
// with apiextensions-apiserver's, on creates and updates, with and without CEL rules: the
// nulls an apply's merged object keeps (it is not decoded), which the server refuses where
// the schema does not allow them ("must be of type object: \"null\"") and accepts where it
// is nullable or says nothing (preserve-unknown-fields).
func TestNullsDifferential(t *testing.T) {
	specs := map[string]string{
		"object":                 `{"ca":null}`,
		"array":                  `{"tags":null}`,
		"string":                 `{"email":null}`,
		"nullable":               `{"acme":null}`,
		"defaulted":              `{"mode":null}`,
		"array item":             `{"tags":["a",null]}`,
		"list item member":       `{"solvers":[{"name":"a","dns01":null}]}`,
		"list item nullable":     `{"solvers":[{"name":"a","selector":null}]}`,
		"list item itself":       `{"solvers":[null]}`,
		"map value":              `{"labels":{"a":null}}`,
		"preserve unknown":       `{"extra":{"anything":null}}`,
		"spec itself":            `null`,
		"several":                `{"ca":null,"tags":null,"email":null,"acme":null}`,
		"beside a failing email": `{"ca":null,"email":"nobody"}`,
	}
	old := map[string]any{"apiVersion": "nulls.example.com/v1", "kind": "Issuer",
		"metadata": map[string]any{"name": "a", "namespace": "ns", "uid": "0a1b2c3d-0000-4000-8000-000000000001", "resourceVersion": "1", "generation": int64(1)},
		"spec":     map[string]any{"ca": map[string]any{"secretName": "root-ca"}, "email": "ops@example.com"}}
	for _, withRules := range []bool{false, true} {
		crd := nullsCRD(t, withRules)
		oracle, err := NewOracle(crd, "v1")
		if err != nil {
			t.Fatal(err)
		}
		ours, err := NewOurs(crd, "v1")
		if err != nil {
			t.Fatal(err)
		}
		refused := 0
		for name, spec := range specs {
			var s any
			if err := json.Unmarshal([]byte(spec), &s); err != nil {
				t.Fatal(err)
			}
			obj := map[string]any{"apiVersion": "nulls.example.com/v1", "kind": "Issuer",
				"metadata": map[string]any{"name": "a", "namespace": "ns", "uid": "0a1b2c3d-0000-4000-8000-000000000001", "resourceVersion": "1", "generation": int64(1)},
				"spec":     s}
			for _, o := range []map[string]any{nil, old} {
				se, sw, sp := oracle.Validate("", obj, o)
				oe, ow, op := ours.Validate("", obj, o)
				if sp != nil || op != nil {
					t.Fatalf("%s (rules %v, update %v): panicked: server %v, ours %v", name, withRules, o != nil, sp, op)
				}
				if len(se) > 0 {
					refused++
				}
				if !reflect.DeepEqual(texts(se), texts(oe)) || !reflect.DeepEqual(sortedCopy(sw), sortedCopy(ow)) {
					t.Errorf("%s (rules %v, update %v):\nserver %q %q\nours   %q %q", name, withRules, o != nil, texts(se), sw, texts(oe), ow)
				}
			}
		}
		if refused < 10 {
			t.Errorf("rules %v: the server refused only %d of %d writes", withRules, refused, 2*len(specs))
		}
	}
}
