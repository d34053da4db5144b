package batch

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/batch"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// jobOptions are what a Job's strategy derives from the write and the stored Job.
type jobOptions struct {
	pod podOptions
	// mutableSchedulingDirectives: a suspended Job that has not started may change its
	// template's scheduling directives.
	mutableSchedulingDirectives bool
	// requirePrefixedLabels: the template must carry the batch.kubernetes.io/ labels (every
	// Job created by a 1.27 or later server has them).
	requirePrefixedLabels bool
	// mutablePodResources: such a Job may change its containers' resources.
	mutablePodResources bool
}

// ValidateJob checks a new Job: metadata (the name a DNS subdomain), the generated selector
// and labels, the spec, and a name that leaves room for an indexed pod's hostname.
func ValidateJob(job *api.Job, opts jobOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&job.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, validateGeneratedSelector(job, opts.requirePrefixedLabels)...)
	errs = append(errs, validateJobSpecWithSelector(&job.Spec, nil, field.NewPath("spec"), opts.pod)...)
	return append(errs, nameAllowsCompletions(job)...)
}

// ValidateJobUpdate checks an update of a Job on the server cfg describes (rules.md
// valid.update): the spec as on a create, then what may not change — completions (but an
// indexed Job's, together with parallelism), the selector, the template (with the
// exceptions of a suspended Job), completionMode, podFailurePolicy, backoffLimitPerIndex,
// managedBy and successPolicy.
func ValidateJobUpdate(cfg *serverconfig.Config, job, old *api.Job, opts jobOptions) field.ErrorList {
	var errs field.ErrorList
	if !cfg.AtLeast(37) {
		// Kubernetes 1.37 changed the Job strategy's ValidateUpdate to the update checks
		// alone. Before, it ran the create's first — the metadata as new, the generated
		// selector and labels, the spec, the name against completions — so every spec
		// error is listed twice (pkg/registry/batch/job/strategy.go ValidateUpdate in 1.34,
		// 1.35, 1.36).
		errs = ValidateJob(job, opts)
	}
	errs = append(errs, core.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	p := field.NewPath("spec")
	spec, prev := &job.Spec, &old.Spec
	errs = append(errs, validateJobSpecWithSelector(spec, prev, p, opts.pod)...)
	errs = append(errs, validateCompletionsUpdate(spec, prev, p.Child("completions"))...)
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.Selector, prev.Selector, p.Child("selector"))...)
	errs = append(errs, validatePodTemplateUpdate(spec, prev, p, opts)...)
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.CompletionMode, prev.CompletionMode, p.Child("completionMode"))...)
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.PodFailurePolicy, prev.PodFailurePolicy, p.Child("podFailurePolicy"))...)
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.BackoffLimitPerIndex, prev.BackoffLimitPerIndex, p.Child("backoffLimitPerIndex"))...)
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.ManagedBy, prev.ManagedBy, p.Child("managedBy"))...)
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.SuccessPolicy, prev.SuccessPolicy, p.Child("successPolicy"))...)
	errs = append(errs, validateSchedulingUpdate(spec, prev, p.Child("scheduling"))...)
	// Kubernetes 1.37 checks an update's name against completions here; before, the
	// create's checks, run first on every update, had it.
	if !cfg.AtLeast(37) {
		return errs
	}
	return append(errs, nameAllowsCompletions(job)...)
}

// validateGeneratedSelector: unless the selector is manual, the Job has a uid, its template
// carries the labels the strategy generated from the uid and name, and the selector
// selects them.
func validateGeneratedSelector(job *api.Job, prefixedLabels bool) field.ErrorList {
	if job.Spec.ManualSelector != nil && *job.Spec.ManualSelector || job.Spec.Selector == nil {
		return nil
	}
	var errs field.ErrorList
	if job.UID == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "uid"), ""))
	}
	meta := field.NewPath("spec", "template", "metadata")
	uid, name := string(job.UID), job.Name
	errs = append(errs, core.ValidateHasLabel(job.Spec.Template.ObjectMeta, meta, api.LegacyControllerUidLabel, uid)...)
	errs = append(errs, core.ValidateHasLabel(job.Spec.Template.ObjectMeta, meta, api.LegacyJobNameLabel, name)...)
	expected := labels.Set{api.LegacyControllerUidLabel: uid, api.LegacyJobNameLabel: name}
	if prefixedLabels {
		errs = append(errs, core.ValidateHasLabel(job.Spec.Template.ObjectMeta, meta, api.ControllerUidLabel, uid)...)
		errs = append(errs, core.ValidateHasLabel(job.Spec.Template.ObjectMeta, meta, api.JobNameLabel, name)...)
		expected[api.ControllerUidLabel] = uid
		expected[api.JobNameLabel] = name
	}
	if selector, err := metav1.LabelSelectorAsSelector(job.Spec.Selector); err == nil && !selector.Matches(expected) {
		errs = append(errs, field.Invalid(field.NewPath("spec", "selector"), job.Spec.Selector, "`selector` not auto-generated"))
	}
	return errs
}

// nameAllowsCompletions: an indexed Job's last pod is named "<job>-<completions-1>", which
// must be a DNS label.
func nameAllowsCompletions(job *api.Job) field.ErrorList {
	s := &job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != api.IndexedCompletion || s.Completions == nil || *s.Completions <= 0 {
		return nil
	}
	host := fmt.Sprintf("%s-%d", job.Name, *s.Completions-1)
	if len(wellformed.IsDNS1123Label(host)) == 0 {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), job.Name, "will not able to create pod with invalid DNS label: "+host)}
}

// validateJobSpecWithSelector is a Job's spec check: the spec, a selector that is required
// and well-formed, and that selects the template's labels.
func validateJobSpecWithSelector(spec, old *api.JobSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	errs := validateJobSpec(spec, old, fldPath, opts)
	if spec.Selector == nil {
		errs = append(errs, field.Required(fldPath.Child("selector"), ""))
	} else {
		selOpts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: opts.AllowInvalidLabelValueInSelector}
		errs = append(errs, wellformed.ValidateLabelSelector(spec.Selector, selOpts, fldPath.Child("selector"))...)
	}
	if selector, err := metav1.LabelSelectorAsSelector(spec.Selector); err == nil && !selector.Matches(labels.Set(spec.Template.Labels)) {
		errs = append(errs, field.Invalid(fldPath.Child("template", "metadata", "labels"), spec.Template.Labels, "`selector` does not match template `labels`"))
	}
	return errs
}

// validateCompletionsUpdate: completions never change, but an indexed Job's may change
// together with (to the same value as) its parallelism.
func validateCompletionsUpdate(spec, old *api.JobSpec, fldPath *field.Path) field.ErrorList {
	if spec.CompletionMode == nil || *spec.CompletionMode != api.IndexedCompletion {
		return apimachineryvalidation.ValidateImmutableField(spec.Completions, old.Completions, fldPath)
	}
	if spec.Completions == nil || old.Completions != nil && *spec.Completions == *old.Completions {
		// Unchanged, or dropped (which the spec check already refuses).
		return nil
	}
	// The defaults always give a Job a parallelism; the server reads it unguarded.
	if spec.Parallelism == nil {
		panic(registry.ServerPanic{Reason: registry.NilDereference})
	}
	if *spec.Completions != *spec.Parallelism {
		return field.ErrorList{field.Invalid(fldPath, spec.Completions, "can only be modified in tandem with spec.parallelism")}
	}
	return nil
}

// validatePodTemplateUpdate: the template of a Job is immutable. A suspended Job that has
// not started may change its scheduling directives (compared as if they had not changed)
// and, with mutablePodResources, its containers' resources.
func validatePodTemplateUpdate(spec, old *api.JobSpec, fldPath *field.Path, opts jobOptions) field.ErrorList {
	tpl, oldTpl := &spec.Template, &old.Template
	if opts.mutableSchedulingDirectives {
		oldTpl = withSchedulingDirectivesOf(oldTpl, tpl)
	}
	if old.Suspend != nil && *old.Suspend && opts.mutablePodResources {
		return podResourcesOnly(&tpl.Spec, &oldTpl.Spec, fldPath.Child("template.spec"))
	}
	return apimachineryvalidation.ValidateImmutableField(tpl, oldTpl, fldPath.Child("template"))
}

// withSchedulingDirectivesOf is a copy of old with the scheduling directives of tpl: node
// affinity (an affinity with nothing else may be dropped altogether), node selector,
// tolerations, annotations, labels and scheduling gates. old is not changed.
func withSchedulingDirectivesOf(old, tpl *coreapi.PodTemplateSpec) *coreapi.PodTemplateSpec {
	out := *old
	switch a, oa := tpl.Spec.Affinity, old.Spec.Affinity; {
	case a == nil && oa != nil:
		rest := *oa
		rest.NodeAffinity = nil
		if rest == (coreapi.Affinity{}) {
			out.Spec.Affinity = nil
		} else {
			out.Spec.Affinity = &rest
		}
	case a != nil && oa == nil:
		out.Spec.Affinity = &coreapi.Affinity{NodeAffinity: a.NodeAffinity}
	case a != nil && oa != nil:
		merged := *oa
		merged.NodeAffinity = a.NodeAffinity
		out.Spec.Affinity = &merged
	}
	out.Spec.NodeSelector = tpl.Spec.NodeSelector
	out.Spec.Tolerations = tpl.Spec.Tolerations
	out.Annotations = tpl.Annotations
	out.Labels = tpl.Labels
	out.Spec.SchedulingGates = tpl.Spec.SchedulingGates
	return &out
}

// podResourcesOnly: the pod spec differs from the old one at most in the resources of
// containers and init containers kept at the same place with the same name.
func podResourcesOnly(spec, old *coreapi.PodSpec, fldPath *field.Path) field.ErrorList {
	prev := *old
	prev.Containers = withResourcesOf(old.Containers, spec.Containers)
	prev.InitContainers = withResourcesOf(old.InitContainers, spec.InitContainers)
	return apimachineryvalidation.ValidateImmutableField(*spec, prev, fldPath)
}

// withResourcesOf is old with the resources of cur's containers of the same index and
// name, when both lists are as long; old is not changed.
func withResourcesOf(old, cur []coreapi.Container) []coreapi.Container {
	if len(old) != len(cur) {
		return old
	}
	out := make([]coreapi.Container, len(old))
	copy(out, old)
	for i := range out {
		if out[i].Name == cur[i].Name {
			out[i].Resources = cur[i].Resources
		}
	}
	return out
}
