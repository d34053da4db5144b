package core

import (
	"fmt"
	"sort"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/resource"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The shared rules for resource names and quantities: container resources, pod-level
// resources, PersistentVolume capacity and claim requests, quotas and limit ranges all use
// them.

const (
	isNegativeErrorMsg     = apimachineryvalidation.IsNegativeErrorMsg
	isInvalidQuotaResource = `must be a standard resource for quota`
	isNotIntegerErrorMsg   = `must be an integer`
	isNotPositiveErrorMsg  = `must be greater than zero`
	fieldImmutableErrorMsg = apimachineryvalidation.FieldImmutableErrorMsg
)

// ValidateNonnegativeField: value must not be below zero.
func ValidateNonnegativeField(value int64, fldPath *field.Path) field.ErrorList {
	return apimachineryvalidation.ValidateNonnegativeField(value, fldPath)
}

// ValidatePositiveField: value must be above zero.
func ValidatePositiveField(value int64, fldPath *field.Path) field.ErrorList {
	if value <= 0 {
		return field.ErrorList{field.Invalid(fldPath, value, isNotPositiveErrorMsg).WithOrigin("minimum")}
	}
	return nil
}

// ValidateNonnegativeQuantity: a quantity must not be below zero (printed as its text).
func ValidateNonnegativeQuantity(value resource.Quantity, fldPath *field.Path) field.ErrorList {
	if value.Cmp(resource.Quantity{}) < 0 {
		return field.ErrorList{field.Invalid(fldPath, value.String(), isNegativeErrorMsg)}
	}
	return nil
}

// ValidatePositiveQuantityValue: a quantity must be above zero (printed as its text).
func ValidatePositiveQuantityValue(value resource.Quantity, fldPath *field.Path) field.ErrorList {
	if value.Cmp(resource.Quantity{}) <= 0 {
		return field.ErrorList{field.Invalid(fldPath, value.String(), isNotPositiveErrorMsg)}
	}
	return nil
}

// ValidateImmutableField: newVal must equal oldVal.
func ValidateImmutableField(newVal, oldVal any, fldPath *field.Path) field.ErrorList {
	return apimachineryvalidation.ValidateImmutableField(newVal, oldVal, fldPath)
}

// ValidateResourceQuantityValue: a resource's quantity is not negative, and is whole for
// the resources counted in units (object counts, extended resources).
func ValidateResourceQuantityValue(name api.ResourceName, value resource.Quantity, fldPath *field.Path) field.ErrorList {
	errs := ValidateNonnegativeQuantity(value, fldPath)
	if isIntegerResourceName(name) && value.MilliValue()%1000 != 0 {
		errs = append(errs, field.Invalid(fldPath, value, isNotIntegerErrorMsg))
	}
	return errs
}

// validateBasicResource: the quantity's whole value is not negative (printed as a number).
func validateBasicResource(q resource.Quantity, fldPath *field.Path) field.ErrorList {
	if q.Value() < 0 {
		return field.ErrorList{field.Invalid(fldPath, q.Value(), "must be a valid resource quantity")}
	}
	return nil
}

// validateResourceName: a qualified name, and a known resource when it has no domain.
func validateResourceName(value api.ResourceName, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range wellformed.IsQualifiedName(string(value)) {
		errs = append(errs, field.Invalid(fldPath, value, msg))
	}
	if len(errs) != 0 {
		return errs
	}
	if !strings.Contains(string(value), "/") && !isStandardResourceName(value) {
		errs = append(errs, field.Invalid(fldPath, value, "must be a standard resource type or fully qualified"))
	}
	return errs
}

// ValidateContainerResourceName is the rule for the resource names of a container's
// requests and limits: a standard container resource, or an extended resource.
func ValidateContainerResourceName(value api.ResourceName, fldPath *field.Path) field.ErrorList {
	errs := validateResourceName(value, fldPath)
	switch {
	case !strings.Contains(string(value), "/"):
		if !isStandardContainerResourceName(value) {
			return append(errs, field.Invalid(fldPath, value, "must be a standard resource for containers"))
		}
	case !isNativeResource(value):
		if !isExtendedResourceName(value) {
			return append(errs, field.Invalid(fldPath, value, "doesn't follow extended resource name standard"))
		}
	}
	return errs
}

// podLevelResources are the resources a pod-level resources field may name (besides
// hugepages-*), in the order the server lists them.
var podLevelResources = []string{string(api.ResourceCPU), api.ResourceHugePagesPrefix, string(api.ResourceMemory)}

// validatePodResourceName is the rule for the resource names of spec.resources.
func validatePodResourceName(name api.ResourceName, fldPath *field.Path) field.ErrorList {
	errs := validateResourceName(name, fldPath)
	if len(errs) != 0 {
		return errs
	}
	if name != api.ResourceCPU && name != api.ResourceMemory && !isHugePageResourceName(name) {
		return append(errs, field.NotSupported(fldPath, name, podLevelResources))
	}
	return errs
}

// ValidateResourceQuotaResourceName is the rule for the resource names of a quota.
func ValidateResourceQuotaResourceName(value api.ResourceName, fldPath *field.Path) field.ErrorList {
	errs := validateResourceName(value, fldPath)
	if !strings.Contains(string(value), "/") && !isStandardQuotaResourceName(value) {
		return append(errs, field.Invalid(fldPath, value, isInvalidQuotaResource))
	}
	return errs
}

// The resource-name predicates of the core group's helpers.

var standardContainerResources = &lazySet[api.ResourceName]{items: []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage}}

var standardQuotaResources = &lazySet[api.ResourceName]{items: []api.ResourceName{
	api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage,
	api.ResourceRequestsCPU, api.ResourceRequestsMemory, api.ResourceRequestsStorage, api.ResourceRequestsEphemeralStorage,
	api.ResourceLimitsCPU, api.ResourceLimitsMemory, api.ResourceLimitsEphemeralStorage,
	api.ResourcePods, api.ResourceQuotas, api.ResourceServices, api.ResourceReplicationControllers,
	api.ResourceSecrets, api.ResourcePersistentVolumeClaims, api.ResourceConfigMaps,
	api.ResourceServicesNodePorts, api.ResourceServicesLoadBalancers}}

var standardResources = &lazySet[api.ResourceName]{items: []api.ResourceName{
	api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage,
	api.ResourceRequestsCPU, api.ResourceRequestsMemory, api.ResourceRequestsEphemeralStorage,
	api.ResourceLimitsCPU, api.ResourceLimitsMemory, api.ResourceLimitsEphemeralStorage,
	api.ResourcePods, api.ResourceQuotas, api.ResourceServices, api.ResourceReplicationControllers,
	api.ResourceSecrets, api.ResourceConfigMaps, api.ResourcePersistentVolumeClaims,
	api.ResourceStorage, api.ResourceRequestsStorage, api.ResourceServicesNodePorts, api.ResourceServicesLoadBalancers}}

var integerResources = &lazySet[api.ResourceName]{items: []api.ResourceName{
	api.ResourcePods, api.ResourceQuotas, api.ResourceServices, api.ResourceReplicationControllers,
	api.ResourceSecrets, api.ResourceConfigMaps, api.ResourcePersistentVolumeClaims,
	api.ResourceServicesNodePorts, api.ResourceServicesLoadBalancers}}

func isHugePageResourceName(name api.ResourceName) bool {
	return strings.HasPrefix(string(name), api.ResourceHugePagesPrefix)
}

func isQuotaHugePageResourceName(name api.ResourceName) bool {
	return isHugePageResourceName(name) || strings.HasPrefix(string(name), api.ResourceRequestsHugePagesPrefix)
}

func isStandardContainerResourceName(name api.ResourceName) bool {
	return standardContainerResources.get().Has(name) || isHugePageResourceName(name)
}

func isStandardQuotaResourceName(name api.ResourceName) bool {
	return standardQuotaResources.get().Has(name) || isQuotaHugePageResourceName(name)
}

func isStandardResourceName(name api.ResourceName) bool {
	return standardResources.get().Has(name) || isQuotaHugePageResourceName(name)
}

func isIntegerResourceName(name api.ResourceName) bool {
	return integerResources.get().Has(name) || isExtendedResourceName(name)
}

// isNativeResource: no domain, or a kubernetes.io one.
func isNativeResource(name api.ResourceName) bool {
	return !strings.Contains(string(name), "/") || strings.Contains(string(name), api.ResourceDefaultNamespacePrefix)
}

// isExtendedResourceName: outside kubernetes.io, not a quota name, and a qualified name
// once the quota prefix is put in front.
func isExtendedResourceName(name api.ResourceName) bool {
	if isNativeResource(name) || strings.HasPrefix(string(name), api.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(wellformed.IsQualifiedName(api.DefaultResourceRequestsPrefix+string(name))) == 0
}

// isOvercommitAllowed: native resources other than hugepages may request less than
// their limit.
func isOvercommitAllowed(name api.ResourceName) bool {
	return isNativeResource(name) && !isHugePageResourceName(name)
}

// hugePageSizeDivides: the quantity is a whole number of pages of the size the name gives.
func hugePageSizeDivides(name api.ResourceName, q resource.Quantity) bool {
	size, err := resource.ParseQuantity(strings.TrimPrefix(string(name), api.ResourceHugePagesPrefix))
	if err != nil || !isHugePageResourceName(name) {
		return false
	}
	if size.Sign() <= 0 || size.MilliValue()%1000 != 0 {
		return false
	}
	return q.Value()%size.Value() == 0
}

// ValidateContainerResourceRequirements checks a container's requests, limits and claims
// (and a pod's overhead, as limits).
func ValidateContainerResourceRequirements(req *api.ResourceRequirements, podClaimNames sets.Set[string], fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	return validateResourceRequirements(req, ValidateContainerResourceName, podClaimNames, fldPath, opts)
}

func validatePodResourceRequirements(req *api.ResourceRequirements, podClaimNames sets.Set[string], fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	return validateResourceRequirements(req, validatePodResourceName, podClaimNames, fldPath, opts)
}

// validateResourceRequirements checks names and quantities of limits then requests (in
// map order), each request against its limit, hugepages against cpu/memory, and claims.
func validateResourceRequirements(req *api.ResourceRequirements, nameRule func(api.ResourceName, *field.Path) field.ErrorList, podClaimNames sets.Set[string], fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	limPath, reqPath := fldPath.Child("limits"), fldPath.Child("requests")
	computeSeen, hugePagesSeen := false, false
	for name, q := range req.Limits {
		p := limPath.Key(string(name))
		errs = append(errs, nameRule(name, p)...)
		errs = append(errs, ValidateResourceQuantityValue(name, q, p)...)
		if isHugePageResourceName(name) {
			hugePagesSeen = true
			if msg := hugePageValueProblem(name, q, opts); msg != "" {
				errs = append(errs, field.Invalid(p, q.String(), msg))
			}
		}
		if name == api.ResourceCPU || name == api.ResourceMemory {
			computeSeen = true
		}
	}
	for name, q := range req.Requests {
		p := reqPath.Key(string(name))
		errs = append(errs, nameRule(name, p)...)
		errs = append(errs, ValidateResourceQuantityValue(name, q, p)...)
		if limit, ok := req.Limits[name]; ok {
			switch {
			case q.Cmp(limit) != 0 && !isOvercommitAllowed(name):
				errs = append(errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", name, limit.String())))
			case q.Cmp(limit) > 0:
				errs = append(errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String())))
			}
		} else if !isOvercommitAllowed(name) {
			errs = append(errs, field.Required(limPath, "Limit must be set for non overcommitable resources"))
		}
		if isHugePageResourceName(name) {
			hugePagesSeen = true
			if msg := hugePageValueProblem(name, q, opts); msg != "" {
				errs = append(errs, field.Invalid(p, q.String(), msg))
			}
		}
		if name == api.ResourceCPU || name == api.ResourceMemory {
			computeSeen = true
		}
	}
	if hugePagesSeen && !computeSeen {
		errs = append(errs, field.Forbidden(fldPath, "HugePages require cpu or memory"))
	}
	return append(errs, validateResourceClaimNames(req.Claims, podClaimNames, fldPath.Child("claims"))...)
}

// hugePageValueProblem is the detail when a hugepages quantity is not a whole number of
// pages (allowed when the stored object already had such a value).
func hugePageValueProblem(name api.ResourceName, q resource.Quantity, opts PodValidationOptions) string {
	if opts.AllowIndivisibleHugePagesValues || hugePageSizeDivides(name, q) {
		return ""
	}
	return fmt.Sprintf("%s is not positive integer multiple of %s", q.String(), name)
}

// validateResourceClaimNames: each entry of resources.claims names a claim of
// spec.resourceClaims, once (a whole claim and one of its requests overlap).
func validateResourceClaimNames(claims []api.ResourceClaim, podClaimNames sets.Set[string], fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := sets.Set[string]{}
	for i, claim := range claims {
		p := fldPath.Index(i)
		name := claim.Name
		if name == "" {
			errs = append(errs, field.Required(p, ""))
			continue
		}
		if seen.Has(name) {
			errs = append(errs, field.Duplicate(p, name))
		} else {
			key := name
			if claim.Request != "" {
				errs = append(errs, ValidateDNS1123Label(claim.Request, p.Child("request"))...)
				key += "/" + claim.Request
			}
			switch {
			case seen.Has(key):
				errs = append(errs, field.Duplicate(p, key))
			case claim.Request == "":
				for k := range seen {
					if before, _, ok := strings.Cut(k, "/"); ok && before == name {
						errs = append(errs, field.Duplicate(p, name))
					}
				}
			}
			seen.Insert(key)
		}
		if !podClaimNames.Has(name) {
			e := field.NotFound(p, name)
			e.Detail = "must be one of the names in pod.spec.resourceClaims"
			if len(podClaimNames) == 0 {
				e.Detail += " which is empty"
			} else {
				names := sets.List(podClaimNames)
				sort.Strings(names)
				e.Detail += ": " + strings.Join(names, ", ")
			}
			errs = append(errs, e)
		}
	}
	return errs
}
