package batch

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/batch"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The declarative validation of the batch group that 1.37 enforces (the alpha rules are
// left out: they are never enforced). Like the server's generated code, it skips whatever
// an update leaves unchanged — rule by rule: the server's skipping of a whole unchanged
// spec or template gives the same answer, each rule below it being skipped too, and costs
// a deep comparison of the spec.

// declarativeJob is a Job's: its spec's (old is nil on a create).
func declarativeJob(job, old *api.Job) field.ErrorList {
	var oldSpec *api.JobSpec
	if old != nil {
		oldSpec = &old.Spec
	}
	return declarativeJobSpec(&job.Spec, oldSpec, field.NewPath("spec"))
}

// declarativeCronJob is a CronJob's: a schedule is required (beta), and its job
// template's spec is a Job's.
func declarativeCronJob(cj, old *api.CronJob) field.ErrorList {
	spec := &cj.Spec
	var oldSpec *api.CronJobSpec
	if old != nil {
		oldSpec = &old.Spec
	}
	p := field.NewPath("spec")
	var errs field.ErrorList
	if spec.Schedule == "" && (oldSpec == nil || oldSpec.Schedule != "") {
		errs = append(errs, field.Required(p.Child("schedule"), "").MarkBeta())
	}
	var oldJobSpec *api.JobSpec
	if oldSpec != nil {
		oldJobSpec = &oldSpec.JobTemplate.Spec
	}
	return append(errs, declarativeJobSpec(&spec.JobTemplate.Spec, oldJobSpec, p.Child("jobTemplate", "spec"))...)
}

// declarativeJobSpec: the pod template's rules, and spec.scheduling (gate WorkloadWithJob,
// off in 1.37) forbidden, neither set nor cleared by an update.
func declarativeJobSpec(spec, old *api.JobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	var oldTpl *coreapi.PodTemplateSpec
	if old != nil {
		oldTpl = &old.Template
	}
	errs = append(errs, declarativePodTemplate(&spec.Template, oldTpl, fldPath.Child("template"))...)
	if spec.Scheduling == nil && (old == nil || old.Scheduling == nil) ||
		old != nil && apiequality.Semantic.DeepEqual(spec.Scheduling, old.Scheduling) {
		return errs
	}
	p := fldPath.Child("scheduling")
	if spec.Scheduling != nil {
		errs = append(errs, field.Forbidden(p, ""))
	}
	if old != nil {
		switch {
		case old.Scheduling == nil && spec.Scheduling != nil:
			errs = append(errs, field.Invalid(p, nil, "field cannot be set once created").WithOrigin("update"))
		case old.Scheduling != nil && spec.Scheduling == nil:
			errs = append(errs, field.Invalid(p, nil, "field cannot be cleared once set").WithOrigin("update"))
		}
	}
	return errs
}
