package batch

import (
	"fmt"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/batch"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// statusRules say which of the transitions a status write makes are checked: the strategy
// checks a rule when the fields it reads changed (gate JobManagedBy, GA in 1.37, makes
// them all apply).
type statusRules struct {
	decreasingSucceeded, decreasingFailed, disablingTerminal              bool
	invalidCompleted, invalidFailed, failedOverlapsCompleted              bool
	completedForNonIndexed, failedWithoutBackoffPerIndex                  bool
	failedWithoutFailureTarget, completeWithoutSuccessCriteria            bool
	finishedWithActive, finishedWithoutStart, finishedWithUncounted       bool
	startTimeOfUnsuspended, completionBeforeStart, mutatingCompletionTime bool
	completeWithoutCompletionTime, notCompleteWithCompletionTime          bool
	completeWithFailed, completeWithFailureTarget, moreReadyThanActive    bool
	finishedWithTerminating                                               bool
}

// statusRulesFor are the rules of a status write of job over old.
func statusRulesFor(job, old *api.Job) statusRules {
	s, o := &job.Status, &old.Status
	changed := func(t api.JobConditionType) bool {
		return conditionTrue(o.Conditions, t) != conditionTrue(s.Conditions, t)
	}
	indexed := job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == api.IndexedCompletion
	finishedChanged := finished(old) != finished(job)
	completeChanged := changed(api.JobComplete)
	failedChanged := changed(api.JobFailed)
	completedIdx := o.CompletedIndexes != s.CompletedIndexes
	failedIdx := !equalPtr(o.FailedIndexes, s.FailedIndexes)
	activeChanged := o.Active != s.Active
	startChanged := !equalTime(o.StartTime, s.StartTime)
	completionChanged := !equalTime(o.CompletionTime, s.CompletionTime)
	suspendedZero := job.Spec.Suspend != nil && *job.Spec.Suspend && job.Spec.Completions != nil && *job.Spec.Completions == 0
	resuming := conditionTrue(o.Conditions, api.JobSuspended) && conditionFalse(s.Conditions, api.JobSuspended)
	return statusRules{
		decreasingSucceeded:            !indexed || !equalPtr(job.Spec.Completions, job.Spec.Parallelism),
		decreasingFailed:               true,
		disablingTerminal:              true,
		invalidCompleted:               completedIdx,
		invalidFailed:                  failedIdx,
		completedForNonIndexed:         completedIdx,
		failedWithoutBackoffPerIndex:   failedIdx,
		failedOverlapsCompleted:        failedIdx || completedIdx,
		failedWithoutFailureTarget:     failedChanged || failedIdx,
		completeWithoutSuccessCriteria: completeChanged || changed(api.JobSuccessCriteriaMet),
		finishedWithActive:             finishedChanged || activeChanged,
		finishedWithoutStart:           (finishedChanged || startChanged) && !suspendedZero,
		finishedWithUncounted:          finishedChanged || !apiequality.Semantic.DeepEqual(o.UncountedTerminatedPods, s.UncountedTerminatedPods),
		startTimeOfUnsuspended:         startChanged && !resuming,
		completionBeforeStart:          startChanged || completionChanged,
		mutatingCompletionTime:         true,
		notCompleteWithCompletionTime:  completeChanged || completionChanged,
		completeWithoutCompletionTime:  completeChanged || completionChanged,
		completeWithFailed:             completeChanged || failedChanged,
		completeWithFailureTarget:      completeChanged || changed(api.JobFailureTarget),
		moreReadyThanActive:            !equalPtr(o.Ready, s.Ready) || activeChanged,
		finishedWithTerminating:        finishedChanged || !equalPtr(o.Terminating, s.Terminating),
	}
}

// ValidateJobStatusUpdate checks a write of a Job's status: counters, the conditions the
// Job controller may set together, the times, the index lists, and the transitions from
// the stored status.
func ValidateJobStatusUpdate(job, old *api.Job) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	rules := statusRulesFor(job, old)
	p := field.NewPath("status")
	errs = append(errs, validateJobStatus(job, p, rules)...)
	conds := p.Child("conditions")
	if rules.disablingTerminal {
		for _, t := range []api.JobConditionType{api.JobFailed, api.JobComplete, api.JobFailureTarget} {
			if conditionTrue(old.Status.Conditions, t) && !conditionTrue(job.Status.Conditions, t) {
				errs = append(errs, field.Invalid(conds, field.OmitValueType{}, fmt.Sprintf("cannot disable the terminal %s=True condition", t)))
			}
		}
	}
	s, o := &job.Status, &old.Status
	if rules.decreasingFailed && s.Failed < o.Failed {
		errs = append(errs, field.Invalid(p.Child("failed"), s.Failed, "cannot decrease the failed counter"))
	}
	if rules.decreasingSucceeded && s.Succeeded < o.Succeeded {
		errs = append(errs, field.Invalid(p.Child("succeeded"), s.Succeeded, "cannot decrease the succeeded counter"))
	}
	if rules.mutatingCompletionTime && s.CompletionTime != nil && o.CompletionTime != nil && !equalTime(s.CompletionTime, o.CompletionTime) {
		errs = append(errs, field.Invalid(p.Child("completionTime"), s.CompletionTime, "field is immutable"))
	}
	if rules.startTimeOfUnsuspended && o.StartTime != nil && !equalTime(o.StartTime, s.StartTime) && !(job.Spec.Suspend != nil && *job.Spec.Suspend) {
		errs = append(errs, field.Invalid(p.Child("startTime"), s.StartTime, "field is immutable for unsuspended job once set"))
	}
	if successCriteriaMet(old) && !successCriteriaMet(job) {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot disable the SuccessCriteriaMet=True condition"))
	}
	if complete(old) && !successCriteriaMet(old) && successCriteriaMet(job) {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions"))
	}
	return errs
}

func validateJobStatus(job *api.Job, fldPath *field.Path, rules statusRules) field.ErrorList {
	s := &job.Status
	var errs field.ErrorList
	for _, c := range []struct {
		name  string
		value int32
	}{{"active", s.Active}, {"succeeded", s.Succeeded}, {"failed", s.Failed}} {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(c.value), fldPath.Child(c.name))...)
	}
	if s.Ready != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.Ready), fldPath.Child("ready"))...)
	}
	if s.Terminating != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.Terminating), fldPath.Child("terminating"))...)
	}
	if u := s.UncountedTerminatedPods; u != nil {
		up := fldPath.Child("uncountedTerminatedPods")
		seen := map[types.UID]bool{}
		for _, list := range []struct {
			name string
			uids []types.UID
		}{{"succeeded", u.Succeeded}, {"failed", u.Failed}} {
			for i, uid := range list.uids {
				ip := up.Child(list.name).Index(i)
				switch {
				case uid == "":
					errs = append(errs, field.Invalid(ip, uid, "must not be empty"))
				case seen[uid]:
					errs = append(errs, field.Duplicate(ip, uid))
				default:
					seen[uid] = true
				}
			}
		}
	}
	conds := fldPath.Child("conditions")
	isComplete, isFailed := complete(job), conditionTrue(s.Conditions, api.JobFailed)
	isFinished := finished(job)
	if rules.completeWithFailed && isComplete && isFailed {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot set Complete=True and Failed=true conditions"))
	}
	if rules.completeWithFailureTarget && isComplete && conditionTrue(s.Conditions, api.JobFailureTarget) {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot set Complete=True and FailureTarget=true conditions"))
	}
	if rules.notCompleteWithCompletionTime && s.CompletionTime != nil && !isComplete {
		errs = append(errs, field.Invalid(fldPath.Child("completionTime"), s.CompletionTime, "cannot set completionTime when there is no Complete=True condition"))
	}
	if rules.completeWithoutCompletionTime && s.CompletionTime == nil && isComplete {
		errs = append(errs, field.Required(fldPath.Child("completionTime"), "completionTime is required for Complete jobs"))
	}
	if rules.completionBeforeStart && s.StartTime != nil && s.CompletionTime != nil && s.CompletionTime.Before(s.StartTime) {
		errs = append(errs, field.Invalid(fldPath.Child("completionTime"), s.CompletionTime, "must be equal to or after `startTime`"))
	}
	if rules.failedWithoutFailureTarget && isFailed && !conditionTrue(s.Conditions, api.JobFailureTarget) {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot set Failed=True condition without the FailureTarget=true condition"))
	}
	if rules.completeWithoutSuccessCriteria && isComplete && !successCriteriaMet(job) {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot set Complete=True condition without the SuccessCriteriaMet=true condition"))
	}
	if rules.finishedWithActive && s.Active > 0 && isFinished {
		errs = append(errs, field.Invalid(fldPath.Child("active"), s.Active, "active>0 is invalid for finished job"))
	}
	if rules.finishedWithoutStart && s.StartTime == nil && isFinished {
		errs = append(errs, field.Required(fldPath.Child("startTime"), "startTime is required for finished job"))
	}
	if rules.finishedWithUncounted && isFinished && s.UncountedTerminatedPods != nil && len(s.UncountedTerminatedPods.Failed)+len(s.UncountedTerminatedPods.Succeeded) > 0 {
		errs = append(errs, field.Invalid(fldPath.Child("uncountedTerminatedPods"), s.UncountedTerminatedPods, "must be empty for finished job"))
	}
	spec := &job.Spec
	if rules.invalidCompleted && spec.Completions != nil {
		if _, err := countIndexes(s.CompletedIndexes, *spec.Completions); err != nil {
			errs = append(errs, field.Invalid(fldPath.Child("completedIndexes"), s.CompletedIndexes, "error parsing completedIndexes: "+err.Error()))
		}
	}
	if rules.invalidFailed && spec.Completions != nil && spec.BackoffLimitPerIndex != nil && s.FailedIndexes != nil {
		if _, err := countIndexes(*s.FailedIndexes, *spec.Completions); err != nil {
			errs = append(errs, field.Invalid(fldPath.Child("failedIndexes"), s.FailedIndexes, "error parsing failedIndexes: "+err.Error()))
		}
	}
	indexed := spec.CompletionMode != nil && *spec.CompletionMode == api.IndexedCompletion
	if rules.completedForNonIndexed && s.CompletedIndexes != "" && !indexed {
		errs = append(errs, field.Invalid(fldPath.Child("completedIndexes"), s.CompletedIndexes, "cannot set non-empty completedIndexes when non-indexed completion mode"))
	}
	if rules.failedWithoutBackoffPerIndex && spec.BackoffLimitPerIndex == nil && s.FailedIndexes != nil {
		errs = append(errs, field.Invalid(fldPath.Child("failedIndexes"), *s.FailedIndexes, "cannot set non-null failedIndexes when backoffLimitPerIndex is null"))
	}
	if rules.failedOverlapsCompleted && spec.Completions != nil && s.FailedIndexes != nil {
		if err := overlap(s.CompletedIndexes, *s.FailedIndexes, *spec.Completions); err != nil {
			errs = append(errs, field.Invalid(fldPath.Child("failedIndexes"), *s.FailedIndexes, err.Error()))
		}
	}
	if rules.finishedWithTerminating && s.Terminating != nil && *s.Terminating > 0 && isFinished {
		errs = append(errs, field.Invalid(fldPath.Child("terminating"), s.Terminating, "terminating>0 is invalid for finished job"))
	}
	if rules.moreReadyThanActive && s.Ready != nil && *s.Ready > s.Active {
		errs = append(errs, field.Invalid(fldPath.Child("ready"), *s.Ready, "cannot set more ready pods than active"))
	}
	met, target := successCriteriaMet(job), conditionTrue(s.Conditions, api.JobFailureTarget)
	if met && isFailed {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot set SuccessCriteriaMet=True and Failed=true conditions"))
	}
	if met && target {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions"))
	}
	if spec.SuccessPolicy != nil && !met && isComplete {
		errs = append(errs, field.Invalid(conds, field.OmitValueType{}, "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True"))
	}
	return errs
}

// overlap finds the first index both lists hold, walking their intervals in order; an
// interval that does not parse is skipped (the format checks report it).
func overlap(completed, failed string, completions int32) error {
	if completed == "" || failed == "" {
		return nil
	}
	cs, fs := splitComma(completed), splitComma(failed)
	ci, fi := 0, 0
	cx, cy, cerr := parseInterval(cs[0], completions)
	fx, fy, ferr := parseInterval(fs[0], completions)
	for ci < len(cs) && fi < len(fs) {
		switch {
		case cerr != nil:
			if ci++; ci < len(cs) {
				cx, cy, cerr = parseInterval(cs[ci], completions)
			}
		case ferr != nil:
			if fi++; fi < len(fs) {
				fx, fy, ferr = parseInterval(fs[fi], completions)
			}
		case cx <= fy && fx <= cy:
			return fmt.Errorf("failedIndexes and completedIndexes overlap at index: %d", max(cx, fx))
		case cx <= fx:
			if ci++; ci < len(cs) {
				cx, cy, cerr = parseInterval(cs[ci], completions)
			}
		default:
			if fi++; fi < len(fs) {
				fx, fy, ferr = parseInterval(fs[fi], completions)
			}
		}
	}
	return nil
}

func conditionTrue(list []api.JobCondition, t api.JobConditionType) bool {
	return conditionIs(list, t, coreapi.ConditionTrue)
}

func conditionFalse(list []api.JobCondition, t api.JobConditionType) bool {
	return conditionIs(list, t, coreapi.ConditionFalse)
}

func conditionIs(list []api.JobCondition, t api.JobConditionType, status coreapi.ConditionStatus) bool {
	for _, c := range list {
		if c.Type == t && c.Status == status {
			return true
		}
	}
	return false
}

// finished: the Job completed or failed.
func finished(job *api.Job) bool {
	return conditionTrue(job.Status.Conditions, api.JobComplete) || conditionTrue(job.Status.Conditions, api.JobFailed)
}

func complete(job *api.Job) bool { return conditionTrue(job.Status.Conditions, api.JobComplete) }

func successCriteriaMet(job *api.Job) bool {
	return conditionTrue(job.Status.Conditions, api.JobSuccessCriteriaMet)
}

// equalPtr: both nil, or both set to the same value.
func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// equalTime is equalPtr of times: the same instant, location and monotonic reading, as
// the server compares them (times decoded alike have the same location).
func equalTime(a, b *metav1.Time) bool { return equalPtr(a, b) }

func splitComma(s string) []string { return strings.Split(s, ",") }
