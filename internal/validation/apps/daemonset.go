package apps

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/apps"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateDaemonSet checks a new DaemonSet: its metadata (the name a DNS subdomain) and its
// spec.
func ValidateDaemonSet(ds *api.DaemonSet, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&ds.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateDaemonSetSpec(&ds.Spec, field.NewPath("spec"), opts)...)
}

// ValidateDaemonSetUpdate checks an update of a DaemonSet: the template generation moves
// with the template and only up, the selector never changes (rules.md valid.update), then the spec as
// on a create.
func ValidateDaemonSetUpdate(ds, old *api.DaemonSet, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateDaemonSetSpecUpdate(&ds.Spec, &old.Spec, field.NewPath("spec"))...)
	return append(errs, validateDaemonSetSpec(&ds.Spec, field.NewPath("spec"), opts)...)
}

// ValidateDaemonSetStatusUpdate checks a write of a DaemonSet's status.
func ValidateDaemonSetStatusUpdate(ds, old *api.DaemonSet) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	p := field.NewPath("status")
	s := &ds.Status
	errs = append(errs, nonnegative(p, counter{"currentNumberScheduled", s.CurrentNumberScheduled}, counter{"numberMisscheduled", s.NumberMisscheduled},
		counter{"desiredNumberScheduled", s.DesiredNumberScheduled}, counter{"numberReady", s.NumberReady})...)
	errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(s.ObservedGeneration, p.Child("observedGeneration"))...)
	errs = append(errs, nonnegative(p, counter{"updatedNumberScheduled", s.UpdatedNumberScheduled}, counter{"numberAvailable", s.NumberAvailable},
		counter{"numberUnavailable", s.NumberUnavailable})...)
	if s.CollisionCount != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.CollisionCount), p.Child("collisionCount"))...)
	}
	if core.IsDecremented(s.CollisionCount, old.Status.CollisionCount) {
		errs = append(errs, field.Invalid(p.Child("collisionCount"), collisionCount(s.CollisionCount), "cannot be decremented"))
	}
	return errs
}

// validateDaemonSetSpecUpdate: the template generation (from the deprecated annotation of
// apps/v1) never goes down, goes up exactly when the template changes, and the selector is
// immutable.
func validateDaemonSetSpecUpdate(spec, old *api.DaemonSetSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	gen := fldPath.Child("templateGeneration")
	if spec.TemplateGeneration < old.TemplateGeneration {
		errs = append(errs, field.Invalid(gen, spec.TemplateGeneration, "must not be decremented"))
	}
	changed := !apiequality.Semantic.DeepEqual(spec.Template, old.Template)
	switch {
	case spec.TemplateGeneration == old.TemplateGeneration && changed:
		errs = append(errs, field.Invalid(gen, spec.TemplateGeneration, "must be incremented upon template update"))
	case spec.TemplateGeneration > old.TemplateGeneration && !changed:
		errs = append(errs, field.Invalid(gen, spec.TemplateGeneration, "must not be incremented without template update"))
	}
	return append(errs, apimachineryvalidation.ValidateImmutableField(spec.Selector, old.Selector, field.NewPath("spec", "selector"))...)
}

// validateDaemonSetUpdateBefore34 is an update as Kubernetes 1.33 and older's strategy
// checks it: the DaemonSet as new, then as an update whose spec rules leave the selector
// out, then the selector's immutability (which 1.34 moved into the update's rules). An
// error of the spec is reported twice: the message says it once, its causes twice.
func validateDaemonSetUpdateBefore34(ds, old *api.DaemonSet, opts podOptions) field.ErrorList {
	errs := ValidateDaemonSet(ds, opts)
	errs = append(errs, core.ValidateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	spec := validateDaemonSetSpecUpdate(&ds.Spec, &old.Spec, field.NewPath("spec"))
	selector := apimachineryvalidation.ValidateImmutableField(ds.Spec.Selector, old.Spec.Selector, field.NewPath("spec", "selector"))
	errs = append(errs, spec[:len(spec)-len(selector)]...)
	errs = append(errs, validateDaemonSetSpec(&ds.Spec, field.NewPath("spec"), opts)...)
	return append(errs, selector...)
}

func validateDaemonSetSpec(spec *api.DaemonSetSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	selOpts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: opts.AllowInvalidLabelValueInSelector}
	errs := wellformed.ValidateLabelSelector(spec.Selector, selOpts, fldPath.Child("selector"))
	if selector, err := metav1.LabelSelectorAsSelector(spec.Selector); err == nil && !selector.Matches(labels.Set(spec.Template.Labels)) {
		errs = append(errs, field.Invalid(fldPath.Child("template", "metadata", "labels"), spec.Template.Labels, "`selector` does not match template `labels`"))
	}
	if spec.Selector != nil && len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
		errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, "empty selector is invalid for daemonset"))
	}
	errs = append(errs, validatePodTemplateSpec(&spec.Template, fldPath.Child("template"), opts)...)
	errs = append(errs, alwaysRestarting(&spec.Template.Spec, fldPath.Child("template", "spec"), "DaemonSet")...)
	errs = append(errs, nonnegative(fldPath, counter{"minReadySeconds", spec.MinReadySeconds})...)
	errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(spec.TemplateGeneration, fldPath.Child("templateGeneration"))...)
	errs = append(errs, validateDaemonSetUpdateStrategy(&spec.UpdateStrategy, fldPath.Child("updateStrategy"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*spec.RevisionHistoryLimit), fldPath.Child("revisionHistoryLimit"))...)
	}
	return errs
}

func validateDaemonSetUpdateStrategy(s *api.DaemonSetUpdateStrategy, fldPath *field.Path) field.ErrorList {
	switch s.Type {
	case api.OnDeleteDaemonSetStrategyType:
		return nil
	case api.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(fldPath.Child("rollingUpdate"), "")}
		}
		return validateRollingUpdateDaemonSet(s.RollingUpdate, fldPath.Child("rollingUpdate"))
	}
	return field.ErrorList{field.NotSupported(fldPath, s, []string{string(api.RollingUpdateDaemonSetStrategyType), string(api.OnDeleteDaemonSetStrategyType)})}
}

// validateRollingUpdateDaemonSet: both knobs well-formed and at most 100%, and exactly one
// of them not zero.
func validateRollingUpdateDaemonSet(ru *api.RollingUpdateDaemonSet, fldPath *field.Path) field.ErrorList {
	unavailable, surge := fldPath.Child("maxUnavailable"), fldPath.Child("maxSurge")
	errs := ValidatePositiveIntOrPercent(ru.MaxUnavailable, unavailable)
	errs = append(errs, ValidatePositiveIntOrPercent(ru.MaxSurge, surge)...)
	errs = append(errs, IsNotMoreThan100Percent(ru.MaxUnavailable, unavailable)...)
	errs = append(errs, IsNotMoreThan100Percent(ru.MaxSurge, surge)...)
	hasUnavailable, hasSurge := amount(ru.MaxUnavailable) != 0, amount(ru.MaxSurge) != 0
	switch {
	case hasUnavailable && hasSurge:
		errs = append(errs, field.Invalid(surge, ru.MaxSurge, "may not be set when maxUnavailable is non-zero"))
	case !hasUnavailable && !hasSurge:
		errs = append(errs, field.Required(unavailable, "cannot be 0 when maxSurge is 0"))
	}
	return errs
}
