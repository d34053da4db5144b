package apps

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/apps"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateDeployment checks a new Deployment: its metadata (the name a DNS subdomain) and
// its spec.
func ValidateDeployment(d *api.Deployment, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&d.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateDeploymentSpec(&d.Spec, field.NewPath("spec"), opts)...)
}

// ValidateDeploymentUpdate checks an update of a Deployment: the spec as on a create, and a
// selector that never changes (rules.md valid.update).
func ValidateDeploymentUpdate(d, old *api.Deployment, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateDeploymentSpec(&d.Spec, field.NewPath("spec"), opts)...)
	return append(errs, apimachineryvalidation.ValidateImmutableField(d.Spec.Selector, old.Spec.Selector, field.NewPath("spec", "selector"))...)
}

// ValidateDeploymentStatusUpdate checks a write of a Deployment's status.
func ValidateDeploymentStatusUpdate(d, old *api.Deployment) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	p := field.NewPath("status")
	errs = append(errs, validateDeploymentStatus(&d.Status, p)...)
	if core.IsDecremented(d.Status.CollisionCount, old.Status.CollisionCount) {
		errs = append(errs, field.Invalid(p.Child("collisionCount"), collisionCount(d.Status.CollisionCount), "cannot be decremented"))
	}
	return errs
}

func validateDeploymentSpec(spec *api.DeploymentSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	errs := apimachineryvalidation.ValidateNonnegativeField(int64(spec.Replicas), fldPath.Child("replicas"))
	errs = append(errs, validateControllerSelector(spec.Selector, fldPath.Child("selector"), "deployment")...)
	if selector, err := metav1.LabelSelectorAsSelector(spec.Selector); err != nil {
		errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, "invalid label selector"))
	} else {
		errs = append(errs, validateReplicatedTemplate(&spec.Template, selector, fldPath.Child("template"), opts, "ReplicaSet")...)
	}
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, fldPath.Child("strategy"))...)
	errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*spec.RevisionHistoryLimit), fldPath.Child("revisionHistoryLimit"))...)
	}
	if spec.RollbackTo != nil {
		// The rollback requested through the deprecated annotation: a revision, named
		// "version" under "rollback" in the message.
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(spec.RollbackTo.Revision, fldPath.Child("rollback", "version"))...)
	}
	if spec.ProgressDeadlineSeconds != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*spec.ProgressDeadlineSeconds), fldPath.Child("progressDeadlineSeconds"))...)
		if *spec.ProgressDeadlineSeconds <= spec.MinReadySeconds {
			errs = append(errs, field.Invalid(fldPath.Child("progressDeadlineSeconds"), spec.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateControllerSelector checks the selector of a Deployment or ReplicaSet (and, with
// its own word, a StatefulSet's): required, well-formed with valid label values, and not
// empty.
func validateControllerSelector(sel *metav1.LabelSelector, fldPath *field.Path, kind string) field.ErrorList {
	if sel == nil {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	errs := wellformed.ValidateLabelSelector(sel, metav1validation.LabelSelectorValidationOptions{}, fldPath)
	if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		errs = append(errs, field.Invalid(fldPath, sel, "empty selector is invalid for "+kind))
	}
	return errs
}

// validateReplicatedTemplate checks the pod template of a Deployment, ReplicaSet or
// DaemonSet-like controller: the selector selects its labels, the template is a valid pod
// template, and its pods run forever (restartPolicy Always, no activeDeadlineSeconds).
func validateReplicatedTemplate(tpl *coreapi.PodTemplateSpec, selector labels.Selector, fldPath *field.Path, opts podOptions, kind string) field.ErrorList {
	var errs field.ErrorList
	if !selector.Empty() && !selector.Matches(labels.Set(tpl.Labels)) {
		errs = append(errs, field.Invalid(fldPath.Child("metadata", "labels"), tpl.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, validatePodTemplateSpec(tpl, fldPath, opts)...)
	return append(errs, alwaysRestarting(&tpl.Spec, fldPath.Child("spec"), kind)...)
}

// alwaysRestarting: a controller's pods restart Always and have no deadline.
func alwaysRestarting(spec *coreapi.PodSpec, fldPath *field.Path, kind string) field.ErrorList {
	var errs field.ErrorList
	if spec.RestartPolicy != coreapi.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(fldPath.Child("restartPolicy"), spec.RestartPolicy, []string{string(coreapi.RestartPolicyAlways)}))
	}
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(fldPath.Child("activeDeadlineSeconds"), "activeDeadlineSeconds in "+kind+" is not Supported"))
	}
	return errs
}

func validateDeploymentStrategy(s *api.DeploymentStrategy, fldPath *field.Path) field.ErrorList {
	switch s.Type {
	case api.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(fldPath.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
	case api.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			// Defaulting always fills it.
			return field.ErrorList{field.Required(fldPath.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, fldPath.Child("rollingUpdate"))
	default:
		return field.ErrorList{field.NotSupported(fldPath, s, []string{string(api.RecreateDeploymentStrategyType), string(api.RollingUpdateDeploymentStrategyType)})}
	}
	return nil
}

// validateRollingUpdateDeployment: both knobs well-formed, not both zero, and at most 100%
// unavailable.
func validateRollingUpdateDeployment(ru *api.RollingUpdateDeployment, fldPath *field.Path) field.ErrorList {
	errs := ValidatePositiveIntOrPercent(ru.MaxUnavailable, fldPath.Child("maxUnavailable"))
	errs = append(errs, ValidatePositiveIntOrPercent(ru.MaxSurge, fldPath.Child("maxSurge"))...)
	if amount(ru.MaxUnavailable) == 0 && amount(ru.MaxSurge) == 0 {
		errs = append(errs, field.Invalid(fldPath.Child("maxUnavailable"), ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
	}
	return append(errs, IsNotMoreThan100Percent(ru.MaxUnavailable, fldPath.Child("maxUnavailable"))...)
}

func validateDeploymentStatus(s *api.DeploymentStatus, fldPath *field.Path) field.ErrorList {
	errs := apimachineryvalidation.ValidateNonnegativeField(s.ObservedGeneration, fldPath.Child("observedGeneration"))
	errs = append(errs, nonnegative(fldPath, counter{"replicas", s.Replicas}, counter{"updatedReplicas", s.UpdatedReplicas},
		counter{"readyReplicas", s.ReadyReplicas}, counter{"availableReplicas", s.AvailableReplicas}, counter{"unavailableReplicas", s.UnavailableReplicas})...)
	if s.TerminatingReplicas != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.TerminatingReplicas), fldPath.Child("terminatingReplicas"))...)
	}
	if s.CollisionCount != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.CollisionCount), fldPath.Child("collisionCount"))...)
	}
	const aboveReplicas = "cannot be greater than status.replicas"
	if s.UpdatedReplicas > s.Replicas {
		errs = append(errs, field.Invalid(fldPath.Child("updatedReplicas"), s.UpdatedReplicas, aboveReplicas))
	}
	if s.ReadyReplicas > s.Replicas {
		errs = append(errs, field.Invalid(fldPath.Child("readyReplicas"), s.ReadyReplicas, aboveReplicas))
	}
	if s.AvailableReplicas > s.Replicas {
		errs = append(errs, field.Invalid(fldPath.Child("availableReplicas"), s.AvailableReplicas, aboveReplicas))
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		errs = append(errs, field.Invalid(fldPath.Child("availableReplicas"), s.AvailableReplicas, "cannot be greater than readyReplicas"))
	}
	return errs
}
