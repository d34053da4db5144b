package kubeapiserver

import (
	"github.com/ssa-diff/ssa-diff/internal/celrules"
	"github.com/ssa-diff/ssa-diff/internal/crdvalidation"
	"github.com/ssa-diff/ssa-diff/internal/crdvalidation/crd"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"github.com/ssa-diff/ssa-diff/server"
)

var crdGVK = schema.GVK{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// customResources validates custom resources as apiextensions-apiserver of the server's
// minor does, CEL rules included.
func customResources(cfg *serverconfig.Config) crdvalidation.Validator {
	return crdvalidation.Validator{Server: cfg, Rules: func(v kube.Minor, s *crdschema.Schema) crdvalidation.RuleValidator {
		return celrules.New(v, s)
	}}
}

// validateCustomResource is apiextensions-apiserver's validation (rules.md valid.crd-schema, valid.crd-cel, valid.metadata): of a
// custom resource of a CRD, and of a CustomResourceDefinition itself; false for every other
// type.
func (m *Model) validateCustomResource(t *schema.Type, subresource string, obj, old map[string]any) (server.Validation, bool) {
	if t == nil {
		return server.Validation{}, false
	}
	if t.Source == schema.SourceBuiltin && t.GVK == crdGVK && subresource == "" {
		r := crd.Validate(m.server, obj, old)
		if r.Crashed != "" {
			return server.Validation{NotPredicted: "the API server's validation of this CustomResourceDefinition fails (" + r.Crashed + "): it answers 500 Internal Server Error"}, true
		}
		return server.Validation{Errors: r.Errors, Warnings: r.Warnings}, true
	}
	if t.Validation == nil {
		return server.Validation{}, false
	}
	r := m.customResources.Validate(t, subresource, obj, old)
	return server.Validation{Errors: r.Errors, Warnings: r.Warnings}, true
}
