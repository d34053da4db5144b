package networking

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// ipAddressNameProblems: an IPAddress is named by the canonical form of its address.
func ipAddressNameProblems(name string, _ bool) []string {
	var msgs []string
	for _, err := range validation.IsValidIP(&field.Path{}, name) {
		msgs = append(msgs, err.Detail)
	}
	return msgs
}

// ValidateIPAddress checks an IPAddress: its name is an IP address and it refers to the
// object it was allocated to.
func ValidateIPAddress(ip *api.IPAddress) field.ErrorList {
	errs := core.ValidateObjectMeta(&ip.ObjectMeta, false, ipAddressNameProblems, field.NewPath("metadata"))
	fldPath := field.NewPath("spec", "parentRef")
	ref := ip.Spec.ParentRef
	if ref == nil {
		return append(errs, field.Required(fldPath, "").MarkCoveredByDeclarative())
	}
	// The core group, the one of Services, is the empty group.
	if ref.Group != "" {
		for _, msg := range wellformed.IsDNS1123Subdomain(ref.Group) {
			errs = append(errs, field.Invalid(fldPath.Child("group"), ref.Group, msg))
		}
	}
	errs = append(errs, pathSegment(ref.Resource, fldPath.Child("resource"), true, "")...)
	errs = append(errs, pathSegment(ref.Name, fldPath.Child("name"), true, "")...)
	if ref.Namespace != "" {
		for _, msg := range content.IsPathSegmentName(ref.Namespace) {
			errs = append(errs, field.Invalid(fldPath.Child("namespace"), ref.Namespace, msg))
		}
	}
	return errs
}

// ValidateIPAddressUpdate checks an update of an IPAddress: the new object is valid and
// its parent reference does not change (rules.md valid.update).
func ValidateIPAddressUpdate(ip, old *api.IPAddress) field.ErrorList {
	errs := ValidateIPAddress(ip)
	errs = append(errs, core.ValidateObjectMetaUpdate(&ip.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	immutable := apimachineryvalidation.ValidateImmutableField(ip.Spec.ParentRef, old.Spec.ParentRef, field.NewPath("spec", "parentRef"))
	return append(errs, immutable.MarkCoveredByDeclarative().WithOrigin("immutable")...)
}

// ValidateServiceCIDR checks a ServiceCIDR: one or two CIDRs, of different families.
func ValidateServiceCIDR(sc *api.ServiceCIDR) field.ErrorList {
	errs := core.ValidateObjectMeta(&sc.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateServiceCIDRSpec(&sc.Spec, field.NewPath("spec", "cidrs"))...)
}

func validateServiceCIDRSpec(spec *api.ServiceCIDRSpec, fldPath *field.Path) field.ErrorList {
	switch {
	case len(spec.CIDRs) == 0:
		return field.ErrorList{field.Required(fldPath, "at least one CIDR required")}
	case len(spec.CIDRs) > 2:
		return field.ErrorList{field.Invalid(fldPath, spec, "may only hold up to 2 values")}
	}
	var errs field.ErrorList
	for i, c := range spec.CIDRs {
		errs = append(errs, validation.IsValidCIDR(fldPath.Index(i), c)...)
	}
	if len(spec.CIDRs) == 2 {
		first, second := netutils.IPFamilyOfCIDRString(spec.CIDRs[0]), netutils.IPFamilyOfCIDRString(spec.CIDRs[1])
		if first == second && first != netutils.IPFamilyUnknown {
			errs = append(errs, field.Invalid(fldPath, spec.CIDRs, "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"))
		}
	}
	return errs
}

// ValidateServiceCIDRUpdate checks an update of a ServiceCIDR: its CIDRs cannot change,
// but a single-stack one may gain a CIDR of the other family (rules.md valid.update).
func ValidateServiceCIDRUpdate(sc, old *api.ServiceCIDR) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&sc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	fldPath := field.NewPath("spec", "cidrs")
	switch {
	case len(old.Spec.CIDRs) == len(sc.Spec.CIDRs):
		for i, c := range old.Spec.CIDRs {
			if c != sc.Spec.CIDRs[i] {
				errs = append(errs, field.Invalid(fldPath.Index(i), sc.Spec.CIDRs[i], apimachineryvalidation.FieldImmutableErrorMsg))
			}
		}
	case len(old.Spec.CIDRs) == 1 && len(sc.Spec.CIDRs) == 2:
		if sc.Spec.CIDRs[0] != old.Spec.CIDRs[0] {
			errs = append(errs, field.Invalid(fldPath.Index(0), sc.Spec.CIDRs[0], apimachineryvalidation.FieldImmutableErrorMsg))
		}
		errs = append(errs, validateServiceCIDRSpec(&sc.Spec, fldPath)...)
	default:
		errs = append(errs, field.Invalid(fldPath, sc.Spec.CIDRs, apimachineryvalidation.FieldImmutableErrorMsg))
	}
	return errs
}

// ValidateServiceCIDRStatusUpdate checks an update of a ServiceCIDR's status: only its
// metadata.
func ValidateServiceCIDRStatusUpdate(sc, old *api.ServiceCIDR) field.ErrorList {
	return core.ValidateObjectMetaUpdate(&sc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
}
