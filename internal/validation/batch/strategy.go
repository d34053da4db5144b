package batch

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/batch"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the batch group as its registry strategy runs
// it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "Job":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				job := obj.(*api.Job)
				withGeneratedSelector(job)
				return ValidateJob(job, jobOptionsFor(job, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				job, o := obj.(*api.Job), old.(*api.Job)
				return ValidateJobUpdate(job, o, jobOptionsFor(job, o))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateJobStatusUpdate(obj.(*api.Job), old.(*api.Job))
			},
			Declarative: func(obj, old any) field.ErrorList {
				var o *api.Job
				if old != nil {
					o = old.(*api.Job)
				}
				return declarativeJob(obj.(*api.Job), o)
			},
			WarningsOnCreate: func(obj any) []string { return jobWarningsOnCreate(obj.(*api.Job)) },
			WarningsOnUpdate: func(obj, old any) []string { return jobWarningsOnUpdate(obj.(*api.Job), old.(*api.Job)) },
		}
	case "CronJob":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				cj := obj.(*api.CronJob)
				return ValidateCronJob(cj, podOptionsFor(&cj.Spec.JobTemplate.Spec.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				cj, o := obj.(*api.CronJob), old.(*api.CronJob)
				return ValidateCronJobUpdate(cj, o, podOptionsFor(&cj.Spec.JobTemplate.Spec.Template, &o.Spec.JobTemplate.Spec.Template))
			},
			// The status strategy checks nothing of its own.
			ValidateStatusUpdate: func(obj, old any) field.ErrorList { return nil },
			Declarative: func(obj, old any) field.ErrorList {
				var o *api.CronJob
				if old != nil {
					o = old.(*api.CronJob)
				}
				return declarativeCronJob(obj.(*api.CronJob), o)
			},
			WarningsOnCreate: func(obj any) []string { return cronJobWarningsOnCreate(obj.(*api.CronJob)) },
			WarningsOnUpdate: func(obj, old any) []string { return cronJobWarningsOnUpdate(obj.(*api.CronJob), old.(*api.CronJob)) },
		}
	}
	return nil
}

// jobOptionsFor are the options of a write of job over old (nil on a create).
func jobOptionsFor(job, old *api.Job) jobOptions {
	opts := jobOptions{requirePrefixedLabels: true}
	if old == nil {
		opts.pod = podOptionsFor(&job.Spec.Template, nil)
		return opts
	}
	opts.pod = podOptionsFor(&job.Spec.Template, &old.Spec.Template)
	opts.pod.AllowInvalidLabelValueInSelector = opts.pod.AllowInvalidLabelValueInSelector || metav1validation.LabelSelectorHasInvalidLabelValue(old.Spec.Selector)
	// A suspended Job that has not started (or is suspended again, with no pod running)
	// may change its scheduling directives and, gates MutableSchedulingDirectivesForSuspendedJobs
	// and MutablePodResourcesForSuspendedJobs being beta and on in 1.37, its pods'
	// resources.
	suspended := old.Spec.Suspend != nil && *old.Spec.Suspend
	mutable := suspended && (old.Status.StartTime == nil || conditionTrue(old.Status.Conditions, api.JobSuspended)) && old.Status.Active == 0
	opts.mutableSchedulingDirectives = mutable
	opts.mutablePodResources = mutable
	// Jobs created before the batch.kubernetes.io/ labels existed are not asked for them.
	_, hadName := old.Spec.Template.Labels[api.JobNameLabel]
	_, hadUID := old.Spec.Template.Labels[api.ControllerUidLabel]
	opts.requirePrefixedLabels = hadName && hadUID
	return opts
}

// standInUID is the uid a predicted create validates with: the server assigns the real one
// before its strategy runs.
const standInUID = types.UID("00000000-0000-0000-0000-000000000000")

// withGeneratedSelector does to a predicted create what the Job strategy does before it
// validates: unless the selector is manual, the template gets the job-name and
// controller-uid labels (legacy and batch.kubernetes.io/ ones, those it lacks) and the
// selector the controller-uid one. The prediction leaves these out, as values the server
// assigns (the uid); a Job that has a uid (the server's, as conformance gives it) is
// taken as already prepared.
func withGeneratedSelector(job *api.Job) {
	if job.UID != "" || job.Spec.ManualSelector != nil && *job.Spec.ManualSelector {
		return
	}
	job.UID = standInUID
	tpl := &job.Spec.Template
	if tpl.Labels == nil {
		tpl.Labels = map[string]string{}
	}
	for key, value := range map[string]string{
		api.LegacyJobNameLabel: job.Name, api.JobNameLabel: job.Name,
		api.LegacyControllerUidLabel: string(job.UID), api.ControllerUidLabel: string(job.UID),
	} {
		if _, ok := tpl.Labels[key]; !ok {
			tpl.Labels[key] = value
		}
	}
	if job.Spec.Selector == nil {
		job.Spec.Selector = &metav1.LabelSelector{}
	}
	if job.Spec.Selector.MatchLabels == nil {
		job.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := job.Spec.Selector.MatchLabels[api.ControllerUidLabel]; !ok {
		job.Spec.Selector.MatchLabels[api.ControllerUidLabel] = string(job.UID)
	}
}
