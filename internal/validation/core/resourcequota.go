package core

import (
	"fmt"
	"slices"
	"sort"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateResourceQuota checks a new ResourceQuota: its hard limits (quota resource names,
// quantities), its scopes and scope selector, and its status (cleared on create by
// PrepareForCreate).
func ValidateResourceQuota(rq *api.ResourceQuota) field.ErrorList {
	errs := ValidateObjectMeta(&rq.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, resourceQuotaSpec(&rq.Spec, field.NewPath("spec"))...)
	return append(errs, quotaAmounts(rq.Status.Hard, rq.Status.Used, field.NewPath("status"))...)
}

// ValidateResourceQuotaUpdate checks an update through the main resource: the spec as on a
// create, and the scopes, which never change (rules.md valid.update).
func ValidateResourceQuotaUpdate(rq, old *api.ResourceQuota) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&rq.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, resourceQuotaSpec(&rq.Spec, field.NewPath("spec"))...)
	scopes, oldScopes := map[api.ResourceQuotaScope]bool{}, map[api.ResourceQuotaScope]bool{}
	for _, s := range rq.Spec.Scopes {
		scopes[s] = true
	}
	for _, s := range old.Spec.Scopes {
		oldScopes[s] = true
	}
	same := len(scopes) == len(oldScopes)
	for s := range scopes {
		same = same && oldScopes[s]
	}
	if !same {
		errs = append(errs, field.Invalid(field.NewPath("spec", "scopes"), rq.Spec.Scopes, apimachineryvalidation.FieldImmutableErrorMsg))
	}
	return errs
}

// ValidateResourceQuotaStatusUpdate checks an update through /status: the hard and used
// amounts.
func ValidateResourceQuotaStatusUpdate(rq, old *api.ResourceQuota) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&rq.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	if rq.ResourceVersion == "" {
		errs = append(errs, field.Required(field.NewPath("resourceVersion"), ""))
	}
	return append(errs, quotaAmounts(rq.Status.Hard, rq.Status.Used, field.NewPath("status"))...)
}

// quotaAmounts checks the resource names and quantities of a status's hard and used lists.
func quotaAmounts(hard, used api.ResourceList, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for k, v := range hard {
		p := fldPath.Child("hard").Key(string(k))
		errs = append(errs, ValidateResourceQuotaResourceName(k, p)...)
		errs = append(errs, ValidateResourceQuantityValue(k, v, p)...)
	}
	for k, v := range used {
		p := fldPath.Child("used").Key(string(k))
		errs = append(errs, ValidateResourceQuotaResourceName(k, p)...)
		errs = append(errs, ValidateResourceQuantityValue(k, v, p)...)
	}
	return errs
}

func resourceQuotaSpec(spec *api.ResourceQuotaSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for k, v := range spec.Hard {
		p := fldPath.Child("hard").Key(string(k))
		errs = append(errs, ValidateResourceQuotaResourceName(k, p)...)
		errs = append(errs, ValidateResourceQuantityValue(k, v, p)...)
	}
	errs = append(errs, quotaScopes(spec, fldPath)...)
	if spec.ScopeSelector != nil {
		errs = append(errs, quotaScopeSelector(spec, fldPath.Child("scopeSelector"))...)
	}
	return errs
}

// The scopes of a quota, and the ones that exclude each other.
var (
	quotaScopeNames = []api.ResourceQuotaScope{
		api.ResourceQuotaScopeTerminating, api.ResourceQuotaScopeNotTerminating,
		api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeNotBestEffort,
		api.ResourceQuotaScopePriorityClass, api.ResourceQuotaScopeVolumeAttributesClass,
		api.ResourceQuotaScopeCrossNamespacePodAffinity,
	}
	conflictingQuotaScopes = [][2]api.ResourceQuotaScope{
		{api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeNotBestEffort},
		{api.ResourceQuotaScopeTerminating, api.ResourceQuotaScopeNotTerminating},
	}
)

// quotaScopeAllows: the resources a scope can limit (pods and their compute resources for
// the pod scopes, only pods for BestEffort, claims and their storage for
// VolumeAttributesClass); other scopes limit anything.
func quotaScopeAllows(scope api.ResourceQuotaScope, name api.ResourceName) bool {
	switch scope {
	case api.ResourceQuotaScopeTerminating, api.ResourceQuotaScopeNotTerminating, api.ResourceQuotaScopeNotBestEffort,
		api.ResourceQuotaScopePriorityClass, api.ResourceQuotaScopeCrossNamespacePodAffinity:
		switch name {
		case api.ResourcePods, api.ResourceCPU, api.ResourceMemory, api.ResourceLimitsCPU, api.ResourceLimitsMemory,
			api.ResourceRequestsCPU, api.ResourceRequestsMemory:
			return true
		}
		return false
	case api.ResourceQuotaScopeBestEffort:
		return name == api.ResourcePods
	case api.ResourceQuotaScopeVolumeAttributesClass:
		return name == api.ResourcePersistentVolumeClaims || name == api.ResourceRequestsStorage
	}
	return true
}

// sortedHard is the names of the hard limits in order (the server ranges over them sorted).
func sortedHard(spec *api.ResourceQuotaSpec) []api.ResourceName {
	names := make([]api.ResourceName, 0, len(spec.Hard))
	for k := range spec.Hard {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

func quotaScopes(spec *api.ResourceQuotaSpec, fldPath *field.Path) field.ErrorList {
	if len(spec.Scopes) == 0 {
		return nil
	}
	var errs field.ErrorList
	p := fldPath.Child("scopes")
	hard := sortedHard(spec)
	seen := map[api.ResourceQuotaScope]bool{}
	for _, scope := range spec.Scopes {
		if !slices.Contains(quotaScopeNames, scope) {
			errs = append(errs, field.Invalid(p, spec.Scopes, "unsupported scope"))
		}
		for _, k := range hard {
			if isStandardQuotaResourceName(k) && !quotaScopeAllows(scope, k) {
				errs = append(errs, field.Invalid(p, spec.Scopes, "unsupported scope applied to resource"))
			}
		}
		seen[scope] = true
	}
	for _, pair := range conflictingQuotaScopes {
		if seen[pair[0]] && seen[pair[1]] {
			errs = append(errs, field.Invalid(p, spec.Scopes, "conflicting scopes"))
		}
	}
	return errs
}

func quotaScopeSelector(spec *api.ResourceQuotaSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	p := fldPath.Child("matchExpressions")
	hard := sortedHard(spec)
	seen := map[api.ResourceQuotaScope]bool{}
	for _, req := range spec.ScopeSelector.MatchExpressions {
		if !slices.Contains(quotaScopeNames, req.ScopeName) {
			errs = append(errs, field.Invalid(p.Child("scopeName"), req.ScopeName, "unsupported scope"))
		}
		for _, k := range hard {
			if isStandardQuotaResourceName(k) && !quotaScopeAllows(req.ScopeName, k) {
				errs = append(errs, field.Invalid(p, spec.ScopeSelector, "unsupported scope applied to resource"))
			}
		}
		switch req.ScopeName {
		case api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeNotBestEffort, api.ResourceQuotaScopeTerminating,
			api.ResourceQuotaScopeNotTerminating, api.ResourceQuotaScopeCrossNamespacePodAffinity:
			if req.Operator != api.ScopeSelectorOpExists {
				errs = append(errs, field.Invalid(p.Child("operator"), req.Operator,
					"must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"))
			}
		}
		switch req.Operator {
		case api.ScopeSelectorOpIn, api.ScopeSelectorOpNotIn:
			if len(req.Values) == 0 {
				errs = append(errs, field.Required(p.Child("values"), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"))
			}
		case api.ScopeSelectorOpExists, api.ScopeSelectorOpDoesNotExist:
			if len(req.Values) != 0 {
				errs = append(errs, field.Invalid(p.Child("values"), req.Values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"))
			}
		default:
			errs = append(errs, field.Invalid(p.Child("operator"), req.Operator, "not a valid selector operator"))
		}
		seen[req.ScopeName] = true
	}
	for _, pair := range conflictingQuotaScopes {
		if seen[pair[0]] && seen[pair[1]] {
			// The server prints the scopes list here, not the selector.
			errs = append(errs, field.Invalid(p, spec.Scopes, "conflicting scopes"))
		}
	}
	return errs
}

// resourceQuotaWarnings: on a create, a hard request above the matching hard limit (for
// cpu and memory the bare name counts as the request), on the server cfg.
func resourceQuotaWarnings(cfg *serverconfig.Config, rq *api.ResourceQuota) []string {
	if !cfg.AtLeast(35) {
		// Kubernetes 1.35 added these warnings (pkg/registry/core/resourcequota/strategy.go
		// WarningsOnCreate, v1.35.4:78-108).
		return nil
	}
	var ws []string
	for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceStorage, api.ResourceEphemeralStorage} {
		reqName := api.ResourceName("requests." + string(name))
		req, hasReq := rq.Spec.Hard[reqName]
		if !hasReq && (name == api.ResourceCPU || name == api.ResourceMemory) {
			if req, hasReq = rq.Spec.Hard[name]; hasReq {
				reqName = name
			}
		}
		limName := api.ResourceName("limits." + string(name))
		lim, hasLim := rq.Spec.Hard[limName]
		if hasReq && hasLim && req.Cmp(lim) > 0 {
			ws = append(ws, fmt.Sprintf("ResourceQuota %s (%s) should be less than %s (%s)", reqName, req.String(), limName, lim.String()))
		}
	}
	return ws
}
