package batch

import (
	"fmt"
	"strconv"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/batch"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The limits of a Job's spec.
const (
	maxIndexedParallelism   = 100000 // parallelism of an indexed Job
	maxFailedIndexes        = 100000 // maxFailedIndexes of an indexed Job
	completionsSoftLimit    = 100000 // above it, backoffLimitPerIndex asks for more limits:
	highCompletionsParallel = 10000  // parallelism then
	highCompletionsFailed   = 10000  // and maxFailedIndexes then
	maxFailurePolicyRules   = 20
	maxExitCodes            = 255
	maxConditionPatterns    = 20
	maxManagedByLength      = 63
	maxSucceededIndexesLen  = 64 * 1024
	maxSuccessPolicyRules   = 20
)

// The enumerations of a pod failure policy, in the sorted order the server lists them.
var (
	failurePolicyActions = []api.PodFailurePolicyAction{api.PodFailurePolicyActionCount, api.PodFailurePolicyActionFailIndex,
		api.PodFailurePolicyActionFailJob, api.PodFailurePolicyActionIgnore}
	exitCodeOperators = []api.PodFailurePolicyOnExitCodesOperator{api.PodFailurePolicyOnExitCodesOpIn, api.PodFailurePolicyOnExitCodesOpNotIn}
	conditionStatuses = []coreapi.ConditionStatus{coreapi.ConditionFalse, coreapi.ConditionTrue, coreapi.ConditionUnknown}
	replacementPolicy = []api.PodReplacementPolicy{api.Failed, api.TerminatingOrFailed}
)

func has[T comparable](list []T, v T) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

// validateJobSpec checks the spec of a Job or of a CronJob's job template (old is the
// stored spec on an update): counts and durations not negative, the rules of indexed Jobs,
// the pod failure, success and replacement policies, the pod template, and a restart
// policy of OnFailure or Never.
func validateJobSpec(spec, old *api.JobSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	nonneg := func(v *int32, name string) {
		if v != nil {
			errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*v), fldPath.Child(name))...)
		}
	}
	nonneg(spec.Parallelism, "parallelism")
	nonneg(spec.Completions, "completions")
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(*spec.ActiveDeadlineSeconds, fldPath.Child("activeDeadlineSeconds"))...)
	}
	nonneg(spec.BackoffLimit, "backoffLimit")
	nonneg(spec.TTLSecondsAfterFinished, "ttlSecondsAfterFinished")
	nonneg(spec.BackoffLimitPerIndex, "backoffLimitPerIndex")
	if spec.MaxFailedIndexes != nil {
		nonneg(spec.MaxFailedIndexes, "maxFailedIndexes")
		if spec.BackoffLimitPerIndex == nil {
			errs = append(errs, field.Required(fldPath.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified").WithOrigin("dependentRequired").MarkCoveredByDeclarative())
		}
	}
	if spec.ManagedBy != nil {
		errs = append(errs, validation.IsDomainPrefixedPath(fldPath.Child("managedBy"), *spec.ManagedBy)...)
		if len(*spec.ManagedBy) > maxManagedByLength {
			errs = append(errs, field.TooLong(fldPath.Child("managedBy"), "", maxManagedByLength))
		}
	}
	errs = append(errs, validateCompletionMode(spec, fldPath)...)
	if spec.PodFailurePolicy != nil {
		errs = append(errs, validatePodFailurePolicy(spec, fldPath.Child("podFailurePolicy"))...)
	}
	if spec.SuccessPolicy != nil {
		if spec.CompletionMode == nil || *spec.CompletionMode != api.IndexedCompletion {
			errs = append(errs, field.Invalid(fldPath.Child("successPolicy"), *spec.SuccessPolicy, "requires indexed completion mode"))
		} else {
			errs = append(errs, validateSuccessPolicy(spec, fldPath.Child("successPolicy"))...)
		}
	}
	errs = append(errs, validatePodReplacementPolicy(spec, fldPath.Child("podReplacementPolicy"))...)
	errs = append(errs, validateGangMinCount(spec, fldPath.Child("scheduling"))...)
	errs = append(errs, validateJobScheduling(spec, old, fldPath.Child("scheduling"))...)
	errs = append(errs, validatePodTemplateSpec(&spec.Template, fldPath.Child("template"), opts)...)
	return append(errs, validateRunToCompletion(spec, fldPath.Child("template", "spec", "restartPolicy"))...)
}

// validateCompletionMode: the two modes; an indexed Job has completions, a bounded
// parallelism and failure budget; only an indexed Job has a failure budget per index.
func validateCompletionMode(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m := spec.CompletionMode; m != nil {
		if *m != api.NonIndexedCompletion && *m != api.IndexedCompletion {
			errs = append(errs, field.NotSupported(fldPath.Child("completionMode"), m, []api.CompletionMode{api.NonIndexedCompletion, api.IndexedCompletion}))
		}
		if *m == api.IndexedCompletion {
			errs = append(errs, validateIndexedLimits(spec, fldPath)...)
		}
	}
	if spec.CompletionMode == nil || *spec.CompletionMode == api.NonIndexedCompletion {
		if spec.BackoffLimitPerIndex != nil {
			errs = append(errs, field.Invalid(fldPath.Child("backoffLimitPerIndex"), *spec.BackoffLimitPerIndex, "requires indexed completion mode"))
		}
		if spec.MaxFailedIndexes != nil {
			errs = append(errs, field.Invalid(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "requires indexed completion mode"))
		}
	}
	return errs
}

func validateIndexedLimits(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if spec.Completions == nil {
		errs = append(errs, field.Required(fldPath.Child("completions"), "when completion mode is Indexed"))
	}
	if spec.Parallelism != nil && *spec.Parallelism > maxIndexedParallelism {
		errs = append(errs, field.Invalid(fldPath.Child("parallelism"), *spec.Parallelism,
			fmt.Sprintf("must be less than or equal to %d when completion mode is Indexed", maxIndexedParallelism)))
	}
	if spec.Completions != nil && spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > *spec.Completions {
		errs = append(errs, field.Invalid(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "must be less than or equal to completions"))
	}
	if spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > maxFailedIndexes {
		errs = append(errs, field.Invalid(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, fmt.Sprintf("must be less than or equal to %d", maxFailedIndexes)))
	}
	if spec.Completions != nil && *spec.Completions > completionsSoftLimit && spec.BackoffLimitPerIndex != nil {
		if spec.MaxFailedIndexes == nil {
			errs = append(errs, field.Required(fldPath.Child("maxFailedIndexes"), fmt.Sprintf("must be specified when completions is above %d", completionsSoftLimit)))
		}
		if spec.Parallelism != nil && *spec.Parallelism > highCompletionsParallel {
			errs = append(errs, field.Invalid(fldPath.Child("parallelism"), *spec.Parallelism,
				fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", highCompletionsParallel, completionsSoftLimit)))
		}
		if spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > highCompletionsFailed {
			errs = append(errs, field.Invalid(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes,
				fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", highCompletionsFailed, completionsSoftLimit)))
		}
	}
	return errs
}

// validateRunToCompletion: a Job's pods restart OnFailure or Never (an empty policy, which
// defaulting makes Always, is reported as missing), and Never with a pod failure policy.
func validateRunToCompletion(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	switch rp := spec.Template.Spec.RestartPolicy; {
	case rp == coreapi.RestartPolicyAlways || rp == "":
		return field.ErrorList{field.Required(fldPath, fmt.Sprintf("valid values: %q, %q", coreapi.RestartPolicyOnFailure, coreapi.RestartPolicyNever))}
	case rp != coreapi.RestartPolicyOnFailure && rp != coreapi.RestartPolicyNever:
		return field.ErrorList{field.NotSupported(fldPath, rp, []coreapi.RestartPolicy{coreapi.RestartPolicyOnFailure, coreapi.RestartPolicyNever})}
	case spec.PodFailurePolicy != nil && rp != coreapi.RestartPolicyNever:
		return field.ErrorList{field.Invalid(fldPath, rp, fmt.Sprintf("only %q is supported when podFailurePolicy is specified", coreapi.RestartPolicyNever))}
	}
	return nil
}

func validatePodFailurePolicy(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	rules := fldPath.Child("rules")
	if n := len(spec.PodFailurePolicy.Rules); n > maxFailurePolicyRules {
		errs = append(errs, field.TooMany(rules, n, maxFailurePolicyRules))
	}
	names := map[string]bool{}
	for _, c := range spec.Template.Spec.Containers {
		names[c.Name] = true
	}
	for _, c := range spec.Template.Spec.InitContainers {
		names[c.Name] = true
	}
	for i := range spec.PodFailurePolicy.Rules {
		errs = append(errs, validateFailurePolicyRule(spec, &spec.PodFailurePolicy.Rules[i], rules.Index(i), names)...)
	}
	return errs
}

func validateFailurePolicyRule(spec *api.JobSpec, rule *api.PodFailurePolicyRule, fldPath *field.Path, containers map[string]bool) field.ErrorList {
	var errs field.ErrorList
	action := fldPath.Child("action")
	switch {
	case rule.Action == "":
		errs = append(errs, field.Required(action, fmt.Sprintf("valid values: %q", failurePolicyActions)))
	case rule.Action == api.PodFailurePolicyActionFailIndex:
		if spec.BackoffLimitPerIndex == nil {
			errs = append(errs, field.Invalid(action, rule.Action, "requires the backoffLimitPerIndex to be set"))
		}
	case !has(failurePolicyActions, rule.Action):
		errs = append(errs, field.NotSupported(action, rule.Action, failurePolicyActions))
	}
	if rule.OnExitCodes != nil {
		errs = append(errs, validateOnExitCodes(rule.OnExitCodes, fldPath.Child("onExitCodes"), containers)...)
	}
	if len(rule.OnPodConditions) > 0 {
		errs = append(errs, validateOnPodConditions(rule.OnPodConditions, fldPath.Child("onPodConditions"))...)
	}
	switch {
	case rule.OnExitCodes != nil && len(rule.OnPodConditions) > 0:
		errs = append(errs, field.Invalid(fldPath, field.OmitValueType{}, "specifying both OnExitCodes and OnPodConditions is not supported"))
	case rule.OnExitCodes == nil && len(rule.OnPodConditions) == 0:
		errs = append(errs, field.Invalid(fldPath, field.OmitValueType{}, "specifying one of OnExitCodes and OnPodConditions is required"))
	}
	return errs
}

func validateOnPodConditions(patterns []api.PodFailurePolicyOnPodConditionsPattern, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(patterns) > maxConditionPatterns {
		errs = append(errs, field.TooMany(fldPath, len(patterns), maxConditionPatterns))
	}
	for j, p := range patterns {
		pp := fldPath.Index(j)
		errs = append(errs, core.ValidateQualifiedName(string(p.Type), pp.Child("type"))...)
		switch {
		case p.Status == "":
			errs = append(errs, field.Required(pp.Child("status"), fmt.Sprintf("valid values: %q", conditionStatuses)))
		case !has(conditionStatuses, p.Status):
			errs = append(errs, field.NotSupported(pp.Child("status"), p.Status, conditionStatuses))
		}
	}
	return errs
}

func validateOnExitCodes(req *api.PodFailurePolicyOnExitCodesRequirement, fldPath *field.Path, containers map[string]bool) field.ErrorList {
	var errs field.ErrorList
	op := fldPath.Child("operator")
	switch {
	case req.Operator == "":
		errs = append(errs, field.Required(op, fmt.Sprintf("valid values: %q", exitCodeOperators)))
	case !has(exitCodeOperators, req.Operator):
		errs = append(errs, field.NotSupported(op, req.Operator, exitCodeOperators))
	}
	if req.ContainerName != nil && !containers[*req.ContainerName] {
		errs = append(errs, field.Invalid(fldPath.Child("containerName"), *req.ContainerName, "must be one of the container or initContainer names in the pod template"))
	}
	values := fldPath.Child("values")
	switch n := len(req.Values); {
	case n == 0:
		errs = append(errs, field.Invalid(values, req.Values, "at least one value is required"))
	case n > maxExitCodes:
		errs = append(errs, field.TooMany(values, n, maxExitCodes))
	}
	seen := map[int32]bool{}
	ordered := true
	for j, v := range req.Values {
		if req.Operator == api.PodFailurePolicyOnExitCodesOpIn && v == 0 {
			errs = append(errs, field.Invalid(values.Index(j), v, "must not be 0 for the In operator"))
		}
		if seen[v] {
			errs = append(errs, field.Duplicate(values.Index(j), v))
		}
		seen[v] = true
		if j > 0 && req.Values[j-1] > v {
			ordered = false
		}
	}
	if !ordered {
		errs = append(errs, field.Invalid(values, req.Values, "must be ordered"))
	}
	return errs
}

func validatePodReplacementPolicy(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	p := spec.PodReplacementPolicy
	switch {
	case p == nil:
	case spec.PodFailurePolicy != nil:
		// With a pod failure policy, pods are replaced once they have failed.
		if *p != api.Failed {
			return field.ErrorList{field.NotSupported(fldPath, *p, []api.PodReplacementPolicy{api.Failed})}
		}
	case !has(replacementPolicy, *p):
		return field.ErrorList{field.NotSupported(fldPath, *p, replacementPolicy)}
	}
	return nil
}

func validateSuccessPolicy(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	rules := fldPath.Child("rules")
	n := len(spec.SuccessPolicy.Rules)
	if n == 0 {
		errs = append(errs, field.Required(rules, "at least one rules must be specified when the successPolicy is specified"))
	}
	if n > maxSuccessPolicyRules {
		errs = append(errs, field.TooMany(rules, n, maxSuccessPolicyRules))
	}
	for i := range spec.SuccessPolicy.Rules {
		errs = append(errs, validateSuccessPolicyRule(spec, &spec.SuccessPolicy.Rules[i], rules.Index(i))...)
	}
	return errs
}

// validateSuccessPolicyRule checks a rule of an indexed Job. The server reads its
// completions unguarded: when an indexed Job has none (the spec check refuses it, but runs
// on), a rule that counts or lists indexes makes the server's validation panic.
func validateSuccessPolicyRule(spec *api.JobSpec, rule *api.SuccessPolicyRule, fldPath *field.Path) field.ErrorList {
	if spec.Completions == nil && (rule.SucceededIndexes != nil || rule.SucceededCount != nil) {
		panic(registry.ServerPanic{Reason: registry.NilDereference})
	}
	var errs field.ErrorList
	if rule.SucceededCount == nil && rule.SucceededIndexes == nil {
		errs = append(errs, field.Required(fldPath, "at least one of succeededCount or succeededIndexes must be specified"))
	}
	var total int32
	if rule.SucceededIndexes != nil {
		p := fldPath.Child("succeededIndexes")
		if len(*rule.SucceededIndexes) > maxSucceededIndexesLen {
			errs = append(errs, field.TooLong(p, "", maxSucceededIndexesLen))
		}
		var err error
		if total, err = countIndexes(*rule.SucceededIndexes, *spec.Completions); err != nil {
			errs = append(errs, field.Invalid(p, *rule.SucceededIndexes, "error parsing succeededIndexes: "+err.Error()))
		}
	}
	if rule.SucceededCount != nil {
		p := fldPath.Child("succeededCount")
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*rule.SucceededCount), p)...)
		if *rule.SucceededCount > *spec.Completions {
			errs = append(errs, field.Invalid(p, *rule.SucceededCount, fmt.Sprintf("must be less than or equal to %d (the number of specified completions)", *spec.Completions)))
		}
		if rule.SucceededIndexes != nil && *rule.SucceededCount > total {
			errs = append(errs, field.Invalid(p, *rule.SucceededCount, fmt.Sprintf("must be less than or equal to %d (the number of indexes in the specified succeededIndexes field)", total)))
		}
	}
	return errs
}

// countIndexes parses a list of indexes ("1,3-5,7"): intervals in increasing order, each
// below completions. It says how many indexes the list holds (0 when it is empty).
func countIndexes(list string, completions int32) (int32, error) {
	if list == "" {
		return 0, nil
	}
	var total int32
	last := int32(-1)
	first := true
	for _, interval := range strings.Split(list, ",") {
		x, y, err := parseInterval(interval, completions)
		if err != nil {
			return 0, err
		}
		if !first && last >= x {
			return 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", last, x)
		}
		first = false
		total += y - x + 1
		last = y
	}
	return total, nil
}

// parseInterval reads "x" or "x-y" (x < y), both below completions.
func parseInterval(interval string, completions int32) (int32, int32, error) {
	limits := strings.Split(interval, "-")
	if len(limits) > 2 {
		return 0, 0, fmt.Errorf("the fragment %q violates the requirement that an index interval can have at most two parts separated by '-'", interval)
	}
	x, err := strconv.Atoi(limits[0])
	if err != nil {
		return 0, 0, fmt.Errorf("cannot convert string to integer for index: %q", limits[0])
	}
	if x >= int(completions) {
		return 0, 0, fmt.Errorf("too large index: %q", limits[0])
	}
	if len(limits) == 1 {
		return int32(x), int32(x), nil
	}
	y, err := strconv.Atoi(limits[1])
	if err != nil {
		return 0, 0, fmt.Errorf("cannot convert string to integer for index: %q", limits[1])
	}
	if y >= int(completions) {
		return 0, 0, fmt.Errorf("too large index: %q", limits[1])
	}
	if x >= y {
		return 0, 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", x, y)
	}
	return int32(x), int32(y), nil
}
