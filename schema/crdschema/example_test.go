package crdschema_test

import (
	"fmt"
	"regexp"

	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"sigs.k8s.io/yaml"
)

// A CRD version's openAPIV3Schema, parsed once; a validator compiles what it needs from it
// once, on first use.
func ExampleParse() {
	var raw any
	_ = yaml.Unmarshal([]byte(`
type: object
properties:
  spec:
    type: object
    required: [issuer]
    properties:
      issuer: {type: string, pattern: '^[a-z]+$'}
      duration: {type: string, format: duration}
    x-kubernetes-validations:
    - rule: self.issuer != 'self-signed'
      message: self-signed issuers are not allowed
      reason: FieldValueForbidden
`), &raw)
	s, err := crdschema.Parse(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	spec := s.Properties["spec"]
	fmt.Println(spec.Required, spec.Properties["issuer"].Pattern, spec.Properties["duration"].Format)
	r := spec.XValidations[0]
	fmt.Printf("%s (%s): %s\n", r.Rule, *r.Reason, r.Message)

	v := &crdschema.Validation{Schema: s}
	for i := 0; i < 2; i++ {
		re := v.Compiled("issuer", func(v *crdschema.Validation) any {
			fmt.Println("compiling")
			return regexp.MustCompile(v.Schema.Properties["spec"].Properties["issuer"].Pattern)
		}).(*regexp.Regexp)
		fmt.Println(re.MatchString("acme"))
	}

	_, err = crdschema.Parse(map[string]any{"type": "object", "properties": map[string]any{"spec": map[string]any{"maxLength": "ten"}}})
	fmt.Println(err)
	// Output:
	// [issuer] ^[a-z]+$ duration
	// self.issuer != 'self-signed' (FieldValueForbidden): self-signed issuers are not allowed
	// compiling
	// true
	// true
	// properties.spec.maxLength: must be an integer, not the string "ten"
}
