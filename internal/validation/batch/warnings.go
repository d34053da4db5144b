package batch

import (
	"fmt"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/batch"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The warnings the batch strategies return with an accepted write: a name that is no DNS
// label (it names pods), an indexed Job too large to track, the pod template's (package
// core), and a CronJob schedule with a time zone in it. An update warns of the spec only
// when it moved the generation.

const (
	warnCompletions = 100_000
	warnParallelism = 10_000
)

func nameWarnings(name string) []string {
	if msgs := wellformed.IsDNS1123Label(name); len(msgs) != 0 {
		return []string{fmt.Sprintf("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: %v", msgs)}
	}
	return nil
}

// jobSpecWarnings are the warnings of a Job's spec at fldPath (old nil on a create).
func jobSpecWarnings(cfg *serverconfig.Config, fldPath *field.Path, spec, old *api.JobSpec) []string {
	var w []string
	if spec.CompletionMode != nil && *spec.CompletionMode == api.IndexedCompletion {
		var completions, parallelism int32
		if spec.Completions != nil {
			completions = *spec.Completions
		}
		if spec.Parallelism != nil {
			parallelism = *spec.Parallelism
		}
		if completions > warnCompletions && parallelism > warnParallelism {
			w = append(w, fmt.Sprintf("%s: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail", fldPath))
		}
	}
	var oldTpl *coreapi.PodTemplateSpec
	if old != nil {
		oldTpl = &old.Template
	}
	return append(w, core.GetWarningsForPodTemplate(cfg, fldPath.Child("template"), &spec.Template, oldTpl)...)
}

func jobWarningsOnCreate(cfg *serverconfig.Config, job *api.Job) []string {
	return append(nameWarnings(job.Name), jobSpecWarnings(cfg, field.NewPath("spec"), &job.Spec, nil)...)
}

func jobWarningsOnUpdate(cfg *serverconfig.Config, job, old *api.Job) []string {
	if job.Generation == old.Generation {
		return nil
	}
	return jobSpecWarnings(cfg, field.NewPath("spec"), &job.Spec, &old.Spec)
}

var jobTemplateSpecPath = field.NewPath("spec", "jobTemplate", "spec")

func cronJobWarningsOnCreate(cfg *serverconfig.Config, cj *api.CronJob) []string {
	return append(nameWarnings(cj.Name), jobSpecWarnings(cfg, jobTemplateSpecPath, &cj.Spec.JobTemplate.Spec, nil)...)
}

// cronJobWarningsOnUpdate: the job template's when the generation moved, and a time zone
// in the schedule (the server names the field "spec.spec.schedule").
func cronJobWarningsOnUpdate(cfg *serverconfig.Config, cj, old *api.CronJob) []string {
	var w []string
	if cj.Generation != old.Generation {
		w = jobSpecWarnings(cfg, jobTemplateSpecPath, &cj.Spec.JobTemplate.Spec, &old.Spec.JobTemplate.Spec)
	}
	if strings.Contains(cj.Spec.Schedule, "TZ") {
		w = append(w, fmt.Sprintf("cannot use TZ or CRON_TZ in %s, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details", field.NewPath("spec", "spec", "schedule")))
	}
	return w
}
