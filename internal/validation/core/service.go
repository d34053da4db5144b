package core

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// The values the server accepts, each list in the order its error message prints it
// (sorted, as the server's sets print them).
var (
	servicePortProtocols    = []api.Protocol{api.ProtocolSCTP, api.ProtocolTCP, api.ProtocolUDP}
	serviceAffinities       = []api.ServiceAffinity{api.ServiceAffinityClientIP, api.ServiceAffinityNone}
	serviceTypes            = []api.ServiceType{api.ServiceTypeClusterIP, api.ServiceTypeExternalName, api.ServiceTypeLoadBalancer, api.ServiceTypeNodePort}
	serviceExternalPolicies = []api.ServiceExternalTrafficPolicy{api.ServiceExternalTrafficPolicyCluster, api.ServiceExternalTrafficPolicyLocal}
	serviceInternalPolicies = []api.ServiceInternalTrafficPolicy{api.ServiceInternalTrafficPolicyCluster, api.ServiceInternalTrafficPolicyLocal}
	serviceIPFamilies       = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}
	serviceIPFamilyPolicies = []api.IPFamilyPolicy{api.IPFamilyPolicyPreferDualStack, api.IPFamilyPolicyRequireDualStack, api.IPFamilyPolicySingleStack}
	loadBalancerIPModes     = []api.LoadBalancerIPMode{api.LoadBalancerIPModeProxy, api.LoadBalancerIPModeVIP}
	// serviceTrafficDistributions are the distributions known with
	// PreferSameTrafficDistribution on (every supported minor; GA and locked from 1.36),
	// preferClose the one without it.
	serviceTrafficDistributions = []string{
		api.ServiceTrafficDistributionPreferClose,
		api.ServiceTrafficDistributionPreferSameZone,
		api.ServiceTrafficDistributionPreferSameNode,
	}
	preferCloseTrafficDistribution = []string{api.ServiceTrafficDistributionPreferClose}
)

// ValidateServiceCreate checks a new Service on the server cfg. Its name is a DNS-1123
// label with RelaxedServiceNameValidation on (1.36 on: digits may lead), a DNS-1035 label
// without it (rules.md valid.metadata).
func ValidateServiceCreate(cfg *serverconfig.Config, svc *api.Service) field.ErrorList {
	name := apimachineryvalidation.NameIsDNS1035Label
	if cfg.Enabled(features.RelaxedServiceNameValidation) {
		name = wellformed.NameIsDNSLabel
	}
	errs := ValidateObjectMeta(&svc.ObjectMeta, true, name, field.NewPath("metadata"))
	return append(errs, validateService(cfg, svc, nil)...)
}

// ValidateServiceUpdate checks an update of a Service through the main resource: the
// cluster IPs and IP families may grow to dual-stack or shrink from it but their first
// value never changes (rules.md valid.update), nor does a load balancer's class or, while it needs
// one, its health-check node port.
func ValidateServiceUpdate(cfg *serverconfig.Config, svc, old *api.Service) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&svc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, clusterIPsUpdate(old, svc)...)
	errs = append(errs, ipFamiliesUpdate(old, svc)...)
	errs = append(errs, loadBalancerClass(old, svc)...)
	if needsHealthCheck(old) && needsHealthCheck(svc) && svc.Spec.HealthCheckNodePort != old.Spec.HealthCheckNodePort {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "healthCheckNodePort"), "field is immutable"))
	}
	return append(errs, validateService(cfg, svc, old)...)
}

// ValidateServiceStatusUpdate checks an update of a Service through /status: its load
// balancer's ingress points.
func ValidateServiceStatusUpdate(cfg *serverconfig.Config, svc, old *api.Service) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&svc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateLoadBalancerStatus(cfg, &svc.Status.LoadBalancer, &old.Status.LoadBalancer, field.NewPath("status", "loadBalancer"), &svc.Spec)...)
}

// isHeadless: the only cluster IP is "None".
func isHeadless(svc *api.Service) bool {
	return svc != nil && len(svc.Spec.ClusterIPs) == 1 && svc.Spec.ClusterIPs[0] == api.ClusterIPNone
}

// externallyAccessible: node ports, a load balancer or external IPs reach the Service from
// outside the cluster.
func externallyAccessible(svc *api.Service) bool {
	switch svc.Spec.Type {
	case api.ServiceTypeLoadBalancer, api.ServiceTypeNodePort:
		return true
	case api.ServiceTypeClusterIP:
		return len(svc.Spec.ExternalIPs) > 0
	}
	return false
}

// needsHealthCheck: a load balancer that keeps traffic on the local node.
func needsHealthCheck(svc *api.Service) bool {
	return svc.Spec.Type == api.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == api.ServiceExternalTrafficPolicyLocal
}

// validateService is what a create and an update share; old is nil on a create.
func validateService(cfg *serverconfig.Config, svc, old *api.Service) field.ErrorList {
	var errs field.ErrorList
	spec := &svc.Spec
	specPath := field.NewPath("spec")

	// The topology-mode annotation and its deprecated spelling must agree.
	mode, modeSet := svc.Annotations[api.AnnotationTopologyMode]
	hints, hintsSet := svc.Annotations[api.DeprecatedAnnotationTopologyAwareHints]
	if modeSet && hintsSet && mode != hints {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "annotations").Key(api.AnnotationTopologyMode), mode,
			fmt.Sprintf("must match annotations[%s] when both are specified", api.DeprecatedAnnotationTopologyAwareHints)))
	}

	headless := isHeadless(svc)
	if len(spec.Ports) == 0 && !headless && spec.Type != api.ServiceTypeExternalName {
		errs = append(errs, field.Required(specPath.Child("ports"), ""))
	}
	switch spec.Type {
	case api.ServiceTypeLoadBalancer, api.ServiceTypeNodePort:
		if headless {
			errs = append(errs, field.Invalid(specPath.Child("clusterIPs").Index(0), spec.ClusterIPs[0],
				fmt.Sprintf("may not be set to 'None' for %s services", spec.Type)))
		}
	case api.ServiceTypeExternalName:
		const detail = "may not be set for ExternalName services"
		if len(spec.ClusterIPs) > 0 {
			errs = append(errs, field.Forbidden(specPath.Child("clusterIPs"), detail))
		}
		if len(spec.IPFamilies) > 0 {
			errs = append(errs, field.Forbidden(specPath.Child("ipFamilies"), detail))
		}
		if spec.IPFamilyPolicy != nil {
			errs = append(errs, field.Forbidden(specPath.Child("ipFamilyPolicy"), detail))
		}
		// A fully qualified name may end with a dot.
		if name := strings.TrimSuffix(spec.ExternalName, "."); name != "" {
			for _, msg := range wellformed.IsDNS1123Subdomain(name) {
				errs = append(errs, field.Invalid(specPath.Child("externalName"), name, msg))
			}
		} else {
			errs = append(errs, field.Required(specPath.Child("externalName"), ""))
		}
	}

	names := map[string]bool{}
	for i := range spec.Ports {
		errs = append(errs, validateServicePort(&spec.Ports[i], len(spec.Ports) > 1, names, specPath.Child("ports").Index(i))...)
	}

	if spec.Selector != nil {
		errs = append(errs, wellformed.ValidateLabels(spec.Selector, specPath.Child("selector"))...)
	}

	switch {
	case spec.SessionAffinity == "":
		errs = append(errs, field.Required(specPath.Child("sessionAffinity"), ""))
	case !slices.Contains(serviceAffinities, spec.SessionAffinity):
		errs = append(errs, field.NotSupported(specPath.Child("sessionAffinity"), spec.SessionAffinity, serviceAffinities))
	}
	switch spec.SessionAffinity {
	case api.ServiceAffinityClientIP:
		errs = append(errs, clientIPAffinity(spec.SessionAffinityConfig, specPath.Child("sessionAffinityConfig"))...)
	case api.ServiceAffinityNone:
		if spec.SessionAffinityConfig != nil {
			errs = append(errs, field.Forbidden(specPath.Child("sessionAffinityConfig"),
				fmt.Sprintf("must not be set when session affinity is %s", api.ServiceAffinityNone)))
		}
	}

	errs = append(errs, ValidateServiceClusterIPsRelatedFields(cfg, svc, old)...)

	// New external IPs must be valid and usable; those already stored stay accepted.
	var storedExternalIPs []string
	if old != nil {
		storedExternalIPs = old.Spec.ExternalIPs
	}
	for i, ip := range spec.ExternalIPs {
		p := specPath.Child("externalIPs").Index(i)
		if e := IsValidIPForLegacyField(cfg, p, ip, storedExternalIPs); len(e) > 0 {
			errs = append(errs, e...)
		} else {
			errs = append(errs, validateEndpointIP(ip, p)...)
		}
	}

	switch {
	case spec.Type == "":
		errs = append(errs, field.Required(specPath.Child("type"), ""))
	case !slices.Contains(serviceTypes, spec.Type):
		errs = append(errs, field.NotSupported(specPath.Child("type"), spec.Type, serviceTypes))
	}

	if spec.Type == api.ServiceTypeClusterIP {
		for i := range spec.Ports {
			if spec.Ports[i].NodePort != 0 {
				errs = append(errs, field.Forbidden(specPath.Child("ports").Index(i).Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
			}
		}
	}

	// A node port may serve each protocol once; a port number too.
	type protoPort struct {
		proto api.Protocol
		port  int32
	}
	nodePorts := map[protoPort]bool{}
	for i := range spec.Ports {
		p := &spec.Ports[i]
		if p.NodePort == 0 {
			continue
		}
		k := protoPort{p.Protocol, p.NodePort}
		if nodePorts[k] {
			errs = append(errs, field.Duplicate(specPath.Child("ports").Index(i).Child("nodePort"), p.NodePort))
		}
		nodePorts[k] = true
	}
	ports := map[protoPort]bool{}
	for i := range spec.Ports {
		p := &spec.Ports[i]
		k := protoPort{p.Protocol, p.Port}
		if ports[k] {
			// The server prints the key as a ServicePort holding only these two fields.
			errs = append(errs, field.Duplicate(specPath.Child("ports").Index(i), api.ServicePort{Protocol: p.Protocol, Port: p.Port}))
		}
		ports[k] = true
	}

	errs = append(errs, sourceRanges(cfg, svc, old)...)

	if spec.AllocateLoadBalancerNodePorts != nil && spec.Type != api.ServiceTypeLoadBalancer {
		errs = append(errs, field.Forbidden(specPath.Child("allocateLoadBalancerNodePorts"), "may only be used when `type` is 'LoadBalancer'"))
	}
	if spec.Type == api.ServiceTypeLoadBalancer && spec.AllocateLoadBalancerNodePorts == nil {
		// The server names this field without its "spec." prefix.
		errs = append(errs, field.Required(field.NewPath("allocateLoadBalancerNodePorts"), ""))
	}

	errs = append(errs, loadBalancerClass(nil, svc)...)
	errs = append(errs, externalTrafficPolicy(svc)...)
	errs = append(errs, internalTrafficPolicy(svc)...)
	distributions := serviceTrafficDistributions
	if !cfg.Enabled(features.PreferSameTrafficDistribution) {
		distributions = preferCloseTrafficDistribution
	}
	if td := spec.TrafficDistribution; td != nil && !slices.Contains(distributions, *td) {
		errs = append(errs, field.NotSupported(specPath.Child("trafficDistribution"), *td, distributions))
	}
	return errs
}

// validateServicePort checks one port; a name is required when there are several.
func validateServicePort(p *api.ServicePort, requireName bool, names map[string]bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case requireName && p.Name == "":
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	case p.Name != "":
		for _, msg := range wellformed.IsDNS1123Label(p.Name) {
			errs = append(errs, field.Invalid(fldPath.Child("name"), p.Name, msg))
		}
		if names[p.Name] {
			errs = append(errs, field.Duplicate(fldPath.Child("name"), p.Name))
		}
		names[p.Name] = true
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
	errs = append(errs, portNumOrName(p.TargetPort, fldPath.Child("targetPort"))...)
	if p.AppProtocol != nil {
		for _, msg := range wellformed.IsQualifiedName(*p.AppProtocol) {
			errs = append(errs, field.Invalid(fldPath.Child("appProtocol"), *p.AppProtocol, msg))
		}
	}
	// A headless Service's target ports are not checked: v1 has always accepted any.
	return errs
}

// portNumOrName checks a port given by number (1-65535) or by name (an IANA service name).
func portNumOrName(port intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch port.Type {
	case intstr.Int:
		for _, msg := range validation.IsValidPortNum(port.IntValue()) {
			errs = append(errs, field.Invalid(fldPath, port.IntValue(), msg))
		}
	case intstr.String:
		for _, msg := range wellformed.IsValidPortName(port.StrVal) {
			errs = append(errs, field.Invalid(fldPath, port.StrVal, msg))
		}
	default:
		errs = append(errs, field.InternalError(fldPath, fmt.Errorf("unknown type: %v", port.Type)))
	}
	return errs
}

// clientIPAffinity checks the configuration ClientIP session affinity needs: a timeout
// of at most a day.
func clientIPAffinity(cfg *api.SessionAffinityConfig, fldPath *field.Path) field.ErrorList {
	detail := fmt.Sprintf("when session affinity type is %s", api.ServiceAffinityClientIP)
	switch {
	case cfg == nil:
		return field.ErrorList{field.Required(fldPath, detail)}
	case cfg.ClientIP == nil:
		return field.ErrorList{field.Required(fldPath.Child("clientIP"), detail)}
	case cfg.ClientIP.TimeoutSeconds == nil:
		return field.ErrorList{field.Required(fldPath.Child("clientIP").Child("timeoutSeconds"), detail)}
	}
	if t := cfg.ClientIP.TimeoutSeconds; *t <= 0 || *t > api.MaxClientIPServiceAffinitySeconds {
		return field.ErrorList{field.Invalid(fldPath.Child("clientIP").Child("timeoutSeconds"), t,
			fmt.Sprintf("must be greater than 0 and less than %d", api.MaxClientIPServiceAffinitySeconds))}
	}
	return nil
}

// ValidateServiceClusterIPsRelatedFields checks clusterIP, clusterIPs, ipFamilies and
// ipFamilyPolicy together (old is nil on a create). The Service storage runs it too,
// before it allocates, so it is exported for the engine.
func ValidateServiceClusterIPsRelatedFields(cfg *serverconfig.Config, svc, old *api.Service) field.ErrorList {
	spec := &svc.Spec
	if spec.Type == api.ServiceTypeExternalName {
		return nil // checked with the type: all must be unset
	}
	var errs field.ErrorList
	ipsPath := field.NewPath("spec", "clusterIPs")
	familiesPath := field.NewPath("spec", "ipFamilies")

	// clusterIP is the first of clusterIPs; without it there are none.
	if spec.ClusterIP != "" {
		if len(spec.ClusterIPs) == 0 {
			errs = append(errs, field.Required(ipsPath, ""))
		} else if spec.ClusterIPs[0] != spec.ClusterIP {
			errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "first value must match `clusterIP`"))
		}
	} else if len(spec.ClusterIPs) != 0 {
		errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "must be empty when `clusterIP` is not specified"))
	}

	seen := map[api.IPFamily]bool{}
	for i, fam := range spec.IPFamilies {
		if !slices.Contains(serviceIPFamilies, fam) {
			errs = append(errs, field.NotSupported(familiesPath.Index(i), fam, serviceIPFamilies))
		}
		if seen[fam] {
			errs = append(errs, field.Duplicate(familiesPath.Index(i), fam))
		}
		seen[fam] = true
	}

	// An unset policy is fine: the allocator sets it.
	if p := spec.IPFamilyPolicy; p != nil && !slices.Contains(serviceIPFamilyPolicies, *p) {
		errs = append(errs, field.NotSupported(field.NewPath("spec", "ipFamilyPolicy"), p, serviceIPFamilyPolicies))
	}

	var storedIPs []string
	if old != nil {
		storedIPs = old.Spec.ClusterIPs
	}
	badIPs := false
	for i, ip := range spec.ClusterIPs {
		if i == 0 && ip == api.ClusterIPNone {
			if len(spec.ClusterIPs) > 1 {
				badIPs = true
				errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "'None' must be the first and only value"))
			}
			continue
		}
		e := IsValidIPForLegacyField(cfg, ipsPath.Index(i), ip, storedIPs)
		badIPs = badIPs || len(e) > 0
		errs = append(errs, e...)
	}
	if len(spec.ClusterIPs) > 2 {
		errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "may only hold up to 2 values"))
	}
	// The checks below would only repeat what is wrong with bad addresses.
	if badIPs {
		return errs
	}

	if len(spec.ClusterIPs) > 1 {
		dual, err := netutils.IsDualStackIPStrings(spec.ClusterIPs)
		if err != nil {
			errs = append(errs, field.InternalError(ipsPath, fmt.Errorf("failed to check for dual stack with error:%v", err)))
		}
		if !dual {
			errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "may specify no more than one IP for each IP family"))
		}
	}

	// Each cluster IP belongs to the family at its index.
	if !isHeadless(svc) && len(spec.ClusterIPs) > 0 && len(spec.IPFamilies) > 0 {
		for i, ip := range spec.ClusterIPs {
			if i >= len(spec.IPFamilies) {
				break
			}
			v6 := netutils.IsIPv6String(ip)
			if spec.IPFamilies[i] == api.IPv4Protocol && v6 {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an IPv4 value as indicated by `ipFamilies[%v]`", i)))
			}
			if spec.IPFamilies[i] == api.IPv6Protocol && !v6 {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an IPv6 value as indicated by `ipFamilies[%v]`", i)))
			}
		}
	}
	return errs
}

// clusterIPsUpdate: an update may add a second cluster IP or release it (with the
// SingleStack policy), never change or drop the first; ExternalName and headless Services
// on both sides are exempt.
func clusterIPsUpdate(old, svc *api.Service) field.ErrorList {
	if svc.Spec.Type == api.ServiceTypeExternalName || old.Spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	if isHeadless(old) && isHeadless(svc) {
		return nil
	}
	var errs field.ErrorList
	ips, oldIPs := svc.Spec.ClusterIPs, old.Spec.ClusterIPs
	first := field.NewPath("spec", "clusterIPs").Index(0)
	const changed = "may not change once set"
	switch {
	case len(oldIPs) == len(ips):
		for i, ip := range oldIPs {
			if ip != ips[i] {
				// The server names the entry that changed but prints the whole list.
				errs = append(errs, field.Invalid(field.NewPath("spec", "clusterIPs").Index(i), ips, changed))
			}
		}
	case len(oldIPs) > len(ips):
		if len(ips) == 0 {
			errs = append(errs, field.Invalid(first, ips, "primary clusterIP can not be unset"))
		}
		if len(oldIPs) > 0 && len(ips) > 0 && ips[0] != oldIPs[0] {
			errs = append(errs, field.Invalid(first, ips, changed))
		}
		if len(ips) == 1 && !isSingleStack(svc) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "ipFamilyPolicy"), svc.Spec.IPFamilyPolicy, "must be set to 'SingleStack' when releasing the secondary clusterIP"))
		}
	default:
		if len(oldIPs) > 0 && ips[0] != oldIPs[0] {
			errs = append(errs, field.Invalid(first, ips, changed))
		}
	}
	return errs
}

// ipFamiliesUpdate is clusterIPsUpdate for the IP families; a Service that becomes or
// stops being headless, or stays headless, is exempt.
func ipFamiliesUpdate(old, svc *api.Service) field.ErrorList {
	if svc.Spec.Type == api.ServiceTypeExternalName || old.Spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	if isHeadless(svc) || isHeadless(old) {
		return nil
	}
	var errs field.ErrorList
	fams, oldFams := svc.Spec.IPFamilies, old.Spec.IPFamilies
	first := field.NewPath("spec", "ipFamilies").Index(0)
	const changed = "may not change once set"
	switch {
	case len(oldFams) == len(fams):
		for i, f := range oldFams {
			if f != fams[i] {
				// Always reported at the first entry.
				errs = append(errs, field.Invalid(first, fams, changed))
			}
		}
	case len(oldFams) > len(fams):
		// The server tests the cluster IPs here, not the families.
		if len(svc.Spec.ClusterIPs) == 0 {
			errs = append(errs, field.Invalid(first, fams, "primary ipFamily can not be unset"))
		}
		if len(fams) > 0 && fams[0] != oldFams[0] {
			// The value printed is the cluster IPs, as the server prints it.
			errs = append(errs, field.Invalid(first, svc.Spec.ClusterIPs, changed))
		}
		if len(fams) == 1 && !isSingleStack(svc) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "ipFamilyPolicy"), svc.Spec.IPFamilyPolicy, "must be set to 'SingleStack' when releasing the secondary ipFamily"))
		}
	default:
		if len(oldFams) > 0 && len(fams) > 0 && fams[0] != oldFams[0] {
			errs = append(errs, field.Invalid(first, svc.Spec.ClusterIPs, changed))
		}
	}
	return errs
}

func isSingleStack(svc *api.Service) bool {
	return svc.Spec.IPFamilyPolicy != nil && *svc.Spec.IPFamilyPolicy == api.IPFamilyPolicySingleStack
}

// loadBalancerClass: only a load balancer has a class, a qualified name that an update
// keeps (old is nil on a create).
func loadBalancerClass(old, svc *api.Service) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("spec", "loadBalancerClass")
	lb := svc.Spec.Type == api.ServiceTypeLoadBalancer
	if old != nil && lb && old.Spec.Type == api.ServiceTypeLoadBalancer && !sameClass(old.Spec.LoadBalancerClass, svc.Spec.LoadBalancerClass) {
		errs = append(errs, field.Invalid(p, svc.Spec.LoadBalancerClass, "may not change once set"))
	}
	switch {
	case lb && svc.Spec.LoadBalancerClass != nil:
		for _, msg := range wellformed.IsQualifiedName(*svc.Spec.LoadBalancerClass) {
			errs = append(errs, field.Invalid(p, *svc.Spec.LoadBalancerClass, msg))
		}
	case !lb && svc.Spec.LoadBalancerClass != nil:
		errs = append(errs, field.Forbidden(p, "may only be used when `type` is 'LoadBalancer'"))
	}
	return errs
}

func sameClass(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// sourceRanges checks loadBalancerSourceRanges, or the older annotation when the field is
// empty: for load balancers only; CIDRs that were stored already stay accepted, and
// surrounding spaces are tolerated.
func sourceRanges(cfg *serverconfig.Config, svc, old *api.Service) field.ErrorList {
	var errs field.ErrorList
	lb := svc.Spec.Type == api.ServiceTypeLoadBalancer
	const lbOnly = "may only be used when `type` is 'LoadBalancer'"
	if len(svc.Spec.LoadBalancerSourceRanges) > 0 {
		// The server names the field with a capital L.
		p := field.NewPath("spec", "LoadBalancerSourceRanges")
		if !lb {
			errs = append(errs, field.Forbidden(p, lbOnly))
		}
		var stored []string
		if old != nil {
			stored = make([]string, len(old.Spec.LoadBalancerSourceRanges))
			for i, v := range old.Spec.LoadBalancerSourceRanges {
				stored[i] = strings.TrimSpace(v)
			}
		}
		for i, v := range svc.Spec.LoadBalancerSourceRanges {
			errs = append(errs, IsValidCIDRForLegacyField(cfg, p.Index(i), strings.TrimSpace(v), stored)...)
		}
		return errs
	}
	val, set := svc.Annotations[api.AnnotationLoadBalancerSourceRangesKey]
	if !set {
		return nil
	}
	p := field.NewPath("metadata", "annotations").Key(api.AnnotationLoadBalancerSourceRangesKey)
	if !lb {
		errs = append(errs, field.Forbidden(p, lbOnly))
	}
	if old == nil || old.Annotations[api.AnnotationLoadBalancerSourceRangesKey] != val {
		if val = strings.TrimSpace(val); val != "" {
			for _, v := range strings.Split(val, ",") {
				errs = append(errs, IsValidCIDRForLegacyField(cfg, p, strings.TrimSpace(v), nil)...)
			}
		}
	}
	return errs
}

// externalTrafficPolicy: set exactly when the Service is reachable from outside, and a
// health-check node port exactly when a load balancer keeps traffic local.
func externalTrafficPolicy(svc *api.Service) field.ErrorList {
	var errs field.ErrorList
	spec := &svc.Spec
	p := field.NewPath("spec")
	if !externallyAccessible(svc) {
		if spec.ExternalTrafficPolicy != "" {
			errs = append(errs, field.Invalid(p.Child("externalTrafficPolicy"), spec.ExternalTrafficPolicy, "may only be set for externally-accessible services"))
		}
	} else if spec.ExternalTrafficPolicy == "" {
		errs = append(errs, field.Required(p.Child("externalTrafficPolicy"), ""))
	} else if !slices.Contains(serviceExternalPolicies, spec.ExternalTrafficPolicy) {
		errs = append(errs, field.NotSupported(p.Child("externalTrafficPolicy"), spec.ExternalTrafficPolicy, serviceExternalPolicies))
	}
	hc := p.Child("healthCheckNodePort")
	if !needsHealthCheck(svc) {
		if spec.HealthCheckNodePort != 0 {
			errs = append(errs, field.Invalid(hc, spec.HealthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
		}
	} else if spec.HealthCheckNodePort == 0 {
		errs = append(errs, field.Required(hc, ""))
	} else {
		for _, msg := range validation.IsValidPortNum(int(spec.HealthCheckNodePort)) {
			errs = append(errs, field.Invalid(hc, spec.HealthCheckNodePort, msg))
		}
	}
	return errs
}

// internalTrafficPolicy is required for the types with a cluster IP (the others may still
// carry it: the server never refused that), and Cluster or Local when set.
func internalTrafficPolicy(svc *api.Service) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("spec").Child("internalTrafficPolicy")
	itp := svc.Spec.InternalTrafficPolicy
	if itp == nil {
		switch svc.Spec.Type {
		case api.ServiceTypeNodePort, api.ServiceTypeLoadBalancer, api.ServiceTypeClusterIP:
			errs = append(errs, field.Required(p, ""))
		}
		return errs
	}
	if !slices.Contains(serviceInternalPolicies, *itp) {
		errs = append(errs, field.NotSupported(p, *itp, serviceInternalPolicies))
	}
	return errs
}

// validateLoadBalancerStatus checks the ingress points of a load balancer's status (only
// a load balancer has them); addresses already stored stay accepted.
func validateLoadBalancerStatus(cfg *serverconfig.Config, st, old *api.LoadBalancerStatus, fldPath *field.Path, spec *api.ServiceSpec) field.ErrorList {
	ingressPath := fldPath.Child("ingress")
	if spec.Type != api.ServiceTypeLoadBalancer && len(st.Ingress) != 0 {
		return field.ErrorList{field.Forbidden(ingressPath, "may only be used when `spec.type` is 'LoadBalancer'")}
	}
	var errs field.ErrorList
	var storedIPs []string
	if old != nil {
		storedIPs = make([]string, 0, len(old.Ingress))
		for _, in := range old.Ingress {
			if in.IP != "" {
				storedIPs = append(storedIPs, in.IP)
			}
		}
	}
	for i, in := range st.Ingress {
		p := ingressPath.Index(i)
		if in.IP != "" {
			errs = append(errs, IsValidIPForLegacyField(cfg, p.Child("ip"), in.IP, storedIPs)...)
		}
		switch {
		case in.IPMode == nil:
			if in.IP != "" {
				errs = append(errs, field.Required(p.Child("ipMode"), "must be specified when `ip` is set"))
			}
		case in.IP == "":
			errs = append(errs, field.Forbidden(p.Child("ipMode"), "may not be specified when `ip` is not set"))
		case !slices.Contains(loadBalancerIPModes, *in.IPMode):
			errs = append(errs, field.NotSupported(p.Child("ipMode"), in.IPMode, loadBalancerIPModes))
		}
		if in.Hostname != "" {
			for _, msg := range wellformed.IsDNS1123Subdomain(in.Hostname) {
				errs = append(errs, field.Invalid(p.Child("hostname"), in.Hostname, msg))
			}
			if netutils.ParseIPSloppy(in.Hostname) != nil {
				errs = append(errs, field.Invalid(p.Child("hostname"), in.Hostname, "must be a DNS name, not an IP address"))
			}
		}
	}
	return errs
}

// serviceWarnings are the warnings of a create or an update of a Service on the server
// cfg (old is nil on a create): deprecated or ignored settings, and addresses or ranges
// written in ways that parse ambiguously (pkg/api/service/warnings.go).
func serviceWarnings(cfg *serverconfig.Config, svc, old *api.Service) []string {
	var ws []string
	spec := &svc.Spec
	specPath := field.NewPath("spec")
	if _, ok := svc.Annotations[api.DeprecatedAnnotationTopologyAwareHints]; ok {
		ws = append(ws, fmt.Sprintf("annotation %s is deprecated, please use %s instead", api.DeprecatedAnnotationTopologyAwareHints, api.AnnotationTopologyMode))
	}
	if spec.ClusterIP != "" && spec.ClusterIP != api.ClusterIPNone {
		for i, ip := range spec.ClusterIPs {
			ws = append(ws, serviceIPWarnings(cfg, specPath.Child("clusterIPs").Index(i), ip)...)
		}
	}
	// Headless here means a ClusterIP Service whose clusterIP is None.
	headless := spec.Type == api.ServiceTypeClusterIP && spec.ClusterIP == api.ClusterIPNone
	if headless {
		if spec.LoadBalancerIP != "" {
			ws = append(ws, "spec.loadBalancerIP is ignored for headless services")
		}
		if len(spec.ExternalIPs) > 0 {
			ws = append(ws, "spec.externalIPs is ignored for headless services")
		}
		if spec.SessionAffinity != api.ServiceAffinityNone {
			ws = append(ws, "spec.SessionAffinity is ignored for headless services")
		}
	}
	for i, ip := range spec.ExternalIPs {
		ws = append(ws, serviceIPWarnings(cfg, specPath.Child("externalIPs").Index(i), ip)...)
	}
	// Kubernetes 1.36 deprecated externalIPs (pkg/api/service/warnings.go, v1.36.3:60-63).
	if cfg.AtLeast(36) && len(spec.ExternalIPs) > 0 && !headless && spec.Type != api.ServiceTypeExternalName {
		ws = append(ws, "spec.externalIPs is deprecated and may no longer be implemented in some clusters")
	}
	if spec.LoadBalancerIP != "" {
		ws = append(ws, serviceIPWarnings(cfg, specPath.Child("loadBalancerIP"), spec.LoadBalancerIP)...)
	}
	for i, cidr := range spec.LoadBalancerSourceRanges {
		ws = append(ws, serviceCIDRWarnings(cfg, specPath.Child("loadBalancerSourceRanges").Index(i), cidr)...)
	}
	if spec.Type == api.ServiceTypeExternalName && len(spec.ExternalIPs) > 0 {
		ws = append(ws, fmt.Sprintf("spec.externalIPs is ignored when spec.type is %q", api.ServiceTypeExternalName))
	}
	if spec.Type != api.ServiceTypeExternalName && spec.ExternalName != "" {
		ws = append(ws, fmt.Sprintf("spec.externalName is ignored when spec.type is not %q", api.ServiceTypeExternalName))
	}
	// Kubernetes 1.35 deprecated PreferClose (pkg/api/service/warnings.go, v1.35.4:75-77).
	if td := spec.TrafficDistribution; cfg.AtLeast(35) && td != nil && *td == api.ServiceTrafficDistributionPreferClose {
		ws = append(ws, fmt.Sprintf("spec.trafficDistribution: %q is deprecated; use %q", api.ServiceTrafficDistributionPreferClose, api.ServiceTrafficDistributionPreferSameZone))
	}
	return ws
}

// serviceIPWarnings are the warnings of an address of a Service's spec: apimachinery's
// GetWarningsForIP from 1.33. Kubernetes 1.32 warned with its own words
// (pkg/api/service/warnings.go of 1.32.13, getWarningsForIP): an address netip does not
// parse (leading zeros) "was accepted, but will be invalid in a future Kubernetes release"
// with netip's error, an IPv6 address not written as RFC 5952 says.
func serviceIPWarnings(cfg *serverconfig.Config, p *field.Path, s string) []string {
	if cfg.AtLeast(33) {
		return validation.GetWarningsForIP(p, s)
	}
	ip, err := netip.ParseAddr(s)
	if err != nil {
		return []string{fmt.Sprintf("%s: IP address was accepted, but will be invalid in a future Kubernetes release: %v", p, err)}
	}
	if ip.Is6() && ip.String() != s {
		return []string{fmt.Sprintf("%s: IPv6 address %q is not in RFC 5952 canonical format (%q), which may cause controller apply-loops", p, s, ip.String())}
	}
	return nil
}

// serviceCIDRWarnings is serviceIPWarnings for a range: GetWarningsForCIDR from 1.33;
// Kubernetes 1.32's getWarningsForCIDR warned only of a prefix netip does not parse and of
// an IPv6 prefix not in canonical form (no ambiguous-prefix warning).
func serviceCIDRWarnings(cfg *serverconfig.Config, p *field.Path, s string) []string {
	if cfg.AtLeast(33) {
		return validation.GetWarningsForCIDR(p, s)
	}
	prefix, err := netip.ParsePrefix(s)
	if err != nil {
		return []string{fmt.Sprintf("%s: IP prefix was accepted, but will be invalid in a future Kubernetes release: %v", p, err)}
	}
	if prefix.Addr().Is6() && prefix.String() != s {
		return []string{fmt.Sprintf("%s: IPv6 prefix %q is not in RFC 5952 canonical format (%q), which may cause controller apply-loops", p, s, prefix.String())}
	}
	return nil
}

// serviceStatusWarnings are the warnings of an update through /status: ingress addresses
// written ambiguously.
func serviceStatusWarnings(cfg *serverconfig.Config, svc *api.Service) []string {
	// Kubernetes 1.32: the Service status strategy warns of nothing (1.33.13 added
	// GetWarningsForIP to pkg/registry/core/service/strategy.go).
	if !cfg.AtLeast(33) {
		return nil
	}
	var ws []string
	for i, in := range svc.Status.LoadBalancer.Ingress {
		if in.IP != "" {
			ws = append(ws, validation.GetWarningsForIP(field.NewPath("status", "loadBalancer", "ingress").Index(i), in.IP)...)
		}
	}
	return ws
}
