package strategy

import (
	"net/netip"

	"github.com/ssa-diff/ssa-diff/internal/api"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	validationcore "github.com/ssa-diff/ssa-diff/internal/validation/core"
)

// A Service's allocated values: the Service REST storage (BeginCreate,
// BeginUpdate) fills cluster IPs, IP families, node ports and the health-check
// node port before the strategy runs. What follows from the object alone is
// predicted here; what takes an allocator or the cluster's configuration (a
// free IP or port, the cluster's IP families) is left out and named by
// Assigned. The cluster is taken to be single-stack.

// The Service type and policy values the allocator reads.
const (
	serviceExternalName = "ExternalName"
	serviceNodePort     = "NodePort"
	serviceLoadBalancer = "LoadBalancer"
	clusterIPNone       = "None"
	singleStack         = "SingleStack"
	preferDualStack     = "PreferDualStack"
	requireDualStack    = "RequireDualStack"
	ipv4                = "IPv4"
	ipv6                = "IPv6"
)

// serviceCreate is what the allocator decides on create without a cluster:
// clusterIPs from a given clusterIP, the IP family policy and the families
// the cluster IPs imply, and node ports shared by ports of the same number.
func serviceCreate(spec map[string]any) {
	if str(spec, "type") == serviceExternalName {
		return
	}
	if str(spec, "clusterIP") != "" && len(list(spec, "clusterIPs")) == 0 {
		spec["clusterIPs"] = []any{spec["clusterIP"]}
	}
	initIPFamilies(spec, nil)
	if needsNodePorts(spec) {
		shareNodePorts(spec)
	}
}

// serviceUpdate is the update side, given the stored Service old: the
// allocated values a request leaves unset are kept (patchAllocatedValues),
// clusterIP and clusterIPs are kept in step, the IP family fields are
// initialised as on create but from the old policy, and the strategy wipes
// what a type change leaves without use (dropTypeDependentFields).
func serviceUpdate(obj, old map[string]any) {
	spec, oldSpec := ensureObject(obj, "spec"), object(old, "spec")
	if oldSpec == nil {
		return
	}
	keepAllocated(spec, oldSpec)
	syncClusterIPs(spec, oldSpec)
	initIPFamilies(spec, oldSpec)
	dropTypeDependentFields(obj, old)
}

// keepAllocated restores what the server allocated and the new object leaves
// unset: the cluster IPs, node ports matched by port name (unless another
// port now uses the old value) and the health-check node port, each while
// both the old and the new type use it.
func keepAllocated(spec, old map[string]any) {
	if needsClusterIP(spec) && needsClusterIP(old) {
		if str(spec, "clusterIP") == "" {
			restore(spec, old, "clusterIP")
		}
		if len(list(spec, "clusterIPs")) == 0 && len(list(old, "clusterIPs")) > 0 {
			restore(spec, old, "clusterIPs")
		}
	}
	if needsNodePort(spec) && needsNodePort(old) {
		oldPorts := nodePortSet(old)
		used := map[int64]bool{}
		for n := range nodePortSet(spec) {
			if oldPorts[n] {
				used[n] = true
			}
		}
		byName := map[string]int64{}
		for _, p := range objects(old, "ports") {
			n, _ := asInt(p["nodePort"])
			byName[str(p, "name")] = n
		}
		for _, p := range objects(spec, "ports") {
			if n, _ := asInt(p["nodePort"]); n == 0 {
				if v := byName[str(p, "name")]; v != 0 && !used[v] {
					p["nodePort"] = v
				}
			}
		}
	}
	if needsHealthCheck(spec) && needsHealthCheck(old) {
		if n, _ := asInt(spec["healthCheckNodePort"]); n == 0 {
			restore(spec, old, "healthCheckNodePort")
		}
	}
}

// syncClusterIPs keeps clusterIP and clusterIPs in step on update, as
// normalizeClusterIPs does for clients that know only the singular field.
func syncClusterIPs(spec, old map[string]any) {
	ip, oldIP := str(spec, "clusterIP"), str(old, "clusterIP")
	if len(list(old, "clusterIPs")) > 0 && len(list(spec, "clusterIPs")) == 0 && ip == oldIP {
		restore(spec, old, "clusterIPs")
	}
	if ip == oldIP {
		return
	}
	same := sameStrings(list(spec, "clusterIPs"), list(old, "clusterIPs"))
	switch {
	case oldIP != "" && ip == "":
		if same {
			delete(spec, "clusterIPs")
		}
	case same:
		spec["clusterIPs"] = []any{ip}
	}
}

// initIPFamilies follows the allocator's initIPFamilyFields (old is nil on
// create): an unset policy is the old one, RequireDualStack for a headless
// Service without selector, SingleStack otherwise; a SingleStack update with
// unchanged lists keeps only their first entries; families are inferred from
// the cluster IPs; a headless Service without selector asking for more than
// SingleStack gets the other family after the first. A family taken from the
// cluster's configuration is left to Assigned.
func initIPFamilies(spec, old map[string]any) {
	if !needsClusterIP(spec) || matchingPreferDualStack(spec, old) {
		return
	}
	headlessNoSelector := str(spec, "clusterIP") == clusterIPNone && len(object(spec, "selector")) == 0
	if spec["ipFamilyPolicy"] == nil {
		switch {
		case old != nil && old["ipFamilyPolicy"] != nil:
			spec["ipFamilyPolicy"] = old["ipFamilyPolicy"]
		case headlessNoSelector:
			spec["ipFamilyPolicy"] = requireDualStack
		default:
			spec["ipFamilyPolicy"] = singleStack
		}
	}
	if ipFieldsRefused(spec, old) {
		return // the server refuses the write (422) before it infers anything
	}
	policy := str(spec, "ipFamilyPolicy")
	if old != nil && policy == singleStack {
		if ips := list(spec, "clusterIPs"); len(ips) > 1 && sameStrings(ips, list(old, "clusterIPs")) {
			spec["clusterIPs"] = ips[:1]
		}
		if fams := list(spec, "ipFamilies"); len(fams) > 1 && sameStrings(fams, list(old, "ipFamilies")) {
			spec["ipFamilies"] = fams[:1]
		}
	}
	fams := list(spec, "ipFamilies")
	inferred := false
	for i, ip := range list(spec, "clusterIPs") {
		s, _ := ip.(string)
		if s == clusterIPNone {
			break
		}
		if i < len(fams) {
			continue
		}
		fam := familyOf(s)
		if fam == "" {
			return // the server refuses it (422)
		}
		fams = append(fams, fam)
		inferred = true
	}
	if headlessNoSelector && len(fams) == 1 && policy != singleStack {
		if fams[0] == ipv4 {
			fams = append(fams, ipv6)
		} else {
			fams = append(fams, ipv4)
		}
		inferred = true
	}
	if inferred {
		spec["ipFamilies"] = append([]any(nil), fams...)
	}
}

// matchingPreferDualStack reports an update of a PreferDualStack Service
// that changes neither its type, cluster IPs nor families: the allocator
// leaves its IP fields alone.
func matchingPreferDualStack(spec, old map[string]any) bool {
	if old == nil || spec["ipFamilyPolicy"] == nil || str(spec, "type") != str(old, "type") {
		return false
	}
	switch str(spec, "type") {
	case "ClusterIP", serviceNodePort, serviceLoadBalancer:
	default:
		return false
	}
	if str(spec, "ipFamilyPolicy") != preferDualStack || (old["ipFamilyPolicy"] != nil && str(old, "ipFamilyPolicy") != preferDualStack) {
		return false
	}
	return sameStrings(list(spec, "clusterIPs"), list(old, "clusterIPs")) && sameStrings(list(spec, "ipFamilies"), list(old, "ipFamilies"))
}

// shareNodePorts gives a port without a node port the node port requested by
// the first port of the same number that has one, as the allocator does on
// create; the others get a free port (Assigned).
func shareNodePorts(spec map[string]any) {
	ports := objects(spec, "ports")
	for _, p := range ports {
		if n, _ := asInt(p["nodePort"]); n != 0 {
			continue
		}
		for _, q := range ports {
			if m, _ := asInt(q["nodePort"]); m != 0 && unstructured.Equal(q["port"], p["port"]) {
				p["nodePort"] = m
				break
			}
		}
	}
}

// dropTypeDependentFields follows the Service strategy on update: a type
// change wipes what the new type does not use when the request left it as
// stored (cluster IPs and families, node ports, the health-check node port,
// allocateLoadBalancerNodePorts, loadBalancerClass, externalTrafficPolicy),
// and a Service that is no load balancer loses its load-balancer status.
func dropTypeDependentFields(obj, old map[string]any) {
	spec, oldSpec := ensureObject(obj, "spec"), object(old, "spec")
	if needsClusterIP(oldSpec) && !needsClusterIP(spec) {
		if str(spec, "clusterIP") == str(oldSpec, "clusterIP") && sameStrings(list(spec, "clusterIPs"), list(oldSpec, "clusterIPs")) {
			delete(spec, "clusterIP")
			delete(spec, "clusterIPs")
		}
		if sameStrings(list(spec, "ipFamilies"), list(oldSpec, "ipFamilies")) {
			delete(spec, "ipFamilies")
		}
		if str(spec, "ipFamilyPolicy") == str(oldSpec, "ipFamilyPolicy") {
			delete(spec, "ipFamilyPolicy")
		}
	}
	if needsNodePort(oldSpec) && !needsNodePort(spec) && sameNodePorts(spec, oldSpec) {
		for _, p := range objects(spec, "ports") {
			delete(p, "nodePort")
		}
	}
	if needsHealthCheck(oldSpec) && !needsHealthCheck(spec) && unstructured.Equal(intOrZero(spec["healthCheckNodePort"]), intOrZero(oldSpec["healthCheckNodePort"])) {
		delete(spec, "healthCheckNodePort")
	}
	if str(oldSpec, "type") == serviceLoadBalancer && str(spec, "type") != serviceLoadBalancer {
		a, aok := spec["allocateLoadBalancerNodePorts"].(bool)
		b, bok := oldSpec["allocateLoadBalancerNodePorts"].(bool)
		if aok && bok && a == b {
			delete(spec, "allocateLoadBalancerNodePorts")
		}
		if unstructured.Equal(spec["loadBalancerClass"], oldSpec["loadBalancerClass"]) {
			delete(spec, "loadBalancerClass")
		}
	}
	if externallyAccessible(oldSpec) && !externallyAccessible(spec) && str(spec, "externalTrafficPolicy") == str(oldSpec, "externalTrafficPolicy") {
		delete(spec, "externalTrafficPolicy")
	}
	if str(spec, "type") != serviceLoadBalancer {
		if st := object(obj, "status"); st != nil {
			delete(st, "loadBalancer")
		}
	}
}

func needsClusterIP(spec map[string]any) bool {
	return str(spec, "type") != serviceExternalName
}

func needsNodePort(spec map[string]any) bool {
	t := str(spec, "type")
	return t == serviceNodePort || t == serviceLoadBalancer
}

// needsNodePorts reports whether ports without a node port get one: always
// for NodePort, for LoadBalancer unless allocateLoadBalancerNodePorts is false.
func needsNodePorts(spec map[string]any) bool {
	switch str(spec, "type") {
	case serviceNodePort:
		return true
	case serviceLoadBalancer:
		alloc, set := spec["allocateLoadBalancerNodePorts"].(bool)
		return alloc || !set
	}
	return false
}

func needsHealthCheck(spec map[string]any) bool {
	return str(spec, "type") == serviceLoadBalancer && str(spec, "externalTrafficPolicy") == "Local"
}

func externallyAccessible(spec map[string]any) bool {
	switch str(spec, "type") {
	case serviceLoadBalancer, serviceNodePort:
		return true
	case "ClusterIP", "":
		return len(list(spec, "externalIPs")) > 0
	}
	return false
}

func nodePortSet(spec map[string]any) map[int64]bool {
	out := map[int64]bool{}
	for _, p := range objects(spec, "ports") {
		if n, _ := asInt(p["nodePort"]); n != 0 {
			out[n] = true
		}
	}
	return out
}

func sameNodePorts(a, b map[string]any) bool {
	x, y := nodePortSet(a), nodePortSet(b)
	if len(x) != len(y) {
		return false
	}
	for n := range x {
		if !y[n] {
			return false
		}
	}
	return true
}

func sameStrings(a, b []any) bool {
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

func intOrZero(v any) int64 {
	n, _ := asInt(v)
	return n
}

// familyOf is the IP family of an address, "" when it is none.
func familyOf(s string) string {
	a, err := netip.ParseAddr(s)
	switch {
	case err != nil:
		return ""
	case a.Is4():
		return ipv4
	}
	return ipv6
}

// ipFieldsRefused says whether the allocator refuses the IP fields of spec (old is the
// stored spec, nil on a create): it checks them before it infers families from addresses,
// as package internal/validation/core words it.
func ipFieldsRefused(spec, old map[string]any) bool {
	var svc coreapi.Service
	if api.Decode(map[string]any{"spec": spec}, &svc) != nil {
		return false
	}
	var stored *coreapi.Service
	if old != nil {
		stored = new(coreapi.Service)
		if api.Decode(map[string]any{"spec": old}, stored) != nil {
			return false
		}
	}
	return len(validationcore.ServiceIPFieldErrors(&svc, stored)) > 0
}
