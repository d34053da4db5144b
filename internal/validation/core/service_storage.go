package core

import (
	"slices"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// allocatedHealthCheckNodePort stands for the health-check node port the allocator gives a
// load balancer that keeps traffic local and names none: any port in the node-port range
// passes validation the same way.
const allocatedHealthCheckNodePort = 30000

// ServiceBeginWrite is what the Service REST storage does to a Service before the registry
// runs the strategy (BeginCreate, BeginUpdate; old is nil on a create) in a cluster whose
// service IP ranges are of families (the primary first; see ServiceIPFamilies), as far as
// it depends on the objects and those families. It fills a health-check node port where
// the allocator would assign one (the strategy requires it), sets the IP family policy and
// the families the allocator gives, and checks the cluster IPs, families and policy first:
// when that finds errors, the server refuses the write with those alone. What depends on
// more of the cluster's configuration (a free address in the service ranges, free node
// ports) is not checked.
func ServiceBeginWrite(svc, old *api.Service, families []api.IPFamily) field.ErrorList {
	syncClusterIPs(svc, old)
	if svc.Spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	if needsHealthCheck(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = allocatedHealthCheckNodePort
	}
	if errs := ServiceIPFieldErrors(svc, old, families); len(errs) > 0 {
		return errs
	}
	if old == nil {
		return requestedNodePorts(svc)
	}
	return nil
}

// recordingServerFamilies are the service IP families of the server the answers were
// recorded from (--service-cluster-ip-range=10.0.0.0/24): IPv4 alone.
var recordingServerFamilies = []api.IPFamily{api.IPv4Protocol}

// ServiceIPFamilies are the families of the server's service IP ranges, the primary first:
// the recording server's (IPv4 alone) when it names none.
func ServiceIPFamilies(cfg *serverconfig.Config) []api.IPFamily {
	if len(cfg.ServiceIPFamilies) == 0 {
		return recordingServerFamilies
	}
	out := make([]api.IPFamily, len(cfg.ServiceIPFamilies))
	for i, f := range cfg.ServiceIPFamilies {
		out[i] = api.IPFamily(f)
	}
	return out
}

// ServiceIPFieldErrors is the allocator's work on a Service's IP fields in a cluster
// serving families (old is nil on a create; families as ServiceIPFamilies gives them).
// The IP family policy is defaulted, then clusterIP, clusterIPs, ipFamilies and the policy
// are checked together — errors there refuse the write alone. Then, on an update asking
// for one stack, the second entries are dropped (or, asking for more, refused when
// released); a single stack is refused with two addresses or families; the families of
// the cluster IPs are inferred, each refused when the cluster does not serve it; all these
// errors refuse the write together. A headless Service without selector may then ask for
// any families (the cluster's primary one first when it names none, and the other one
// unless SingleStack). Any other Service is refused when it requires dual stack of a
// single-stack cluster or names a family the cluster does not serve; else it gets the
// primary family when it names none, and the other one too when it does not ask for a
// single stack and the cluster serves both. The engine's prediction of the stored Service
// (package internal/strategy) infers nothing when this refuses.
func ServiceIPFieldErrors(svc, old *api.Service, families []api.IPFamily) field.ErrorList {
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
	// The families of cluster IPs given without one follow from the addresses; the
	// cluster must serve them.
	for i, ip := range svc.Spec.ClusterIPs {
		if ip == api.ClusterIPNone {
			break
		}
		if i < len(svc.Spec.IPFamilies) {
			continue
		}
		fam := api.IPv4Protocol
		if netutils.IsIPv6String(ip) {
			fam = api.IPv6Protocol
		}
		if !slices.Contains(families, fam) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "clusterIPs").Index(i), svc.Spec.ClusterIPs, string(fam)+" is not configured on this cluster"))
			continue
		}
		svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, fam)
	}
	if len(errs) > 0 {
		return errs
	}

	if svc.Spec.ClusterIP == api.ClusterIPNone && len(svc.Spec.Selector) == 0 {
		// Headless without selector: whatever families it asks for, even on a single-stack
		// cluster.
		if len(svc.Spec.IPFamilies) == 0 {
			svc.Spec.IPFamilies = []api.IPFamily{families[0]}
		}
		if len(svc.Spec.IPFamilies) < 2 && !single {
			svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, otherFamily(svc.Spec.IPFamilies[0]))
		}
		return nil
	}
	if *svc.Spec.IPFamilyPolicy == api.IPFamilyPolicyRequireDualStack && len(families) < 2 {
		errs = append(errs, field.Invalid(policy, svc.Spec.IPFamilyPolicy, "this cluster is not configured for dual-stack services"))
	}
	for i, fam := range svc.Spec.IPFamilies {
		if !slices.Contains(families, fam) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "ipFamilies").Index(i), fam, "not configured on this cluster"))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if len(svc.Spec.IPFamilies) == 0 {
		svc.Spec.IPFamilies = []api.IPFamily{families[0]}
	}
	if !single && len(svc.Spec.IPFamilies) == 1 && len(families) == 2 {
		svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, otherFamily(svc.Spec.IPFamilies[0]))
	}
	return nil
}

// IsClusterFamilyCause reports whether a cause of a Service's 422 (its field and message)
// is a refusal of a family the cluster does not serve: dual stack of a single-stack
// cluster, or a family (named, or of a cluster IP) outside its service IP ranges.
func IsClusterFamilyCause(fieldPath, message string) bool {
	switch {
	case fieldPath == "spec.ipFamilyPolicy":
		return strings.HasSuffix(message, ": this cluster is not configured for dual-stack services")
	case strings.HasPrefix(fieldPath, "spec.ipFamilies["):
		return strings.HasSuffix(message, ": not configured on this cluster")
	case strings.HasPrefix(fieldPath, "spec.clusterIPs["):
		return strings.HasSuffix(message, "IPv4 is not configured on this cluster") || strings.HasSuffix(message, "IPv6 is not configured on this cluster")
	}
	return false
}

// otherFamily is the IP family that is not f.
func otherFamily(f api.IPFamily) api.IPFamily {
	if f == api.IPv4Protocol {
		return api.IPv6Protocol
	}
	return api.IPv4Protocol
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
