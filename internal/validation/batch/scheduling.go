package batch

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/batch"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A Job's spec.scheduling (gate WorkloadWithJob, alpha and off in 1.37) is dropped by the
// strategy unless the stored Job already has it; these rules only meet Jobs stored while
// the gate was on.

// validateGangMinCount: a gang's minimum count is at most the Job's parallelism (1 when
// unset).
func validateGangMinCount(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	s := spec.Scheduling
	if s == nil || s.SchedulingPolicy == nil || s.SchedulingPolicy.Gang == nil || s.SchedulingPolicy.Gang.MinCount == nil {
		return nil
	}
	parallelism := int32(1)
	if spec.Parallelism != nil {
		parallelism = *spec.Parallelism
	}
	minCount := *s.SchedulingPolicy.Gang.MinCount
	if minCount <= parallelism {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath.Child("schedulingPolicy", "gang", "minCount"), minCount,
		fmt.Sprintf("must not be greater than parallelism (%d)", parallelism))}
}

// validateSchedulingUpdate: a scheduling policy stays basic or gang.
func validateSchedulingUpdate(spec, old *api.JobSpec, fldPath *field.Path) field.ErrorList {
	if spec.Scheduling == nil || old.Scheduling == nil {
		return nil
	}
	cur, prev := spec.Scheduling.SchedulingPolicy, old.Scheduling.SchedulingPolicy
	if cur == nil || prev == nil || (cur.Basic != nil) == (prev.Basic != nil) {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath.Child("schedulingPolicy"), nil,
		"the basic/gang policy variant is immutable after creation; only schedulingPolicy.gang.minCount may be updated")}
}

// validateJobScheduling checks the workload a Job's scheduling compiles to, as the server
// builds it (component-helpers' workloadbuilder, for a Job that allows both policies and
// both disruption modes): the policy resolves to the basic one unless a gang is given,
// and the disruption mode "all" does not go with it.
func validateJobScheduling(spec, old *api.JobSpec, fldPath *field.Path) field.ErrorList {
	s := spec.Scheduling
	if s == nil || s.DisruptionMode == nil || s.DisruptionMode.Single != nil || s.DisruptionMode.All == nil {
		return nil
	}
	if p := s.SchedulingPolicy; p != nil && p.Basic == nil && p.Gang != nil {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath.Child("disruptionMode"), "", "the disruptionMode `all` is not supported with the Basic scheduling policy")}
}
