package networking

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The declarative validation 1.37 enforces for the group: beta rules that a parameters
// reference has a kind and a name, that an IPAddress has a parent reference naming a
// resource and an object and keeps it, and that an IP block has a CIDR. Declarative
// validation skips what an update leaves unchanged, level by level; items of lists are not
// paired with the stored ones, so a changed list is checked whole.

// requiredString is a beta Required error for an empty value, unless an update keeps the
// value it had (correlated: the stored parent exists).
func requiredString(v string, old *string, fldPath *field.Path) field.ErrorList {
	if old != nil && v == *old {
		return nil
	}
	if v == "" {
		return field.ErrorList{field.Required(fldPath, "").MarkBeta()}
	}
	return nil
}

// immutableChanged is the beta error of an immutable field an update changes.
func immutableChanged(fldPath *field.Path) *field.Error {
	return field.Invalid(fldPath, nil, "field is immutable").WithOrigin("immutable").MarkBeta()
}

func ingressClassDeclarative(obj, old any) field.ErrorList {
	ic := obj.(*api.IngressClass)
	var oldParams *api.IngressClassParametersReference
	if old != nil {
		oldIC := old.(*api.IngressClass)
		if equality.Semantic.DeepEqual(ic.Spec, oldIC.Spec) || equality.Semantic.DeepEqual(ic.Spec.Parameters, oldIC.Spec.Parameters) {
			return nil
		}
		oldParams = oldIC.Spec.Parameters
	}
	params := ic.Spec.Parameters
	if params == nil {
		return nil
	}
	var oldKind, oldName *string
	if oldParams != nil {
		oldKind, oldName = &oldParams.Kind, &oldParams.Name
	}
	fldPath := field.NewPath("spec", "parameters")
	errs := requiredString(params.Kind, oldKind, fldPath.Child("kind"))
	return append(errs, requiredString(params.Name, oldName, fldPath.Child("name"))...)
}

func ipAddressDeclarative(obj, old any) field.ErrorList {
	ip := obj.(*api.IPAddress)
	ref := ip.Spec.ParentRef
	var oldRef *api.ParentReference
	updating := old != nil
	if updating {
		oldIP := old.(*api.IPAddress)
		oldRef = oldIP.Spec.ParentRef
		if equality.Semantic.DeepEqual(ip.Spec, oldIP.Spec) || ref == oldRef || (ref != nil && oldRef != nil && *ref == *oldRef) {
			return nil
		}
	}
	fldPath := field.NewPath("spec", "parentRef")
	var errs field.ErrorList
	if ref == nil {
		errs = append(errs, field.Required(fldPath, "").MarkBeta())
	}
	if updating {
		errs = append(errs, immutableChanged(fldPath))
	}
	if len(errs) > 0 {
		return errs
	}
	var oldResource, oldName *string
	if oldRef != nil {
		oldResource, oldName = &oldRef.Resource, &oldRef.Name
	}
	errs = requiredString(ref.Resource, oldResource, fldPath.Child("resource"))
	return append(errs, requiredString(ref.Name, oldName, fldPath.Child("name"))...)
}

func networkPolicyDeclarative(obj, old any) field.ErrorList {
	np := obj.(*api.NetworkPolicy)
	var oldSpec *api.NetworkPolicySpec
	if old != nil {
		oldSpec = &old.(*api.NetworkPolicy).Spec
		if equality.Semantic.DeepEqual(np.Spec, *oldSpec) {
			return nil
		}
	}
	fldPath := field.NewPath("spec")
	var errs field.ErrorList
	if oldSpec == nil || !equality.Semantic.DeepEqual(np.Spec.Ingress, oldSpec.Ingress) {
		for i, rule := range np.Spec.Ingress {
			errs = append(errs, peersDeclarative(rule.From, fldPath.Child("ingress").Index(i).Child("from"))...)
		}
	}
	if oldSpec == nil || !equality.Semantic.DeepEqual(np.Spec.Egress, oldSpec.Egress) {
		for i, rule := range np.Spec.Egress {
			errs = append(errs, peersDeclarative(rule.To, fldPath.Child("egress").Index(i).Child("to"))...)
		}
	}
	return errs
}

// peersDeclarative: an IP block has a CIDR.
func peersDeclarative(peers []api.NetworkPolicyPeer, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, peer := range peers {
		if peer.IPBlock != nil {
			errs = append(errs, requiredString(peer.IPBlock.CIDR, nil, fldPath.Index(i).Child("ipBlock", "cidr"))...)
		}
	}
	return errs
}
