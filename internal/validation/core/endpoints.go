package core

import (
	"fmt"
	"slices"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// ValidateEndpointsCreate checks new Endpoints on the server cfg.
func ValidateEndpointsCreate(cfg *serverconfig.Config, ep *api.Endpoints) field.ErrorList {
	return validateEndpoints(cfg, ep, nil)
}

// ValidateEndpointsUpdate checks an update of Endpoints: subsets the update leaves as they
// were are not checked again (older servers accepted what they hold).
func ValidateEndpointsUpdate(cfg *serverconfig.Config, ep, old *api.Endpoints) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&ep.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateEndpoints(cfg, ep, old)...)
}

func validateEndpoints(cfg *serverconfig.Config, ep, old *api.Endpoints) field.ErrorList {
	errs := ValidateObjectMeta(&ep.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	subsetErrs := endpointSubsets(cfg, ep.Subsets, field.NewPath("subsets"))
	if len(subsetErrs) > 0 && old != nil && equality.Semantic.DeepEqual(old.Subsets, ep.Subsets) {
		subsetErrs = nil
	}
	return append(errs, subsetErrs...)
}

func endpointSubsets(cfg *serverconfig.Config, subsets []api.EndpointSubset, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range subsets {
		ss := &subsets[i]
		p := fldPath.Index(i)
		// Ports may be missing (a headless Service), addresses may not.
		if len(ss.Addresses) == 0 && len(ss.NotReadyAddresses) == 0 {
			errs = append(errs, field.Required(p, "must specify `addresses` or `notReadyAddresses`"))
		}
		for j := range ss.Addresses {
			errs = append(errs, endpointAddress(cfg, &ss.Addresses[j], p.Child("addresses").Index(j))...)
		}
		for j := range ss.NotReadyAddresses {
			errs = append(errs, endpointAddress(cfg, &ss.NotReadyAddresses[j], p.Child("notReadyAddresses").Index(j))...)
		}
		for j := range ss.Ports {
			errs = append(errs, endpointPort(&ss.Ports[j], len(ss.Ports) > 1, p.Child("ports").Index(j))...)
		}
	}
	return errs
}

func endpointAddress(cfg *serverconfig.Config, a *api.EndpointAddress, fldPath *field.Path) field.ErrorList {
	errs := IsValidIPForLegacyField(cfg, fldPath.Child("ip"), a.IP, nil)
	if a.Hostname != "" {
		for _, msg := range wellformed.IsDNS1123Label(a.Hostname) {
			errs = append(errs, field.Invalid(fldPath.Child("hostname"), a.Hostname, msg))
		}
	}
	if a.NodeName != nil {
		for _, msg := range wellformed.NameIsDNSSubdomain(*a.NodeName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("nodeName"), *a.NodeName, msg))
		}
	}
	return append(errs, validateEndpointIP(a.IP, fldPath.Child("ip"))...)
}

// validateEndpointIP refuses the addresses an endpoint (or a Service's external IP) cannot
// be: unparsable, unspecified, loopback and link-local ones.
func validateEndpointIP(s string, fldPath *field.Path) field.ErrorList {
	ip := netutils.ParseIPSloppy(s)
	if ip == nil {
		return field.ErrorList{field.Invalid(fldPath, s, "must be a valid IP address")}
	}
	var errs field.ErrorList
	if ip.IsUnspecified() {
		errs = append(errs, field.Invalid(fldPath, s, fmt.Sprintf("may not be unspecified (%v)", s)))
	}
	if ip.IsLoopback() {
		errs = append(errs, field.Invalid(fldPath, s, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
	}
	if ip.IsLinkLocalUnicast() {
		errs = append(errs, field.Invalid(fldPath, s, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
	}
	if ip.IsLinkLocalMulticast() {
		errs = append(errs, field.Invalid(fldPath, s, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
	}
	return errs
}

// endpointPort checks one port; a name is required when there are several.
func endpointPort(p *api.EndpointPort, requireName bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if requireName && p.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	} else if p.Name != "" {
		for _, msg := range wellformed.IsDNS1123Label(p.Name) {
			errs = append(errs, field.Invalid(fldPath.Child("name"), p.Name, msg))
		}
	}
	for _, msg := range validation.IsValidPortNum(int(p.Port)) {
		errs = append(errs, field.Invalid(fldPath.Child("port"), p.Port, msg))
	}
	switch {
	case p.Protocol == "":
		errs = append(errs, field.Required(fldPath.Child("protocol"), ""))
	case !slices.Contains(servicePortProtocols, p.Protocol):
		errs = append(errs, field.NotSupported(fldPath.Child("protocol"), p.Protocol, servicePortProtocols))
	}
	if p.AppProtocol != nil {
		for _, msg := range wellformed.IsQualifiedName(*p.AppProtocol) {
			errs = append(errs, field.Invalid(fldPath.Child("appProtocol"), *p.AppProtocol, msg))
		}
	}
	return errs
}

// endpointsWarnings: addresses written ambiguously, unless the Endpoints controller wrote
// them (it normalizes its addresses).
func endpointsWarnings(cfg *serverconfig.Config, ep *api.Endpoints) []string {
	// Kubernetes 1.32: the Endpoints strategy warns of nothing (1.33.13 added
	// GetWarningsForIP to pkg/registry/core/endpoint/strategy.go).
	if !cfg.AtLeast(33) || ep.Labels["endpoints.kubernetes.io/managed-by"] == "endpoint-controller" {
		return nil
	}
	var ws []string
	for i := range ep.Subsets {
		p := field.NewPath("subsets").Index(i)
		for j, a := range ep.Subsets[i].Addresses {
			ws = append(ws, validation.GetWarningsForIP(p.Child("addresses").Index(j).Child("ip"), a.IP)...)
		}
		for j, a := range ep.Subsets[i].NotReadyAddresses {
			ws = append(ws, validation.GetWarningsForIP(p.Child("notReadyAddresses").Index(j).Child("ip"), a.IP)...)
		}
	}
	return ws
}
