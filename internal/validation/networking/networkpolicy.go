package networking

import (
	apicore "github.com/ssa-diff/ssa-diff/internal/api/core"
	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// strictIPCIDRValidation is the StrictIPCIDRValidation feature gate, on by default in 1.37.
const strictIPCIDRValidation = true

// networkPolicyOptions relax the rules for what a stored NetworkPolicy already holds.
type networkPolicyOptions struct {
	// allowInvalidLabelValueInSelector: the stored pod selector has an invalid label value.
	allowInvalidLabelValueInSelector bool
	// storedCIDRs are the CIDRs of the stored object's IP blocks, accepted as they are.
	storedCIDRs []string
}

// The supported protocols and policy types, in the order the server lists them.
var (
	networkPolicyProtocols = []string{string(apicore.ProtocolTCP), string(apicore.ProtocolUDP), string(apicore.ProtocolSCTP)}
	policyTypes            = []string{string(api.PolicyTypeIngress), string(api.PolicyTypeEgress)}
)

// ValidateNetworkPolicy checks a new NetworkPolicy.
func ValidateNetworkPolicy(np *api.NetworkPolicy) field.ErrorList {
	errs := core.ValidateObjectMeta(&np.ObjectMeta, true, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateNetworkPolicySpec(&np.Spec, networkPolicyOptions{}, field.NewPath("spec"))...)
}

// ValidateNetworkPolicyUpdate checks an update of a NetworkPolicy: an invalid label value
// in the stored pod selector, and any CIDR the stored object had, stay accepted.
func ValidateNetworkPolicyUpdate(np, old *api.NetworkPolicy) field.ErrorList {
	opts := networkPolicyOptions{
		allowInvalidLabelValueInSelector: len(metav1validation.ValidateLabelSelector(&old.Spec.PodSelector, metav1validation.LabelSelectorValidationOptions{}, nil)) > 0,
	}
	each := func(peer api.NetworkPolicyPeer) {
		if peer.IPBlock != nil {
			opts.storedCIDRs = append(opts.storedCIDRs, peer.IPBlock.CIDR)
			opts.storedCIDRs = append(opts.storedCIDRs, peer.IPBlock.Except...)
		}
	}
	for _, rule := range old.Spec.Ingress {
		for _, peer := range rule.From {
			each(peer)
		}
	}
	for _, rule := range old.Spec.Egress {
		for _, peer := range rule.To {
			each(peer)
		}
	}
	errs := core.ValidateObjectMetaUpdate(&np.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateNetworkPolicySpec(&np.Spec, opts, field.NewPath("spec"))...)
}

func validateNetworkPolicySpec(spec *api.NetworkPolicySpec, opts networkPolicyOptions, fldPath *field.Path) field.ErrorList {
	selectorOpts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector}
	errs := metav1validation.ValidateLabelSelector(&spec.PodSelector, selectorOpts, fldPath.Child("podSelector"))
	for i, rule := range spec.Ingress {
		p := fldPath.Child("ingress").Index(i)
		for j := range rule.Ports {
			errs = append(errs, validateNetworkPolicyPort(&rule.Ports[j], p.Child("ports").Index(j))...)
		}
		for j := range rule.From {
			errs = append(errs, validateNetworkPolicyPeer(&rule.From[j], opts, p.Child("from").Index(j))...)
		}
	}
	for i, rule := range spec.Egress {
		p := fldPath.Child("egress").Index(i)
		for j := range rule.Ports {
			errs = append(errs, validateNetworkPolicyPort(&rule.Ports[j], p.Child("ports").Index(j))...)
		}
		for j := range rule.To {
			errs = append(errs, validateNetworkPolicyPeer(&rule.To[j], opts, p.Child("to").Index(j))...)
		}
	}
	if len(spec.PolicyTypes) > len(policyTypes) {
		return append(errs, field.Invalid(fldPath.Child("policyTypes"), &spec.PolicyTypes, "may not specify more than two policyTypes"))
	}
	for i, t := range spec.PolicyTypes {
		if t != api.PolicyTypeIngress && t != api.PolicyTypeEgress {
			errs = append(errs, field.NotSupported(fldPath.Child("policyTypes").Index(i), t, policyTypes))
		}
	}
	return errs
}

// validateNetworkPolicyPort: a known protocol; a numeric port, or a named one; an end port
// only after a numeric port and not below it.
func validateNetworkPolicyPort(port *api.NetworkPolicyPort, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if p := port.Protocol; p != nil && *p != apicore.ProtocolTCP && *p != apicore.ProtocolUDP && *p != apicore.ProtocolSCTP {
		errs = append(errs, field.NotSupported(fldPath.Child("protocol"), *p, networkPolicyProtocols))
	}
	endPath := fldPath.Child("endPort")
	switch {
	case port.Port == nil:
		if port.EndPort != nil {
			errs = append(errs, field.Invalid(endPath, *port.EndPort, "may not be specified when `port` is not specified"))
		}
	case port.Port.Type == intstr.Int:
		for _, msg := range validation.IsValidPortNum(int(port.Port.IntVal)) {
			errs = append(errs, field.Invalid(fldPath.Child("port"), port.Port.IntVal, msg))
		}
		if port.EndPort != nil {
			if *port.EndPort < port.Port.IntVal {
				errs = append(errs, field.Invalid(endPath, *port.EndPort, "must be greater than or equal to `port`"))
			}
			for _, msg := range validation.IsValidPortNum(int(*port.EndPort)) {
				errs = append(errs, field.Invalid(endPath, *port.EndPort, msg))
			}
		}
	default:
		if port.EndPort != nil {
			errs = append(errs, field.Invalid(endPath, *port.EndPort, "may not be specified when `port` is non-numeric"))
		}
		for _, msg := range validation.IsValidPortName(port.Port.StrVal) {
			errs = append(errs, field.Invalid(fldPath.Child("port"), port.Port.StrVal, msg))
		}
	}
	return errs
}

// validateNetworkPolicyPeer: at least one peer, and an IP block alone.
func validateNetworkPolicyPeer(peer *api.NetworkPolicyPeer, opts networkPolicyOptions, fldPath *field.Path) field.ErrorList {
	selectorOpts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector}
	var errs field.ErrorList
	peers := 0
	if peer.PodSelector != nil {
		peers++
		errs = append(errs, metav1validation.ValidateLabelSelector(peer.PodSelector, selectorOpts, fldPath.Child("podSelector"))...)
	}
	if peer.NamespaceSelector != nil {
		peers++
		errs = append(errs, metav1validation.ValidateLabelSelector(peer.NamespaceSelector, selectorOpts, fldPath.Child("namespaceSelector"))...)
	}
	if peer.IPBlock != nil {
		peers++
		errs = append(errs, validateIPBlock(peer.IPBlock, fldPath.Child("ipBlock"), opts)...)
	}
	switch {
	case peers == 0:
		errs = append(errs, field.Required(fldPath, "must specify a peer"))
	case peers > 1 && peer.IPBlock != nil:
		errs = append(errs, field.Forbidden(fldPath, "may not specify both ipBlock and another peer"))
	}
	return errs
}

// validateIPBlock: a CIDR, and exceptions that are strict subsets of it. A CIDR the stored
// object had is accepted even when the strict parser refuses it.
func validateIPBlock(ipb *api.IPBlock, fldPath *field.Path, opts networkPolicyOptions) field.ErrorList {
	if ipb.CIDR == "" {
		return field.ErrorList{field.Required(fldPath.Child("cidr"), "").MarkCoveredByDeclarative()}
	}
	errs := validation.IsValidCIDRForLegacyField(fldPath.Child("cidr"), ipb.CIDR, strictIPCIDRValidation, opts.storedCIDRs)
	_, cidr, err := netutils.ParseCIDRSloppy(ipb.CIDR)
	if err != nil {
		return errs
	}
	cidrBits, _ := cidr.Mask.Size()
	for i, s := range ipb.Except {
		p := fldPath.Child("except").Index(i)
		errs = append(errs, validation.IsValidCIDRForLegacyField(p, s, strictIPCIDRValidation, opts.storedCIDRs)...)
		_, except, err := netutils.ParseCIDRSloppy(s)
		if err != nil {
			continue
		}
		exceptBits, _ := except.Mask.Size()
		if !cidr.Contains(except.IP) || cidrBits >= exceptBits {
			errs = append(errs, field.Invalid(p, s, "must be a strict subset of `cidr`"))
		}
	}
	return errs
}
