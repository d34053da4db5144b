package coordination

import (
	"slices"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/coordination"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// leaseStrategies are the strategies Kubernetes defines (others carry a domain prefix).
var leaseStrategies = []api.CoordinatedLeaseStrategy{api.OldestEmulationVersion}

// ValidateLease checks a Lease: its metadata and spec.
func ValidateLease(l *api.Lease) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(&l.ObjectMeta), true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateLeaseSpec(&l.Spec, field.NewPath("spec"))...)
}

// ValidateLeaseUpdate checks an update of a Lease: its metadata and the new spec.
func ValidateLeaseUpdate(l, old *api.Lease) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessorUpdate(wellformed.Meta(&l.ObjectMeta), &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateLeaseSpec(&l.Spec, field.NewPath("spec"))...)
}

func validateLeaseSpec(spec *api.LeaseSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if spec.LeaseDurationSeconds != nil && *spec.LeaseDurationSeconds <= 0 {
		errs = append(errs, field.Invalid(fldPath.Child("leaseDurationSeconds"), spec.LeaseDurationSeconds, "must be greater than 0"))
	}
	if spec.LeaseTransitions != nil && *spec.LeaseTransitions < 0 {
		errs = append(errs, field.Invalid(fldPath.Child("leaseTransitions"), spec.LeaseTransitions, "must be greater than or equal to 0"))
	}
	if spec.Strategy != nil {
		errs = append(errs, validateStrategy(*spec.Strategy, fldPath.Child("strategy"))...)
	}
	if spec.PreferredHolder != nil && *spec.PreferredHolder != "" && (spec.Strategy == nil || *spec.Strategy == "") {
		errs = append(errs, field.Forbidden(fldPath.Child("preferredHolder"), "may only be specified if `strategy` is defined"))
	}
	return errs
}

// validateStrategy: a strategy without "/" is one Kubernetes defines, one with "/" a
// qualified name. The server reports both at spec.strategy.strategy.
func validateStrategy(s api.CoordinatedLeaseStrategy, fldPath *field.Path) field.ErrorList {
	p := fldPath.Child("strategy")
	if !strings.Contains(string(s), "/") {
		if !slices.Contains(leaseStrategies, s) {
			return field.ErrorList{field.NotSupported(p, s, leaseStrategies)}
		}
		return nil
	}
	var errs field.ErrorList
	for _, msg := range wellformed.IsQualifiedName(string(s)) {
		errs = append(errs, field.Invalid(p, s, msg))
	}
	return errs
}

// Strategy is the validation of a kind of the coordination.k8s.io group as its registry
// strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind != "Lease" {
		return nil
	}
	return &registry.Strategy{
		Namespaced:     true,
		Validate:       func(obj any) field.ErrorList { return ValidateLease(obj.(*api.Lease)) },
		ValidateUpdate: func(obj, old any) field.ErrorList { return ValidateLeaseUpdate(obj.(*api.Lease), old.(*api.Lease)) },
		Declarative:    registry.NoDeclarativeRules,
	}
}
