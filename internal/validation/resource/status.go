package resource

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateResourceClaimStatusUpdate checks a write of a claim's status: the consumers it is
// reserved for, the allocation (set once, then unchanged) and the status of the allocated
// devices.
func ValidateResourceClaimStatusUpdate(c, old *api.ResourceClaim) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	names := gatherRequestNames(&c.Spec.Devices)
	return append(errs, validateClaimStatus(&c.Status, &old.Status, c.DeletionTimestamp != nil, names, field.NewPath("status"))...)
}

func validateClaimStatus(st, old *api.ResourceClaimStatus, deleted bool, names requestNames, fldPath *field.Path) field.ErrorList {
	errs := set(st.ReservedFor, api.ResourceClaimReservedForMaxSize, validateConsumerRef,
		func(r api.ResourceClaimConsumerReference) types.UID { return r.UID }, fldPath.Child("reservedFor"), coveredSize, coveredUniqueness)
	allocated := sets.New[sharedDeviceID]()
	if st.Allocation != nil {
		for _, r := range st.Allocation.Devices.Results {
			allocated.Insert(makeSharedDeviceID(r.Driver, r.Pool, r.Device, r.ShareID))
		}
	}
	errs = append(errs, set(st.Devices, -1, func(d api.AllocatedDeviceStatus, p *field.Path) field.ErrorList {
		return validateDeviceStatus(d, p, allocated)
	}, deviceStatusID, fldPath.Child("devices"), coveredUniqueness)...)
	if len(st.ReservedFor) > 0 {
		switch {
		case st.Allocation == nil:
			errs = append(errs, field.Forbidden(fldPath.Child("reservedFor"), "may not be specified when `allocated` is not set"))
		case deleted && !sets.New(old.ReservedFor...).IsSuperset(sets.New(st.ReservedFor...)):
			errs = append(errs, field.Forbidden(fldPath.Child("reservedFor"), "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set"))
		}
	}
	switch {
	case old.Allocation != nil && st.Allocation != nil:
		errs = append(errs, apimachineryvalidation.ValidateImmutableField(st.Allocation, old.Allocation, fldPath.Child("allocation")).WithOrigin("update").MarkCoveredByDeclarative()...)
	case st.Allocation != nil:
		errs = append(errs, validateAllocation(st.Allocation, fldPath.Child("allocation"), names)...)
	}
	return errs
}

func deviceStatusID(d api.AllocatedDeviceStatus) sharedDeviceID {
	return makeSharedDeviceID(d.Driver, d.Pool, d.Device, (*types.UID)(d.ShareID))
}

func validateConsumerRef(r api.ResourceClaimConsumerReference, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if r.Resource == "" {
		errs = append(errs, field.Required(fldPath.Child("resource"), ""))
	}
	if r.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	}
	if r.UID == "" {
		errs = append(errs, field.Required(fldPath.Child("uid"), ""))
	}
	return errs
}

// validateAllocation checks a new allocation: its results, its configuration and the
// nodes it is available on.
func validateAllocation(a *api.AllocationResult, fldPath *field.Path, names requestNames) field.ErrorList {
	p := fldPath.Child("devices")
	errs := list(a.Devices.Results, api.AllocationResultsMaxSize, func(r api.DeviceRequestAllocationResult, q *field.Path) field.ErrorList {
		return validateAllocationResult(r, q, names)
	}, p.Child("results"), coveredSize)
	errs = append(errs, list(a.Devices.Config, 2*api.DeviceConfigMaxSize, func(c api.DeviceAllocationConfiguration, q *field.Path) field.ErrorList {
		e := validateConfigSource(c.Source, q.Child("source"))
		e = append(e, validateRequestRefs(c.Requests, q.Child("requests"), names)...)
		return append(e, validateDeviceConfiguration(c.DeviceConfiguration, q, false)...)
	}, p.Child("config"), coveredSize)...)
	if a.NodeSelector != nil {
		errs = append(errs, core.ValidateNodeSelector(a.NodeSelector, false, fldPath.Child("nodeSelector"))...)
	}
	return errs
}

func validateAllocationResult(r api.DeviceRequestAllocationResult, fldPath *field.Path, names requestNames) field.ErrorList {
	errs := validateRequestRef(r.Request, fldPath.Child("request"), names)
	errs = append(errs, validateDriverName(r.Driver, fldPath.Child("driver"), coveredDriver)...)
	errs = append(errs, validatePoolName(r.Pool, fldPath.Child("pool")).MarkCoveredByDeclarative()...)
	errs = append(errs, validateDeviceName(r.Device, fldPath.Child("device"))...)
	errs = append(errs, validateBindingConditions(r.BindingConditions, r.BindingFailureConditions, fldPath)...)
	errs = append(errs, validateTolerations(r.Tolerations, fldPath.Child("tolerations"))...)
	if r.ShareID != nil {
		errs = append(errs, validateUID(string(*r.ShareID), fldPath.Child("shareID")).MarkCoveredByDeclarative()...)
	}
	return errs
}

var configSources = []api.AllocationConfigSource{api.AllocationConfigSourceClaim, api.AllocationConfigSourceClass}

func validateConfigSource(s api.AllocationConfigSource, fldPath *field.Path) field.ErrorList {
	switch s {
	case "":
		return field.ErrorList{field.Required(fldPath, "").MarkCoveredByDeclarative()}
	case api.AllocationConfigSourceClaim, api.AllocationConfigSourceClass:
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, s, configSources).MarkCoveredByDeclarative()}
}

// validateBindingConditions: at most 4 condition names of each kind, label keys, none
// repeated or in both lists, and either both lists or neither.
func validateBindingConditions(conds, failures []string, fldPath *field.Path) field.ErrorList {
	cp, fp := fldPath.Child("bindingConditions"), fldPath.Child("bindingFailureConditions")
	errs := list(conds, api.BindingConditionsMaxSize, metav1validation.ValidateLabelName, cp, coveredSize)
	errs = append(errs, list(failures, api.BindingFailureConditionsMaxSize, metav1validation.ValidateLabelName, fp, coveredSize)...)
	seen := sets.New[string]()
	for i, c := range conds {
		if seen.Has(c) {
			errs = append(errs, field.Duplicate(cp.Index(i), c))
		}
		seen.Insert(c)
	}
	all := sets.New(conds...)
	seenFailures := sets.New[string]()
	for i, c := range failures {
		if seenFailures.Has(c) {
			errs = append(errs, field.Duplicate(fp.Index(i), c))
		}
		seenFailures.Insert(c)
		if all.Has(c) {
			errs = append(errs, field.Invalid(fp.Index(i), c, "bindingFailureConditions must not overlap with bindingConditions"))
		}
	}
	if len(conds) == 0 && len(failures) > 0 {
		errs = append(errs, field.Invalid(cp, conds, "bindingConditions are required to use bindingFailureConditions"))
	}
	if len(failures) == 0 && len(conds) > 0 {
		errs = append(errs, field.Invalid(fp, failures, "bindingFailureConditions are required to use bindingConditions"))
	}
	return errs
}

// validateDeviceStatus: the status of a device the claim has allocated.
func validateDeviceStatus(d api.AllocatedDeviceStatus, fldPath *field.Path, allocated sets.Set[sharedDeviceID]) field.ErrorList {
	errs := validateDriverName(d.Driver, fldPath.Child("driver"), driverCover{})
	errs = append(errs, validatePoolName(d.Pool, fldPath.Child("pool"))...)
	errs = append(errs, validateDeviceName(d.Device, fldPath.Child("device"))...)
	if d.ShareID != nil {
		errs = append(errs, validateUID(*d.ShareID, fldPath.Child("shareID")).MarkCoveredByDeclarative()...)
	}
	if id := deviceStatusID(d); !allocated.Has(id) {
		errs = append(errs, field.Invalid(fldPath, id, "must be an allocated device in the claim"))
	}
	if len(d.Conditions) > api.AllocatedDeviceStatusMaxConditions {
		errs = append(errs, field.TooMany(fldPath.Child("conditions"), len(d.Conditions), api.AllocatedDeviceStatusMaxConditions))
	}
	errs = append(errs, metav1validation.ValidateConditions(d.Conditions, fldPath.Child("conditions"))...)
	if d.Data != nil && len(d.Data.Raw) > 0 {
		errs = append(errs, validateRawExtension(*d.Data, fldPath.Child("data"), false, api.AllocatedDeviceStatusDataMaxLength)...)
	}
	return append(errs, validateNetworkData(d.NetworkData, fldPath.Child("networkData"))...)
}

// validateNetworkData: bounded interface name and hardware address, and at most 16
// distinct interface addresses in CIDR form.
func validateNetworkData(n *api.NetworkDeviceData, fldPath *field.Path) field.ErrorList {
	if n == nil {
		return nil
	}
	var errs field.ErrorList
	if len(n.InterfaceName) > api.NetworkDeviceDataInterfaceNameMaxLength {
		errs = append(errs, field.TooLong(fldPath.Child("interfaceName"), "", api.NetworkDeviceDataInterfaceNameMaxLength).WithOrigin("maxBytes").MarkCoveredByDeclarative())
	}
	if len(n.HardwareAddress) > api.NetworkDeviceDataHardwareAddressMaxLength {
		errs = append(errs, field.TooLong(fldPath.Child("hardwareAddress"), "", api.NetworkDeviceDataHardwareAddressMaxLength).WithOrigin("maxBytes").MarkCoveredByDeclarative())
	}
	return append(errs, set(n.IPs, api.NetworkDeviceDataMaxIPs, func(ip string, p *field.Path) field.ErrorList {
		return validation.IsValidInterfaceAddress(p, ip)
	}, itself, fldPath.Child("ips"), coveredSize, coveredUniqueness)...)
}

// adminAccessInStatus refuses to predict a status write that newly allocates a device with
// admin access: the server then looks up the labels of the claim's namespace.
func adminAccessInStatus(c, old *api.ResourceClaim) {
	granted := func(a *api.AllocationResult) bool {
		if a == nil {
			return false
		}
		for _, r := range a.Devices.Results {
			if r.AdminAccess != nil && *r.AdminAccess {
				return true
			}
		}
		return false
	}
	if !granted(old.Status.Allocation) && granted(c.Status.Allocation) {
		panic(registry.NotPredicted{Reason: fmt.Sprintf("an allocation with admin access needs the %q label on namespace %q, which the server looks up", api.DRAAdminNamespaceLabelKey, c.Namespace)})
	}
}

// adminAccessInSpec refuses to predict the create of a claim (or template) with a request
// for admin access: the server then looks up the labels of its namespace.
func adminAccessInSpec(reqs []api.DeviceRequest, namespace string) {
	for _, r := range reqs {
		if r.Exactly != nil && r.Exactly.AdminAccess != nil && *r.Exactly.AdminAccess {
			panic(registry.NotPredicted{Reason: fmt.Sprintf("a request for admin access needs the %q label on namespace %q, which the server looks up", api.DRAAdminNamespaceLabelKey, namespace)})
		}
	}
}
