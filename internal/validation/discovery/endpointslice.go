package discovery

import (
	"context"
	"fmt"
	"slices"

	api "github.com/ssa-diff/ssa-diff/internal/api/discovery"
	corev1 "github.com/ssa-diff/ssa-diff/internal/api/external/core/v1"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// Limits of a slice.
const (
	maxTopologyLabels = 16
	maxAddresses      = 100
	maxPorts          = 20000
	maxEndpoints      = 1000
	maxZoneHints      = 8
	maxNodeHints      = 8
)

// zoneLabel is the topology key that conversion moves out of deprecatedTopology.
const zoneLabel = "topology.kubernetes.io/zone"

// The address types and port protocols, in sorted order.
var (
	addressTypes   = sets.New(api.AddressTypeFQDN, api.AddressTypeIPv4, api.AddressTypeIPv6)
	portProtocols  = sets.New[corev1.Protocol]("TCP", "UDP", "SCTP")
	addressTypeAll = sets.List(addressTypes)
	protocolsAll   = sets.List(portProtocols)
)

// ValidateEndpointSlice checks an EndpointSlice written over old (nil on a create).
func ValidateEndpointSlice(cfg *serverconfig.Config, eps, old *api.EndpointSlice) field.ErrorList {
	errs := core.ValidateObjectMeta(&eps.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	switch p := field.NewPath("addressType"); {
	case eps.AddressType == "":
		errs = append(errs, field.Required(p, "").MarkCoveredByDeclarative())
	case !addressTypes.Has(eps.AddressType):
		errs = append(errs, field.NotSupported(p, eps.AddressType, addressTypeAll).MarkCoveredByDeclarative())
	}
	errs = append(errs, validatePorts(eps.Ports, field.NewPath("ports"))...)
	endpointErrs := validateEndpoints(cfg, eps.Endpoints, eps.AddressType, field.NewPath("endpoints"))
	if len(endpointErrs) > 0 && old != nil && equality.Semantic.DeepEqual(old.Endpoints, eps.Endpoints) {
		endpointErrs = nil
	}
	return append(errs, endpointErrs...)
}

// ValidateEndpointSliceUpdate checks an update of an EndpointSlice: its address type
// cannot change (rules.md valid.update).
func ValidateEndpointSliceUpdate(cfg *serverconfig.Config, eps, old *api.EndpointSlice) field.ErrorList {
	errs := ValidateEndpointSlice(cfg, eps, old)
	immutable := apimachineryvalidation.ValidateImmutableField(eps.AddressType, old.AddressType, field.NewPath("addressType"))
	return append(errs, immutable.WithOrigin("immutable").MarkCoveredByDeclarative()...)
}

func validateEndpoints(cfg *serverconfig.Config, endpoints []api.Endpoint, addressType api.AddressType, fldPath *field.Path) field.ErrorList {
	if len(endpoints) > maxEndpoints {
		return field.ErrorList{field.TooMany(fldPath, len(endpoints), maxEndpoints)}
	}
	var errs field.ErrorList
	for i := range endpoints {
		ep := &endpoints[i]
		p := fldPath.Index(i)
		addrPath := p.Child("addresses")
		switch {
		case len(ep.Addresses) == 0:
			errs = append(errs, field.Required(addrPath, "must contain at least 1 address").MarkCoveredByDeclarative())
		case len(ep.Addresses) > maxAddresses:
			errs = append(errs, field.TooMany(addrPath, len(ep.Addresses), maxAddresses).WithOrigin("maxItems").MarkCoveredByDeclarative())
		}
		for j, a := range ep.Addresses {
			errs = append(errs, validateAddress(cfg, a, addressType, addrPath, j)...)
		}
		if ep.NodeName != nil {
			for _, msg := range core.ValidateNodeName(*ep.NodeName, false) {
				errs = append(errs, field.Invalid(p.Child("nodeName"), *ep.NodeName, msg))
			}
		}
		topology := p.Child("deprecatedTopology")
		if len(ep.DeprecatedTopology) > maxTopologyLabels {
			errs = append(errs, field.TooMany(topology, len(ep.DeprecatedTopology), maxTopologyLabels))
		}
		errs = append(errs, wellformed.ValidateLabels(ep.DeprecatedTopology, topology)...)
		if _, ok := ep.DeprecatedTopology[zoneLabel]; ok {
			errs = append(errs, field.InternalError(topology.Key(zoneLabel), fmt.Errorf("reserved key was not removed in conversion")))
		}
		if ep.Hostname != nil {
			errs = append(errs, core.ValidateDNS1123Label(*ep.Hostname, p.Child("hostname"))...)
		}
		if ep.Hints != nil {
			errs = append(errs, validateHints(ep.Hints, p.Child("hints"))...)
		}
	}
	return errs
}

// validateAddress checks the j-th address of an endpoint as the slice's type asks; an
// unknown type checks nothing. The wrong-family errors name the list, not the address.
func validateAddress(cfg *serverconfig.Config, a string, addressType api.AddressType, listPath *field.Path, j int) field.ErrorList {
	p := listPath.Index(j)
	// Kubernetes 1.32 checks an address otherwise (validateAddress132).
	if !cfg.AtLeast(33) {
		return validateAddress132(a, addressType, p)
	}
	switch addressType {
	case api.AddressTypeIPv4:
		if errs := core.IsValidIPForLegacyField(cfg, p, a, nil); len(errs) > 0 {
			return errs
		}
		var errs field.ErrorList
		if !netutils.IsIPv4String(a) {
			errs = append(errs, field.Invalid(listPath, a, "must be an IPv4 address"))
		}
		return append(errs, core.ValidateEndpointIP(a, p)...)
	case api.AddressTypeIPv6:
		if errs := validation.IsValidIP(p, a); len(errs) > 0 {
			return errs
		}
		var errs field.ErrorList
		if !netutils.IsIPv6String(a) {
			errs = append(errs, field.Invalid(listPath, a, "must be an IPv6 address"))
		}
		return append(errs, core.ValidateEndpointIP(a, p)...)
	case api.AddressTypeFQDN:
		return validation.IsFullyQualifiedDomainName(p, a)
	}
	return nil
}

// validateAddress132 is validateAddress as Kubernetes 1.32 checks an address (1.32.13's
// pkg/apis/discovery/validation validateEndpoints): the family's check (IsValidIPv4Address,
// IsValidIPv6Address: "must be a valid IPv4 address" at the address, a parsed address of the
// other family included), then the endpoint IP's (its own "must be a valid IP address"),
// both reported; 1.33 checks the address first and names the list for the wrong family.
func validateAddress132(a string, addressType api.AddressType, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	ip := netutils.ParseIPSloppy(a)
	switch addressType {
	case api.AddressTypeIPv4:
		if ip == nil || ip.To4() == nil {
			errs = append(errs, field.Invalid(p, a, "must be a valid IPv4 address"))
		}
	case api.AddressTypeIPv6:
		if ip == nil || ip.To4() != nil {
			errs = append(errs, field.Invalid(p, a, "must be a valid IPv6 address"))
		}
	case api.AddressTypeFQDN:
		return validation.IsFullyQualifiedDomainName(p, a)
	default:
		return nil
	}
	return append(errs, core.ValidateEndpointIP(a, p)...)
}

func validatePorts(ports []api.EndpointPort, fldPath *field.Path) field.ErrorList {
	if len(ports) > maxPorts {
		return field.ErrorList{field.TooMany(fldPath, len(ports), maxPorts)}
	}
	var errs field.ErrorList
	names := make([]string, 0, len(ports))
	for i, port := range ports {
		p := fldPath.Index(i)
		// Defaulting gives every port a name, empty at least.
		name := ""
		if port.Name != nil {
			name = *port.Name
		}
		if name != "" {
			errs = append(errs, core.ValidateDNS1123Label(name, p.Child("name"))...)
		}
		if slices.Contains(names, name) {
			errs = append(errs, field.Duplicate(p.Child("name"), port.Name))
		} else {
			names = append(names, name)
		}
		switch {
		case port.Protocol == nil:
			errs = append(errs, field.Required(p.Child("protocol"), ""))
		case !portProtocols.Has(*port.Protocol):
			errs = append(errs, field.NotSupported(p.Child("protocol"), *port.Protocol, protocolsAll))
		}
		if port.AppProtocol != nil {
			errs = append(errs, core.ValidateQualifiedName(*port.AppProtocol, p.Child("appProtocol"))...)
		}
	}
	return errs
}

// validateHints: at most 8 zones and 8 nodes, each once, with valid names.
func validateHints(h *api.EndpointHints, fldPath *field.Path) field.ErrorList {
	zones := fldPath.Child("forZones")
	if len(h.ForZones) > maxZoneHints {
		return field.ErrorList{field.TooMany(zones, len(h.ForZones), maxZoneHints)}
	}
	var errs field.ErrorList
	seen := make([]string, 0, len(h.ForZones))
	for i, z := range h.ForZones {
		p := zones.Index(i).Child("name")
		if slices.Contains(seen, z.Name) {
			errs = append(errs, field.Duplicate(p, z.Name))
		} else {
			seen = append(seen, z.Name)
		}
		for _, msg := range wellformed.IsValidLabelValue(z.Name) {
			errs = append(errs, field.Invalid(p, z.Name, msg))
		}
	}
	nodes := fldPath.Child("forNodes")
	if len(h.ForNodes) > maxNodeHints {
		return append(errs, field.TooMany(nodes, len(h.ForNodes), maxNodeHints))
	}
	seen = seen[:0]
	for i, n := range h.ForNodes {
		p := nodes.Index(i).Child("name")
		if slices.Contains(seen, n.Name) {
			errs = append(errs, field.Duplicate(p, n.Name))
		} else {
			seen = append(seen, n.Name)
		}
		for _, msg := range core.ValidateNodeName(n.Name, false) {
			errs = append(errs, field.Invalid(p, n.Name, msg))
		}
	}
	return errs
}

// endpointSliceDeclarative: the beta rules 1.37 enforces: the address type is required,
// immutable and known; each endpoint has 1 to 100 addresses. An update skips what it
// leaves unchanged; a changed endpoint list is checked whole.
func endpointSliceDeclarative(obj, old any) field.ErrorList {
	eps := obj.(*api.EndpointSlice)
	var o *api.EndpointSlice
	if old != nil {
		o = old.(*api.EndpointSlice)
	}
	ctx := context.Background()
	op := operation.Operation{Type: operation.Create}
	if o != nil {
		op.Type = operation.Update
	}
	var errs field.ErrorList
	if o == nil || eps.AddressType != o.AddressType {
		p := field.NewPath("addressType")
		var stop field.ErrorList
		if eps.AddressType == "" {
			stop = append(stop, field.Required(p, "").MarkBeta())
		}
		if o != nil {
			stop = append(stop, field.Invalid(p, nil, "field is immutable").WithOrigin("immutable").MarkBeta())
		}
		errs = append(errs, stop...)
		if len(stop) == 0 {
			errs = append(errs, validate.Enum(ctx, op, p, &eps.AddressType, nil, addressTypes, nil).MarkBeta()...)
		}
	}
	if o == nil || !equality.Semantic.DeepEqual(eps.Endpoints, o.Endpoints) {
		for i, ep := range eps.Endpoints {
			p := field.NewPath("endpoints").Index(i).Child("addresses")
			switch {
			case len(ep.Addresses) == 0:
				errs = append(errs, field.Required(p, "").MarkBeta())
			case len(ep.Addresses) > maxAddresses:
				errs = append(errs, validate.MaxItems(ctx, op, p, ep.Addresses, nil, maxAddresses).MarkBeta()...)
			}
		}
	}
	return errs
}

// managedBy are the controllers whose slices get no address warnings.
var managedBy = map[string]bool{"endpointslice-controller.k8s.io": true, "endpointslicemirroring-controller.k8s.io": true}

// badIPWarnings: addresses written in a non-canonical form, unless a controller wrote the
// slice.
func badIPWarnings(cfg *serverconfig.Config, eps *api.EndpointSlice) []string {
	// Kubernetes 1.32: no address is warned of (1.33.13 added GetWarningsForIP to
	// pkg/registry/discovery/endpointslice/strategy.go).
	if !cfg.AtLeast(33) || managedBy[eps.Labels["endpointslice.kubernetes.io/managed-by"]] {
		return nil
	}
	var warnings []string
	for i, ep := range eps.Endpoints {
		for j, a := range ep.Addresses {
			warnings = append(warnings, validation.GetWarningsForIP(field.NewPath("endpoints").Index(i).Child("addresses").Index(j), a)...)
		}
	}
	return warnings
}

func warningsOnCreate(cfg *serverconfig.Config, obj any) []string {
	eps := obj.(*api.EndpointSlice)
	var warnings []string
	if eps.AddressType == api.AddressTypeFQDN {
		warnings = append(warnings, fmt.Sprintf("%s: FQDN endpoints are deprecated", field.NewPath("spec", "addressType")))
	}
	return append(warnings, badIPWarnings(cfg, eps)...)
}

// Strategy is the validation of a kind of the discovery.k8s.io group as its registry
// strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind != "EndpointSlice" {
		return nil
	}
	return &registry.Strategy{
		Namespaced: true,
		Validate:   func(obj any) field.ErrorList { return ValidateEndpointSlice(cfg, obj.(*api.EndpointSlice), nil) },
		ValidateUpdate: func(obj, old any) field.ErrorList {
			return ValidateEndpointSliceUpdate(cfg, obj.(*api.EndpointSlice), old.(*api.EndpointSlice))
		},
		Declarative:      endpointSliceDeclarative,
		WarningsOnCreate: func(obj any) []string { return warningsOnCreate(cfg, obj) },
		WarningsOnUpdate: func(obj, _ any) []string { return badIPWarnings(cfg, obj.(*api.EndpointSlice)) },
	}
}
