package merge

import (
	"github.com/ssa-diff/ssa-diff/internal/celrules"
	"github.com/ssa-diff/ssa-diff/internal/crdvalidation"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
)

// customResources validates custom resources as apiextensions-apiserver 1.37 does, CEL
// rules included.
var customResources = crdvalidation.Validator{Rules: func(s *crdschema.Schema) crdvalidation.RuleValidator {
	return celrules.New(s)
}}

// validateCustomResource is the registry's validation of a custom resource of a CRD
// (catalog V3, V4, V6): false for every other type.
func validateCustomResource(t *schema.Type, subresource string, obj, old map[string]any) (Validation, bool) {
	if t == nil || t.Validation == nil {
		return Validation{}, false
	}
	r := customResources.Validate(t, subresource, obj, old)
	return Validation{Errors: r.Errors, Warnings: r.Warnings}, true
}
