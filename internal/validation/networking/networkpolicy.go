package networking

import (
	apicore "github.com/ssa-diff/ssa-diff/internal/api/core"
	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// networkPolicyOptions relax the rules for what a stored NetworkPolicy already holds.
type networkPolicyOptions struct {
	// strictCIDRs: CIDRs are parsed strictly (gate StrictIPCIDRValidation, on by default
	// from 1.36).
	strictCIDRs bool
	// endPortValue: an end port below the port is reported with its own value; before
	// 1.37, with the port's.
	endPortValue bool
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

// networkPolicyOptionsFor are the options of a write on the server cfg describes, over
// old (nil on a create).
func networkPolicyOptionsFor(cfg *serverconfig.Config, old *api.NetworkPolicy) networkPolicyOptions {
	opts := networkPolicyOptions{
		strictCIDRs: cfg.Enabled(features.StrictIPCIDRValidation),
		// Kubernetes 1.37 changed the value printed (pkg/apis/networking/validation/
		// validation.go ValidateNetworkPolicyPort in 1.34, 1.35, 1.36: port.Port.IntVal).
		endPortValue: cfg.AtLeast(37),
	}
	if old != nil {
		opts.allowInvalidLabelValueInSelector = len(wellformed.ValidateLabelSelector(&old.Spec.PodSelector, metav1validation.LabelSelectorValidationOptions{}, nil)) > 0
	}
	return opts
}

// ValidateNetworkPolicy checks a new NetworkPolicy on the server cfg describes.
func ValidateNetworkPolicy(cfg *serverconfig.Config, np *api.NetworkPolicy) field.ErrorList {
	return validateNetworkPolicy(np, networkPolicyOptionsFor(cfg, nil))
}

func validateNetworkPolicy(np *api.NetworkPolicy, opts networkPolicyOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&np.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateNetworkPolicySpec(&np.Spec, opts, field.NewPath("spec"))...)
}

// ValidateNetworkPolicyUpdate checks an update of a NetworkPolicy on the server cfg
// describes: an invalid label value in the stored pod selector, and any CIDR the stored
// object had, stay accepted.
func ValidateNetworkPolicyUpdate(cfg *serverconfig.Config, np, old *api.NetworkPolicy) field.ErrorList {
	opts := networkPolicyOptionsFor(cfg, old)
	var errs field.ErrorList
	if !cfg.AtLeast(36) {
		// Kubernetes 1.36 changed the strategy's ValidateUpdate to the update checks alone.
		// Before, it ran the create's first, with the stored selector's tolerance but not
		// the stored CIDRs' (pkg/registry/networking/networkpolicy/strategy.go ValidateUpdate
		// in 1.34, 1.35): every spec error is listed twice.
		errs = validateNetworkPolicy(np, opts)
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
	errs = append(errs, core.ValidateObjectMetaUpdate(&np.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	return append(errs, validateNetworkPolicySpec(&np.Spec, opts, field.NewPath("spec"))...)
}

func validateNetworkPolicySpec(spec *api.NetworkPolicySpec, opts networkPolicyOptions, fldPath *field.Path) field.ErrorList {
	selectorOpts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector}
	errs := wellformed.ValidateLabelSelector(&spec.PodSelector, selectorOpts, fldPath.Child("podSelector"))
	for i, rule := range spec.Ingress {
		p := fldPath.Child("ingress").Index(i)
		for j := range rule.Ports {
			errs = append(errs, validateNetworkPolicyPort(&rule.Ports[j], opts, p.Child("ports").Index(j))...)
		}
		for j := range rule.From {
			errs = append(errs, validateNetworkPolicyPeer(&rule.From[j], opts, p.Child("from").Index(j))...)
		}
	}
	for i, rule := range spec.Egress {
		p := fldPath.Child("egress").Index(i)
		for j := range rule.Ports {
			errs = append(errs, validateNetworkPolicyPort(&rule.Ports[j], opts, p.Child("ports").Index(j))...)
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
func validateNetworkPolicyPort(port *api.NetworkPolicyPort, opts networkPolicyOptions, fldPath *field.Path) field.ErrorList {
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
				value := port.Port.IntVal
				if opts.endPortValue {
					value = *port.EndPort
				}
				errs = append(errs, field.Invalid(endPath, value, "must be greater than or equal to `port`"))
			}
			for _, msg := range validation.IsValidPortNum(int(*port.EndPort)) {
				errs = append(errs, field.Invalid(endPath, *port.EndPort, msg))
			}
		}
	default:
		if port.EndPort != nil {
			errs = append(errs, field.Invalid(endPath, *port.EndPort, "may not be specified when `port` is non-numeric"))
		}
		for _, msg := range wellformed.IsValidPortName(port.Port.StrVal) {
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
		errs = append(errs, wellformed.ValidateLabelSelector(peer.PodSelector, selectorOpts, fldPath.Child("podSelector"))...)
	}
	if peer.NamespaceSelector != nil {
		peers++
		errs = append(errs, wellformed.ValidateLabelSelector(peer.NamespaceSelector, selectorOpts, fldPath.Child("namespaceSelector"))...)
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
	errs := validation.IsValidCIDRForLegacyField(fldPath.Child("cidr"), ipb.CIDR, opts.strictCIDRs, opts.storedCIDRs)
	_, cidr, err := netutils.ParseCIDRSloppy(ipb.CIDR)
	if err != nil {
		return errs
	}
	cidrBits, _ := cidr.Mask.Size()
	for i, s := range ipb.Except {
		p := fldPath.Child("except").Index(i)
		errs = append(errs, validation.IsValidCIDRForLegacyField(p, s, opts.strictCIDRs, opts.storedCIDRs)...)
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
