package core

import (
	"fmt"
	"strconv"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	unversionedvalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Scheduling constraints: node selectors and affinity, pod (anti-)affinity, tolerations
// and topology spread constraints.

// ValidateNodeSelectorRequirement checks a node label requirement.
func ValidateNodeSelectorRequirement(rq api.NodeSelectorRequirement, allowInvalidLabelValue bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch rq.Operator {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(rq.Values) == 0 {
			errs = append(errs, field.Required(fldPath.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
		if len(rq.Values) > 0 {
			errs = append(errs, field.Forbidden(fldPath.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if len(rq.Values) != 1 {
			errs = append(errs, field.Required(fldPath.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
		}
	default:
		errs = append(errs, field.Invalid(fldPath.Child("operator"), rq.Operator, "not a valid selector operator"))
	}
	errs = append(errs, unversionedvalidation.ValidateLabelName(rq.Key, fldPath.Child("key"))...)
	if !allowInvalidLabelValue {
		for i, v := range rq.Values {
			for _, msg := range wellformed.IsValidLabelValue(v) {
				errs = append(errs, field.Invalid(fldPath.Child("values").Index(i), v, msg).WithOrigin("format=k8s-label-value"))
			}
		}
	}
	return errs
}

// ValidateNodeFieldSelectorRequirement checks a node field requirement: metadata.name,
// In or NotIn one node name.
func ValidateNodeFieldSelectorRequirement(req api.NodeSelectorRequirement, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch req.Operator {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(req.Values) != 1 {
			errs = append(errs, field.Required(fldPath.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
		}
	default:
		errs = append(errs, field.Invalid(fldPath.Child("operator"), req.Operator, "not a valid selector operator"))
	}
	if req.Key != metav1.ObjectNameField {
		return append(errs, field.Invalid(fldPath.Child("key"), req.Key, "not a valid field selector key"))
	}
	for i, v := range req.Values {
		for _, msg := range ValidateNodeName(v, false) {
			errs = append(errs, field.Invalid(fldPath.Child("values").Index(i), v, msg))
		}
	}
	return errs
}

// ValidateNodeSelectorTerm checks a term's expressions and fields.
func ValidateNodeSelectorTerm(term api.NodeSelectorTerm, allowInvalidLabelValue bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for j, req := range term.MatchExpressions {
		errs = append(errs, ValidateNodeSelectorRequirement(req, allowInvalidLabelValue, fldPath.Child("matchExpressions").Index(j))...)
	}
	for j, req := range term.MatchFields {
		errs = append(errs, ValidateNodeFieldSelectorRequirement(req, fldPath.Child("matchFields").Index(j))...)
	}
	return errs
}

// ValidateNodeSelector: at least one term, each valid.
func ValidateNodeSelector(ns *api.NodeSelector, allowInvalidLabelValue bool, fldPath *field.Path) field.ErrorList {
	termsPath := fldPath.Child("nodeSelectorTerms")
	if len(ns.NodeSelectorTerms) == 0 {
		return field.ErrorList{field.Required(termsPath, "must have at least one node selector term")}
	}
	var errs field.ErrorList
	for i, term := range ns.NodeSelectorTerms {
		errs = append(errs, ValidateNodeSelectorTerm(term, allowInvalidLabelValue, termsPath.Index(i))...)
	}
	return errs
}

// ValidatePreferredSchedulingTerms: weights 1-100, terms with any label value.
func ValidatePreferredSchedulingTerms(terms []api.PreferredSchedulingTerm, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, term := range terms {
		if term.Weight <= 0 || term.Weight > 100 {
			errs = append(errs, field.Invalid(fldPath.Index(i).Child("weight"), term.Weight, "must be in the range 1-100"))
		}
		errs = append(errs, ValidateNodeSelectorTerm(term.Preference, true, fldPath.Index(i).Child("preference"))...)
	}
	return errs
}

func validateAffinity(a *api.Affinity, opts PodValidationOptions, fldPath *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	if na := a.NodeAffinity; na != nil {
		p := fldPath.Child("nodeAffinity")
		if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			errs = append(errs, ValidateNodeSelector(na.RequiredDuringSchedulingIgnoredDuringExecution, opts.AllowInvalidLabelValueInRequiredNodeAffinity, p.Child("requiredDuringSchedulingIgnoredDuringExecution"))...)
		}
		if len(na.PreferredDuringSchedulingIgnoredDuringExecution) > 0 {
			errs = append(errs, ValidatePreferredSchedulingTerms(na.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("preferredDuringSchedulingIgnoredDuringExecution"))...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, opts.AllowInvalidLabelValueInSelector, fldPath.Child("podAffinity"))...)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, opts.AllowInvalidLabelValueInSelector, fldPath.Child("podAntiAffinity"))...)
	}
	return errs
}

func validatePodAffinityTerms(required []api.PodAffinityTerm, preferred []api.WeightedPodAffinityTerm, allowInvalidLabelValue bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, term := range required {
		errs = append(errs, validatePodAffinityTerm(term, allowInvalidLabelValue, fldPath.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
	}
	for j, wt := range preferred {
		p := fldPath.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(j)
		if wt.Weight <= 0 || wt.Weight > 100 {
			errs = append(errs, field.Invalid(p.Child("weight"), wt.Weight, "must be in the range 1-100"))
		}
		errs = append(errs, validatePodAffinityTerm(wt.PodAffinityTerm, allowInvalidLabelValue, p.Child("podAffinityTerm"))...)
	}
	return errs
}

func validatePodAffinityTerm(term api.PodAffinityTerm, allowInvalidLabelValue bool, fldPath *field.Path) field.ErrorList {
	errs := ValidatePodAffinityTermSelector(term, allowInvalidLabelValue, fldPath)
	for _, name := range term.Namespaces {
		for _, msg := range ValidateNamespaceName(name, false) {
			errs = append(errs, field.Invalid(fldPath.Child("namespace"), name, msg))
		}
	}
	errs = append(errs, ValidateMatchLabelKeysAndMismatchLabelKeys(fldPath, term.MatchLabelKeys, term.MismatchLabelKeys, term.LabelSelector)...)
	if term.TopologyKey == "" {
		errs = append(errs, field.Required(fldPath.Child("topologyKey"), "can not be empty"))
	}
	return append(errs, unversionedvalidation.ValidateLabelName(term.TopologyKey, fldPath.Child("topologyKey"))...)
}

// ValidatePodAffinityTermSelector checks the term's label and namespace selectors.
func ValidatePodAffinityTermSelector(term api.PodAffinityTerm, allowInvalidLabelValue bool, fldPath *field.Path) field.ErrorList {
	o := unversionedvalidation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: allowInvalidLabelValue}
	errs := wellformed.ValidateLabelSelector(term.LabelSelector, o, fldPath.Child("labelSelector"))
	return append(errs, wellformed.ValidateLabelSelector(term.NamespaceSelector, o, fldPath.Child("namespaceSelector"))...)
}

// ValidateMatchLabelKeysAndMismatchLabelKeys: label names, a selector to go with them,
// no key both in matchLabelKeys and the selector's expressions, nor in both lists. (The
// selector clash is reported on fldPath indexed, as the server does.)
func ValidateMatchLabelKeysAndMismatchLabelKeys(fldPath *field.Path, matchLabelKeys, mismatchLabelKeys []string, selector *metav1.LabelSelector) field.ErrorList {
	errs := validateLabelKeys(fldPath.Child("matchLabelKeys"), matchLabelKeys, selector)
	errs = append(errs, validateLabelKeys(fldPath.Child("mismatchLabelKeys"), mismatchLabelKeys, selector)...)
	if selector != nil {
		index := map[string]int{}
		for i, k := range matchLabelKeys {
			index[k] = i
		}
		keys := sets.New[string]()
		for k := range selector.MatchLabels {
			keys.Insert(k)
		}
		for _, e := range selector.MatchExpressions {
			if i, ok := index[e.Key]; ok && keys.Has(e.Key) {
				errs = append(errs, field.Invalid(fldPath.Index(i), e.Key, "exists in both matchLabelKeys and labelSelector").WithOrigin("duplicatedLabelKeys"))
			}
			keys.Insert(e.Key)
		}
	}
	mismatch := sets.New(mismatchLabelKeys...)
	for i, k := range matchLabelKeys {
		if mismatch.Has(k) {
			errs = append(errs, field.Invalid(fldPath.Child("matchLabelKeys").Index(i), k, "exists in both matchLabelKeys and mismatchLabelKeys").WithOrigin("duplicatedMismatchLabelKeys"))
		}
	}
	return errs
}

func validateLabelKeys(fldPath *field.Path, keys []string, selector *metav1.LabelSelector) field.ErrorList {
	if len(keys) == 0 {
		return nil
	}
	if selector == nil {
		return field.ErrorList{field.Forbidden(fldPath, "must not be specified when labelSelector is not set")}
	}
	var errs field.ErrorList
	for i, k := range keys {
		errs = append(errs, unversionedvalidation.ValidateLabelName(k, fldPath.Index(i))...)
	}
	return errs
}

// ValidateMatchLabelKeysInTopologySpread is the older rule for a spread constraint's
// matchLabelKeys: label names not already in the selector.
func ValidateMatchLabelKeysInTopologySpread(fldPath *field.Path, matchLabelKeys []string, selector *metav1.LabelSelector) field.ErrorList {
	if len(matchLabelKeys) == 0 {
		return nil
	}
	var errs field.ErrorList
	keys := sets.Set[string]{}
	if selector != nil {
		for k := range selector.MatchLabels {
			keys.Insert(k)
		}
		for _, e := range selector.MatchExpressions {
			keys.Insert(e.Key)
		}
	} else {
		errs = append(errs, field.Forbidden(fldPath, "must not be specified when labelSelector is not set"))
	}
	for i, k := range matchLabelKeys {
		errs = append(errs, unversionedvalidation.ValidateLabelName(k, fldPath.Index(i))...)
		if keys.Has(k) {
			errs = append(errs, field.Invalid(fldPath.Index(i), k, "exists in both matchLabelKeys and labelSelector").WithOrigin("duplicatedLabelKeys"))
		}
	}
	return errs
}

func validateTaintEffect(effect *api.TaintEffect, allowEmpty bool, fldPath *field.Path) field.ErrorList {
	if !allowEmpty && *effect == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	switch *effect {
	case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, *effect, []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute})}
}

// ValidateTolerations checks tolerations; keyFormatCovered marks the key format errors as
// covered by declarative validation (the tolerations of a pod spec).
func ValidateTolerations(tolerations []api.Toleration, fldPath *field.Path, opts PodValidationOptions, keyFormatCovered bool) field.ErrorList {
	var errs field.ErrorList
	for i, t := range tolerations {
		p := fldPath.Index(i)
		if t.Key != "" {
			keyErrs := unversionedvalidation.ValidateLabelName(t.Key, p.Child("key"))
			if keyFormatCovered {
				keyErrs = keyErrs.MarkCoveredByDeclarative()
			}
			errs = append(errs, keyErrs...)
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			errs = append(errs, field.Invalid(p.Child("operator"), t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, field.Invalid(p.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			if msgs := wellformed.IsValidLabelValue(t.Value); len(msgs) != 0 {
				errs = append(errs, field.Invalid(p.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, field.Invalid(p.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		case api.TolerationOpLt, api.TolerationOpGt:
			if !opts.Server.AtLeast(35) {
				// Kubernetes 1.35 added the comparison operators, behind
				// TaintTolerationComparisonOperators (pkg/apis/core/validation/validation.go
				// ValidateTolerations, v1.34.4:4268 → v1.35.4:4394): 1.34 knows two.
				errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator, []api.TolerationOperator{api.TolerationOpEqual, api.TolerationOpExists}))
				break
			}
			if !opts.AllowTaintTolerationComparisonOperators {
				errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator,
					[]api.TolerationOperator{api.TolerationOpEqual, api.TolerationOpExists, api.TolerationOpLt, api.TolerationOpGt}))
				break
			}
			for _, msg := range content.IsDecimalInteger(t.Value) {
				errs = append(errs, field.Invalid(p.Child("value"), t.Value, msg))
			}
			if _, err := strconv.ParseInt(t.Value, 10, 64); err != nil {
				errs = append(errs, field.Invalid(p.Child("value"), t.Value, err.Error()))
			}
		default:
			errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator, []api.TolerationOperator{api.TolerationOpEqual, api.TolerationOpExists}))
		}
		if t.Effect != "" {
			errs = append(errs, validateTaintEffect(&t.Effect, true, p.Child("effect"))...)
		}
	}
	return errs
}

var supportedScheduleActions = []api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}

// validateTopologySpreadConstraints checks each constraint: skew, key, action, no repeat
// of (key, action), minDomains, node policies, matchLabelKeys and the selector.
func validateTopologySpreadConstraints(constraints []api.TopologySpreadConstraint, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	for i, c := range constraints {
		p := fldPath.Index(i)
		errs = append(errs, ValidatePositiveField(int64(c.MaxSkew), p.Child("maxSkew"))...)
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(p.Child("topologyKey"), "can not be empty"))
		}
		if !contains(supportedScheduleActions, c.WhenUnsatisfiable) {
			errs = append(errs, field.NotSupported(p.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, supportedScheduleActions))
		}
		for _, rest := range constraints[i+1:] {
			if c.TopologyKey == rest.TopologyKey && c.WhenUnsatisfiable == rest.WhenUnsatisfiable {
				errs = append(errs, field.Duplicate(p.Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
		if c.MinDomains != nil {
			errs = append(errs, ValidatePositiveField(int64(*c.MinDomains), p.Child("minDomains"))...)
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				errs = append(errs, field.Invalid(p.Child("minDomains"), c.MinDomains,
					fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", api.DoNotSchedule, c.WhenUnsatisfiable)).WithOrigin("dependsOn"))
			}
		}
		errs = append(errs, validateNodeInclusionPolicy(p.Child("nodeAffinityPolicy"), c.NodeAffinityPolicy)...)
		errs = append(errs, validateNodeInclusionPolicy(p.Child("nodeTaintsPolicy"), c.NodeTaintsPolicy)...)
		preferred := func() field.ErrorList {
			return ValidateMatchLabelKeysAndMismatchLabelKeys(p, c.MatchLabelKeys, nil, c.LabelSelector)
		}
		legacy := func() field.ErrorList {
			return ValidateMatchLabelKeysInTopologySpread(p.Child("matchLabelKeys"), c.MatchLabelKeys, c.LabelSelector)
		}
		switch {
		case !opts.AllowMatchLabelKeysInPodTopologySpread:
			errs = append(errs, legacy()...)
		case opts.AllowMatchLabelKeysInPodTopologySpreadSelectorMerge && !opts.OldPodViolatesMatchLabelKeysValidation:
			errs = append(errs, preferred()...)
		case !opts.AllowMatchLabelKeysInPodTopologySpreadSelectorMerge && opts.OldPodViolatesLegacyMatchLabelKeysValidation:
			errs = append(errs, preferred()...)
		default:
			errs = append(errs, legacy()...)
		}
		if !opts.AllowInvalidTopologySpreadConstraintLabelSelector {
			errs = append(errs, wellformed.ValidateLabelSelector(c.LabelSelector, unversionedvalidation.LabelSelectorValidationOptions{}, p.Child("labelSelector"))...)
		}
	}
	return errs
}

var supportedNodeInclusionPolicies = []api.NodeInclusionPolicy{api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore}

func validateNodeInclusionPolicy(fldPath *field.Path, policy *api.NodeInclusionPolicy) field.ErrorList {
	if policy == nil || contains(supportedNodeInclusionPolicies, *policy) {
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, supportedNodeInclusionPolicies)}
}

// validateTopologySelectorLabelRequirement: a label key and values, each once; it returns
// the values.
func validateTopologySelectorLabelRequirement(rq api.TopologySelectorLabelRequirement, fldPath *field.Path) (sets.Set[string], field.ErrorList) {
	var errs field.ErrorList
	values := sets.New[string]()
	valuesPath := fldPath.Child("values")
	if len(rq.Values) == 0 {
		errs = append(errs, field.Required(valuesPath, ""))
	}
	for i, v := range rq.Values {
		if values.Has(v) {
			errs = append(errs, field.Duplicate(valuesPath.Index(i), v))
		}
		values.Insert(v)
	}
	errs = append(errs, unversionedvalidation.ValidateLabelName(rq.Key, fldPath.Child("key"))...)
	return values, errs
}

// ValidateTopologySelectorTerm checks a topology selector term (a StorageClass's
// allowedTopologies) and returns its requirements by key.
func ValidateTopologySelectorTerm(term api.TopologySelectorTerm, fldPath *field.Path) (map[string]sets.Set[string], field.ErrorList) {
	var errs field.ErrorList
	byKey := make(map[string]sets.Set[string])
	exprPath := fldPath.Child("matchLabelExpressions")
	for i, rq := range term.MatchLabelExpressions {
		p := exprPath.Index(i)
		values, e := validateTopologySelectorLabelRequirement(rq, p)
		errs = append(errs, e...)
		if _, dup := byKey[rq.Key]; dup {
			errs = append(errs, field.Duplicate(p.Child("key"), rq.Key))
		}
		byKey[rq.Key] = values
	}
	return byKey, errs
}
