package policy

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/policy"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/apps"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// evictionPolicies are the unhealthy-pod eviction policies, sorted.
var evictionPolicies = []string{string(api.AlwaysAllow), string(api.IfHealthyBudget)}

// Strategy is the validation of a kind of the policy group as its registry strategy runs
// it, or nil when it is not ported. 1.37 enforces none of the kind's declarative rules
// (they are alpha).
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind != "PodDisruptionBudget" {
		return nil
	}
	return &registry.Strategy{
		Namespaced: true,
		Validate: func(obj any) field.ErrorList {
			return ValidatePodDisruptionBudget(obj.(*api.PodDisruptionBudget), false)
		},
		ValidateUpdate: func(obj, old any) field.ErrorList {
			o := old.(*api.PodDisruptionBudget)
			// A stored selector with label values an older server took stays acceptable.
			tolerate := o.Spec.Selector != nil && len(wellformed.ValidateLabelSelector(o.Spec.Selector, metav1validation.LabelSelectorValidationOptions{}, nil)) > 0
			return ValidatePodDisruptionBudget(obj.(*api.PodDisruptionBudget), tolerate)
		},
		ValidateStatusUpdate: func(obj, old any) field.ErrorList {
			return ValidatePodDisruptionBudgetStatus(&obj.(*api.PodDisruptionBudget).Status, field.NewPath("status"))
		},
		Declarative: registry.NoDeclarativeRules,
	}
}

// ValidatePodDisruptionBudget checks a PodDisruptionBudget's spec; allowInvalidLabelValues
// tolerates label values in the selector that are not valid label values.
func ValidatePodDisruptionBudget(pdb *api.PodDisruptionBudget, allowInvalidLabelValues bool) field.ErrorList {
	spec := &pdb.Spec
	p := field.NewPath("spec")
	var errs field.ErrorList
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		errs = append(errs, field.Invalid(p, *spec, "minAvailable and maxUnavailable cannot be both set"))
	}
	if spec.MinAvailable != nil {
		errs = append(errs, apps.ValidatePositiveIntOrPercent(*spec.MinAvailable, p.Child("minAvailable"))...)
		errs = append(errs, apps.IsNotMoreThan100Percent(*spec.MinAvailable, p.Child("minAvailable"))...)
	}
	if spec.MaxUnavailable != nil {
		errs = append(errs, apps.ValidatePositiveIntOrPercent(*spec.MaxUnavailable, p.Child("maxUnavailable"))...)
		errs = append(errs, apps.IsNotMoreThan100Percent(*spec.MaxUnavailable, p.Child("maxUnavailable"))...)
	}
	opts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: allowInvalidLabelValues}
	errs = append(errs, wellformed.ValidateLabelSelector(spec.Selector, opts, p.Child("selector"))...)
	if pol := spec.UnhealthyPodEvictionPolicy; pol != nil && string(*pol) != evictionPolicies[0] && string(*pol) != evictionPolicies[1] {
		errs = append(errs, field.NotSupported(p.Child("unhealthyPodEvictionPolicy"), *pol, evictionPolicies))
	}
	return errs
}

// ValidatePodDisruptionBudgetStatus checks a write of the status (as policy/v1 has it):
// the conditions, and counters not negative. The metadata of a status write is not checked
// by the kind's own validation.
func ValidatePodDisruptionBudgetStatus(s *api.PodDisruptionBudgetStatus, fldPath *field.Path) field.ErrorList {
	errs := metav1validation.ValidateConditions(s.Conditions, fldPath.Child("conditions"))
	for _, c := range []struct {
		name  string
		value int32
	}{{"disruptionsAllowed", s.DisruptionsAllowed}, {"currentHealthy", s.CurrentHealthy}, {"desiredHealthy", s.DesiredHealthy}, {"expectedPods", s.ExpectedPods}} {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(c.value), fldPath.Child(c.name))...)
	}
	return errs
}
