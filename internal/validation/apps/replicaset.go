package apps

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/apps"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateReplicaSet checks a new ReplicaSet: its metadata (the name a DNS subdomain) and
// its spec.
func ValidateReplicaSet(rs *api.ReplicaSet, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&rs.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateReplicaSetSpec(&rs.Spec, field.NewPath("spec"), opts)...)
}

// ValidateReplicaSetUpdate checks an update of a ReplicaSet: the spec as on a create, and a
// selector that never changes.
func ValidateReplicaSetUpdate(rs, old *api.ReplicaSet, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateReplicaSetSpec(&rs.Spec, field.NewPath("spec"), opts)...)
	return append(errs, apimachineryvalidation.ValidateImmutableField(rs.Spec.Selector, old.Spec.Selector, field.NewPath("spec", "selector"))...)
}

// ValidateReplicaSetStatusUpdate checks a write of a ReplicaSet's status.
func ValidateReplicaSetStatusUpdate(rs, old *api.ReplicaSet) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateReplicaSetStatus(&rs.Status, field.NewPath("status"))...)
}

func validateReplicaSetSpec(spec *api.ReplicaSetSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	errs := nonnegative(fldPath, counter{"replicas", spec.Replicas}, counter{"minReadySeconds", spec.MinReadySeconds})
	// A ReplicaSet's empty selector is worded as a Deployment's.
	errs = append(errs, validateControllerSelector(spec.Selector, fldPath.Child("selector"), "deployment")...)
	if selector, err := metav1.LabelSelectorAsSelector(spec.Selector); err != nil {
		errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, "invalid label selector"))
	} else {
		errs = append(errs, validateReplicatedTemplate(&spec.Template, selector, fldPath.Child("template"), opts, "ReplicaSet")...)
	}
	return errs
}

func validateReplicaSetStatus(s *api.ReplicaSetStatus, fldPath *field.Path) field.ErrorList {
	errs := nonnegative(fldPath, counter{"replicas", s.Replicas}, counter{"fullyLabeledReplicas", s.FullyLabeledReplicas},
		counter{"readyReplicas", s.ReadyReplicas}, counter{"availableReplicas", s.AvailableReplicas})
	errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(s.ObservedGeneration, fldPath.Child("observedGeneration"))...)
	if s.TerminatingReplicas != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.TerminatingReplicas), fldPath.Child("terminatingReplicas"))...)
	}
	const aboveReplicas = "cannot be greater than status.replicas"
	if s.FullyLabeledReplicas > s.Replicas {
		errs = append(errs, field.Invalid(fldPath.Child("fullyLabeledReplicas"), s.FullyLabeledReplicas, aboveReplicas))
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
