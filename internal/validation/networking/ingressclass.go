package networking

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxControllerLength is the longest an IngressClass's controller may be.
const maxControllerLength = 250

// The scopes of an IngressClass's parameters, in the sorted order the server lists them.
var parametersScopes = []string{api.IngressClassParametersReferenceScopeCluster, api.IngressClassParametersReferenceScopeNamespace}

// ValidateIngressClass checks an IngressClass: its metadata, its controller (a
// domain-prefixed path) and its parameters.
func ValidateIngressClass(cfg *serverconfig.Config, ic *api.IngressClass) field.ErrorList {
	errs := core.ValidateObjectMeta(&ic.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	fldPath := field.NewPath("spec")
	if len(ic.Spec.Controller) > maxControllerLength {
		errs = append(errs, field.TooLong(fldPath.Child("controller"), "", maxControllerLength))
	}
	errs = append(errs, validation.IsDomainPrefixedPath(fldPath.Child("controller"), ic.Spec.Controller)...)
	return append(errs, validateParametersReference(ic.Spec.Parameters, fldPath.Child("parameters"), requiredSaysWhat(cfg))...)
}

// ValidateIngressClassUpdate checks an update of an IngressClass: the controller cannot
// change (rules.md valid.update), and the new object must be valid.
func ValidateIngressClassUpdate(cfg *serverconfig.Config, ic, old *api.IngressClass) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&ic.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(ic.Spec.Controller, old.Spec.Controller, field.NewPath("spec", "controller"))...)
	return append(errs, ValidateIngressClass(cfg, ic)...)
}

// validateParametersReference: a kind and a name, a scope, and a namespace exactly when
// the scope is Namespace; saysWhat: a missing kind's or name's error says what is required.
func validateParametersReference(params *api.IngressClassParametersReference, fldPath *field.Path, saysWhat bool) field.ErrorList {
	if params == nil {
		return nil
	}
	var errs field.ErrorList
	if params.APIGroup != nil {
		for _, msg := range wellformed.IsDNS1123Subdomain(*params.APIGroup) {
			errs = append(errs, field.Invalid(fldPath.Child("apiGroup"), *params.APIGroup, msg))
		}
	}
	errs = append(errs, pathSegment(params.Kind, fldPath.Child("kind"), true, whatIsRequired(saysWhat, "kind"))...)
	errs = append(errs, pathSegment(params.Name, fldPath.Child("name"), true, whatIsRequired(saysWhat, "name"))...)
	if params.Scope == nil {
		return append(errs, field.Required(fldPath.Child("scope"), ""))
	}
	switch scope := *params.Scope; scope {
	case api.IngressClassParametersReferenceScopeNamespace:
		if params.Namespace == nil {
			errs = append(errs, field.Required(fldPath.Child("namespace"), "`parameters.scope` is set to 'Namespace'"))
		} else {
			for _, msg := range wellformed.NameIsDNSLabel(*params.Namespace, false) {
				errs = append(errs, field.Invalid(fldPath.Child("namespace"), *params.Namespace, msg))
			}
		}
	case api.IngressClassParametersReferenceScopeCluster:
		if params.Namespace != nil {
			errs = append(errs, field.Forbidden(fldPath.Child("namespace"), "`parameters.scope` is set to 'Cluster'"))
		}
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("scope"), scope, parametersScopes))
	}
	return errs
}
