package core

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
)

// allocatedHealthCheckNodePort stands for the health-check node port the allocator gives a
// load balancer that keeps traffic local and names none: any port in the node-port range
// passes validation the same way.
const allocatedHealthCheckNodePort = 30000

// ServiceBeginWrite is what the Service REST storage does to a Service before the registry
// runs the strategy (BeginCreate, BeginUpdate; old is nil on a create), as far as it
// depends on the objects alone. It fills a health-check node port where the allocator would
// assign one (the strategy requires it), sets the IP family policy the allocator defaults,
// and checks the cluster IPs, families and policy first: when that finds errors, the server
// refuses the write with those alone. What depends on the cluster's configuration (a free
// address in the service CIDR, the IP families it serves, free node ports) is not checked.
func ServiceBeginWrite(svc, old *api.Service) field.ErrorList {
	syncClusterIPs(svc, old)
	if svc.Spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	if needsHealthCheck(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = allocatedHealthCheckNodePort
	}
	if errs := ServiceIPFieldErrors(svc, old); len(errs) > 0 {
		return errs
	}
	if old == nil {
		return requestedNodePorts(svc)
	}
	return nil
}

// ServiceIPFieldErrors is the allocator's first step on a Service's IP fields (old is nil
// on a create): the IP family policy defaulted, then clusterIP, clusterIPs, ipFamilies and
// the policy checked together — errors there refuse the write alone, before anything is
// inferred — then, on an update asking for one stack, the second entries dropped (or,
// asking for more, refused when released), a single stack refused with two addresses or
// families, and the families of the cluster IPs inferred. The engine's prediction of the
// stored Service (package merge/strategy) infers nothing when this refuses.
func ServiceIPFieldErrors(svc, old *api.Service) field.ErrorList {
	if svc.Spec.Type == api.ServiceTypeExternalName || samePreferDualStack(svc, old) {
		return nil // the allocator leaves such a Service's IP fields alone
	}
	if svc.Spec.IPFamilyPolicy == nil {
		var p api.IPFamilyPolicy
		switch {
		case old != nil && old.Spec.IPFamilyPolicy != nil:
			p = *old.Spec.IPFamilyPolicy
		case svc.Spec.ClusterIP == api.ClusterIPNone && len(svc.Spec.Selector) == 0:
			p = api.IPFamilyPolicyRequireDualStack // headless without selector
		default:
			p = api.IPFamilyPolicySingleStack
		}
		svc.Spec.IPFamilyPolicy = &p
	}
	if errs := ValidateServiceClusterIPsRelatedFields(svc, old); len(errs) > 0 {
		return errs
	}

	var errs field.ErrorList
	policy := field.NewPath("spec", "ipFamilyPolicy")
	single := *svc.Spec.IPFamilyPolicy == api.IPFamilyPolicySingleStack
	if old != nil {
		if single {
			// Asking for one stack while keeping both lists as they were drops the second
			// entries; the first cluster IP cannot change, so keeping it is safe.
			if sameClusterIPList(old.Spec.ClusterIPs, svc.Spec.ClusterIPs) && len(svc.Spec.ClusterIPs) > 1 {
				svc.Spec.ClusterIPs = svc.Spec.ClusterIPs[:1]
			}
			if sameFamilyList(old.Spec.IPFamilies, svc.Spec.IPFamilies) && len(svc.Spec.IPFamilies) > 1 {
				svc.Spec.IPFamilies = svc.Spec.IPFamilies[:1]
			}
		} else {
			if n := len(svc.Spec.ClusterIPs); n > 0 && n < len(old.Spec.ClusterIPs) {
				errs = append(errs, field.Invalid(policy, svc.Spec.IPFamilyPolicy, "must be 'SingleStack' to release the secondary cluster IP"))
			}
			if n := len(svc.Spec.IPFamilies); n > 0 && n < len(old.Spec.IPFamilies) {
				errs = append(errs, field.Invalid(policy, svc.Spec.IPFamilyPolicy, "must be 'SingleStack' to release the secondary IP family"))
			}
		}
	}
	if single {
		if len(svc.Spec.ClusterIPs) == 2 {
			errs = append(errs, field.Invalid(policy, svc.Spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
		}
		if len(svc.Spec.IPFamilies) == 2 {
			errs = append(errs, field.Invalid(policy, svc.Spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	// The families of cluster IPs given without one follow from the addresses (whether the
	// cluster serves them is its configuration).
	for i, ip := range svc.Spec.ClusterIPs {
		if ip == api.ClusterIPNone {
			break
		}
		if i >= len(svc.Spec.IPFamilies) {
			fam := api.IPv4Protocol
			if netutils.IsIPv6String(ip) {
				fam = api.IPv6Protocol
			}
			svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, fam)
		}
	}
	return nil
}

// requestedNodePorts is the allocator's refusal, on a create, of a node port requested for
// two ports of different numbers (ports of the same number share one): the second request
// finds it taken. (Whether a port is in the cluster's node-port range, or taken by another
// Service, depends on the cluster.)
func requestedNodePorts(svc *api.Service) field.ErrorList {
	if svc.Spec.Type != api.ServiceTypeNodePort && svc.Spec.Type != api.ServiceTypeLoadBalancer {
		return nil
	}
	ports := svc.Spec.Ports
	taken := map[int32]bool{}
	byPort := map[int32]int32{} // port number -> the node port it got
	for i := range ports {
		p := &ports[i]
		if p.NodePort == 0 {
			continue // a port allocated for it is free (or one of the same number is shared)
		}
		path := field.NewPath("spec", "ports").Index(i).Child("nodePort")
		got := byPort[p.Port]
		if got == 0 {
			// The first node port requested by a port of this number.
			np := p.NodePort
			for j := range ports {
				if ports[j].Port == p.Port && ports[j].NodePort != 0 {
					np = ports[j].NodePort
					break
				}
			}
			if taken[np] {
				return field.ErrorList{field.Invalid(path, int(np), portTaken)}
			}
			taken[np], byPort[p.Port] = true, np
		} else if p.NodePort != got {
			if taken[p.NodePort] {
				return field.ErrorList{field.Invalid(path, p.NodePort, portTaken)}
			}
			taken[p.NodePort] = true
		}
	}
	return nil
}

// portTaken is the port allocator's word for a port it cannot give twice.
const portTaken = "provided port is already allocated"

// syncClusterIPs keeps clusterIP and clusterIPs in step, for clients that set only the
// first: on a create, a lone clusterIP gives clusterIPs; on an update, clusterIPs left out
// with clusterIP unchanged are the stored ones, and a clusterIP that changed (or was
// cleared) while clusterIPs stayed as stored replaces them (or clears them).
func syncClusterIPs(svc, old *api.Service) {
	spec := &svc.Spec
	if old == nil {
		if spec.ClusterIP != "" && len(spec.ClusterIPs) == 0 {
			spec.ClusterIPs = []string{spec.ClusterIP}
		}
		return
	}
	if len(old.Spec.ClusterIPs) > 0 && len(spec.ClusterIPs) == 0 && old.Spec.ClusterIP == spec.ClusterIP {
		spec.ClusterIPs = old.Spec.ClusterIPs
	}
	if old.Spec.ClusterIP == spec.ClusterIP || !sameClusterIPList(old.Spec.ClusterIPs, spec.ClusterIPs) {
		return
	}
	if old.Spec.ClusterIP != "" && spec.ClusterIP == "" {
		spec.ClusterIPs = nil
	} else {
		spec.ClusterIPs = []string{spec.ClusterIP}
	}
}

// samePreferDualStack: an update of a PreferDualStack Service that keeps its type (one with
// cluster IPs), cluster IPs and families.
func samePreferDualStack(svc, old *api.Service) bool {
	if old == nil || svc.Spec.IPFamilyPolicy == nil || svc.Spec.Type != old.Spec.Type {
		return false
	}
	switch svc.Spec.Type {
	case api.ServiceTypeClusterIP, api.ServiceTypeNodePort, api.ServiceTypeLoadBalancer:
	default:
		return false
	}
	if *svc.Spec.IPFamilyPolicy != api.IPFamilyPolicyPreferDualStack {
		return false
	}
	if old.Spec.IPFamilyPolicy != nil && *old.Spec.IPFamilyPolicy != api.IPFamilyPolicyPreferDualStack {
		return false
	}
	return sameClusterIPList(old.Spec.ClusterIPs, svc.Spec.ClusterIPs) && sameFamilyList(old.Spec.IPFamilies, svc.Spec.IPFamilies)
}

func sameClusterIPList(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameFamilyList(a, b []api.IPFamily) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
