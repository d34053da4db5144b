package networking

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ingressWarningsOnCreate: the class annotation is deprecated in favour of
// spec.ingressClassName.
func ingressWarningsOnCreate(obj any) []string {
	ing := obj.(*api.Ingress)
	if _, ok := ing.Annotations[ingressClassAnnotation]; ok && ing.Spec.IngressClassName == nil {
		return []string{fmt.Sprintf("annotation %q is deprecated, please use 'spec.ingressClassName' instead", ingressClassAnnotation)}
	}
	return nil
}

// ingressStatusWarnings: load balancer addresses written in a non-canonical form.
func ingressStatusWarnings(cfg *serverconfig.Config, obj any) []string {
	// Kubernetes 1.32: the Ingress status strategy warns of nothing (1.33.13 added
	// GetWarningsForIP to pkg/registry/networking/ingress/strategy.go).
	if !cfg.AtLeast(33) {
		return nil
	}
	ing := obj.(*api.Ingress)
	var warnings []string
	fldPath := field.NewPath("status", "loadBalancer", "ingress")
	for i, in := range ing.Status.LoadBalancer.Ingress {
		if in.IP != "" {
			warnings = append(warnings, validation.GetWarningsForIP(fldPath.Index(i), in.IP)...)
		}
	}
	return warnings
}

// networkPolicyWarnings: IP block CIDRs written in a non-canonical form.
func networkPolicyWarnings(cfg *serverconfig.Config, np *api.NetworkPolicy) []string {
	// Kubernetes 1.32: the NetworkPolicy strategy warns of nothing (1.33.13 added
	// GetWarningsForCIDR to pkg/registry/networking/networkpolicy/strategy.go).
	if !cfg.AtLeast(33) {
		return nil
	}
	var warnings []string
	block := func(ipb *api.IPBlock, fldPath *field.Path) {
		if ipb == nil {
			return
		}
		warnings = append(warnings, validation.GetWarningsForCIDR(fldPath.Child("cidr"), ipb.CIDR)...)
		for k, e := range ipb.Except {
			warnings = append(warnings, validation.GetWarningsForCIDR(fldPath.Child("except").Index(k), e)...)
		}
	}
	spec := field.NewPath("spec")
	for i, rule := range np.Spec.Ingress {
		for j := range rule.From {
			block(rule.From[j].IPBlock, spec.Child("ingress").Index(i).Child("from").Index(j).Child("ipBlock"))
		}
	}
	for i, rule := range np.Spec.Egress {
		for j := range rule.To {
			block(rule.To[j].IPBlock, spec.Child("egress").Index(i).Child("to").Index(j).Child("ipBlock"))
		}
	}
	return warnings
}
