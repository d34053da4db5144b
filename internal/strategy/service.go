package strategy

import (
	"net/netip"

	"github.com/ssa-diff/ssa-diff/internal/api"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	validationcore "github.com/ssa-diff/ssa-diff/internal/validation/core"
)

// A Service's allocated values: the Service REST storage (BeginCreate,
// BeginUpdate) fills cluster IPs, IP families, node ports and the health-check
// node port before the strategy runs. What follows from the object alone is
// predicted here; what takes an allocator or the cluster's configuration (a
// free IP or port) is left out and named by Assigned. The cluster's service IP
// families (Cluster) decide which policies and families are refused; when they
// are not declared, the cluster is taken to be the recording server's (IPv4
// alone) for refusals, and the families it would add are left to Assigned.

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

// serviceCreate is what the allocator decides on create in cluster:
// clusterIPs from a given clusterIP, the IP family policy and the families
// (those the cluster IPs imply, and the cluster's when it is declared), and
// node ports shared by ports of the same number.
func serviceCreate(spec map[string]any, cfg *serverconfig.Config) {
	if unstructured.Str(spec, "type") == serviceExternalName {
		return
	}
	if unstructured.Str(spec, "clusterIP") != "" && len(unstructured.List(spec, "clusterIPs")) == 0 {
		spec["clusterIPs"] = []any{spec["clusterIP"]}
	}
	initIPFamilies(spec, nil, cfg)
	if needsNodePorts(spec) {
		shareNodePorts(spec)
	}
}

// serviceUpdate is the update side, given the stored Service old: the
// allocated values a request leaves unset are kept (patchAllocatedValues),
// clusterIP and clusterIPs are kept in step, the IP family fields are
// initialised as on create but from the old policy, and the strategy wipes
// what a type change leaves without use (dropTypeDependentFields).
func serviceUpdate(obj, old map[string]any, cfg *serverconfig.Config) {
	spec, oldSpec := unstructured.EnsureObject(obj, "spec"), unstructured.Object(old, "spec")
	if oldSpec == nil {
		return
	}
	keepAllocated(spec, oldSpec)
	syncClusterIPs(spec, oldSpec)
	initIPFamilies(spec, oldSpec, cfg)
	dropTypeDependentFields(obj, old)
}

// keepAllocated restores what the server allocated and the new object leaves
// unset: the cluster IPs, node ports matched by port name (unless another
// port now uses the old value) and the health-check node port, each while
// both the old and the new type use it.
func keepAllocated(spec, old map[string]any) {
	if needsClusterIP(spec) && needsClusterIP(old) {
		if unstructured.Str(spec, "clusterIP") == "" {
			restore(spec, old, "clusterIP")
		}
		if len(unstructured.List(spec, "clusterIPs")) == 0 && len(unstructured.List(old, "clusterIPs")) > 0 {
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
		for _, p := range unstructured.Objects(old, "ports") {
			n, _ := unstructured.Int(p["nodePort"])
			byName[unstructured.Str(p, "name")] = n
		}
		for _, p := range unstructured.Objects(spec, "ports") {
			if n, _ := unstructured.Int(p["nodePort"]); n == 0 {
				if v := byName[unstructured.Str(p, "name")]; v != 0 && !used[v] {
					p["nodePort"] = v
				}
			}
		}
	}
	if needsHealthCheck(spec) && needsHealthCheck(old) {
		if n, _ := unstructured.Int(spec["healthCheckNodePort"]); n == 0 {
			restore(spec, old, "healthCheckNodePort")
		}
	}
}

// syncClusterIPs keeps clusterIP and clusterIPs in step on update, as
// normalizeClusterIPs does for clients that know only the singular field.
func syncClusterIPs(spec, old map[string]any) {
	ip, oldIP := unstructured.Str(spec, "clusterIP"), unstructured.Str(old, "clusterIP")
	if len(unstructured.List(old, "clusterIPs")) > 0 && len(unstructured.List(spec, "clusterIPs")) == 0 && ip == oldIP {
		restore(spec, old, "clusterIPs")
	}
	if ip == oldIP {
		return
	}
	same := sameStrings(unstructured.List(spec, "clusterIPs"), unstructured.List(old, "clusterIPs"))
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
// SingleStack gets the other family after the first. The families the cluster
// adds (its primary one, the other one of a dual-stack cluster) are predicted
// when cluster declares them, else left to Assigned.
func initIPFamilies(spec, old map[string]any, cfg *serverconfig.Config) {
	if !needsClusterIP(spec) || matchingPreferDualStack(spec, old) {
		return
	}
	headlessNoSelector := unstructured.Str(spec, "clusterIP") == clusterIPNone && len(unstructured.Object(spec, "selector")) == 0
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
	families, refused := allocatedFamilies(spec, old, cfg)
	if refused {
		return // the server refuses the write (422) before it infers anything
	}
	policy := unstructured.Str(spec, "ipFamilyPolicy")
	if old != nil && policy == singleStack {
		if ips := unstructured.List(spec, "clusterIPs"); len(ips) > 1 && sameStrings(ips, unstructured.List(old, "clusterIPs")) {
			spec["clusterIPs"] = ips[:1]
		}
	}
	if families != nil {
		// In a declared cluster, the allocator's families: those below and the
		// cluster's.
		spec["ipFamilies"] = families
		return
	}
	if old != nil && policy == singleStack {
		if fams := unstructured.List(spec, "ipFamilies"); len(fams) > 1 && sameStrings(fams, unstructured.List(old, "ipFamilies")) {
			spec["ipFamilies"] = fams[:1]
		}
	}
	fams := unstructured.List(spec, "ipFamilies")
	inferred := false
	for i, ip := range unstructured.List(spec, "clusterIPs") {
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
	if old == nil || spec["ipFamilyPolicy"] == nil || unstructured.Str(spec, "type") != unstructured.Str(old, "type") {
		return false
	}
	switch unstructured.Str(spec, "type") {
	case "ClusterIP", serviceNodePort, serviceLoadBalancer:
	default:
		return false
	}
	if unstructured.Str(spec, "ipFamilyPolicy") != preferDualStack || (old["ipFamilyPolicy"] != nil && unstructured.Str(old, "ipFamilyPolicy") != preferDualStack) {
		return false
	}
	return sameStrings(unstructured.List(spec, "clusterIPs"), unstructured.List(old, "clusterIPs")) && sameStrings(unstructured.List(spec, "ipFamilies"), unstructured.List(old, "ipFamilies"))
}

// shareNodePorts gives a port without a node port the node port requested by
// the first port of the same number that has one, as the allocator does on
// create; the others get a free port (Assigned).
func shareNodePorts(spec map[string]any) {
	ports := unstructured.Objects(spec, "ports")
	for _, p := range ports {
		if n, _ := unstructured.Int(p["nodePort"]); n != 0 {
			continue
		}
		for _, q := range ports {
			if m, _ := unstructured.Int(q["nodePort"]); m != 0 && unstructured.Equal(q["port"], p["port"]) {
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
	spec, oldSpec := unstructured.EnsureObject(obj, "spec"), unstructured.Object(old, "spec")
	if needsClusterIP(oldSpec) && !needsClusterIP(spec) {
		if unstructured.Str(spec, "clusterIP") == unstructured.Str(oldSpec, "clusterIP") && sameStrings(unstructured.List(spec, "clusterIPs"), unstructured.List(oldSpec, "clusterIPs")) {
			delete(spec, "clusterIP")
			delete(spec, "clusterIPs")
		}
		if sameStrings(unstructured.List(spec, "ipFamilies"), unstructured.List(oldSpec, "ipFamilies")) {
			delete(spec, "ipFamilies")
		}
		if unstructured.Str(spec, "ipFamilyPolicy") == unstructured.Str(oldSpec, "ipFamilyPolicy") {
			delete(spec, "ipFamilyPolicy")
		}
	}
	if needsNodePort(oldSpec) && !needsNodePort(spec) && sameNodePorts(spec, oldSpec) {
		for _, p := range unstructured.Objects(spec, "ports") {
			delete(p, "nodePort")
		}
	}
	if needsHealthCheck(oldSpec) && !needsHealthCheck(spec) && unstructured.Equal(intOrZero(spec["healthCheckNodePort"]), intOrZero(oldSpec["healthCheckNodePort"])) {
		delete(spec, "healthCheckNodePort")
	}
	if unstructured.Str(oldSpec, "type") == serviceLoadBalancer && unstructured.Str(spec, "type") != serviceLoadBalancer {
		a, aok := spec["allocateLoadBalancerNodePorts"].(bool)
		b, bok := oldSpec["allocateLoadBalancerNodePorts"].(bool)
		if aok && bok && a == b {
			delete(spec, "allocateLoadBalancerNodePorts")
		}
		if unstructured.Equal(spec["loadBalancerClass"], oldSpec["loadBalancerClass"]) {
			delete(spec, "loadBalancerClass")
		}
	}
	if externallyAccessible(oldSpec) && !externallyAccessible(spec) && unstructured.Str(spec, "externalTrafficPolicy") == unstructured.Str(oldSpec, "externalTrafficPolicy") {
		delete(spec, "externalTrafficPolicy")
	}
	if unstructured.Str(spec, "type") != serviceLoadBalancer {
		if st := unstructured.Object(obj, "status"); st != nil {
			delete(st, "loadBalancer")
		}
	}
}

func needsClusterIP(spec map[string]any) bool {
	return unstructured.Str(spec, "type") != serviceExternalName
}

func needsNodePort(spec map[string]any) bool {
	t := unstructured.Str(spec, "type")
	return t == serviceNodePort || t == serviceLoadBalancer
}

// needsNodePorts reports whether ports without a node port get one: always
// for NodePort, for LoadBalancer unless allocateLoadBalancerNodePorts is false.
func needsNodePorts(spec map[string]any) bool {
	switch unstructured.Str(spec, "type") {
	case serviceNodePort:
		return true
	case serviceLoadBalancer:
		alloc, set := spec["allocateLoadBalancerNodePorts"].(bool)
		return alloc || !set
	}
	return false
}

func needsHealthCheck(spec map[string]any) bool {
	return unstructured.Str(spec, "type") == serviceLoadBalancer && unstructured.Str(spec, "externalTrafficPolicy") == "Local"
}

func externallyAccessible(spec map[string]any) bool {
	switch unstructured.Str(spec, "type") {
	case serviceLoadBalancer, serviceNodePort:
		return true
	case "ClusterIP", "":
		return len(unstructured.List(spec, "externalIPs")) > 0
	}
	return false
}

func nodePortSet(spec map[string]any) map[int64]bool {
	out := map[int64]bool{}
	for _, p := range unstructured.Objects(spec, "ports") {
		if n, _ := unstructured.Int(p["nodePort"]); n != 0 {
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
	n, _ := unstructured.Int(v)
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

// allocatedFamilies runs the allocator's checks of the IP fields of spec in cluster (old
// is the stored spec, nil on a create), as package internal/validation/core words them:
// refused when they refuse the write; else, in a declared cluster, the families the
// allocator gives (nil when not declared, or when spec cannot be decoded: validation
// refuses it).
func allocatedFamilies(spec, old map[string]any, cfg *serverconfig.Config) (families []any, refused bool) {
	var svc coreapi.Service
	if api.Decode(map[string]any{"spec": spec}, &svc) != nil {
		return nil, false
	}
	var stored *coreapi.Service
	if old != nil {
		stored = new(coreapi.Service)
		if api.Decode(map[string]any{"spec": old}, stored) != nil {
			return nil, false
		}
	}
	fams := validationcore.ServiceIPFamilies(cfg)
	if len(validationcore.ServiceIPFieldErrors(&svc, stored, fams)) > 0 {
		return nil, true
	}
	if len(cfg.ServiceIPFamilies) == 0 {
		return nil, false // not declared: the families the cluster adds are not predicted
	}
	families = make([]any, len(svc.Spec.IPFamilies))
	for i, f := range svc.Spec.IPFamilies {
		families[i] = string(f)
	}
	return families, false
}
