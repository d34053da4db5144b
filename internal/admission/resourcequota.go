package admission

import (
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"slices"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/server"
	"k8s.io/apimachinery/pkg/api/resource"
)

// usage is what a write counts against quotas: resource name → quantity.
type usage map[string]resource.Quantity

// quotaKind is how ResourceQuota measures one kind: the resource names of a quota it
// counts, those of them this port computes, and the usage of an object.
type quotaKind struct {
	// matches says whether the quota's resource name is one the server's evaluator of
	// the kind counts.
	matches func(name string) bool
	// computed says whether the port computes it (a name matched but not computed makes
	// the quota's answer not predicted).
	computed func(name string) bool
	// usage is an object's usage.
	usage func(obj map[string]any) usage
	// updates: the server counts updates of the kind (a Service's type, a claim's size).
	updates bool
}

// quotaKindOf is the measure of the write's kind: the evaluators of Pods, Services and
// PersistentVolumeClaims, otherwise the object count of any resource (count/RESOURCE, and
// the legacy names of ConfigMaps, Secrets, ReplicationControllers and ResourceQuotas).
func quotaKindOf(w Write, podLevel bool) quotaKind {
	switch {
	case w.is("", "Pod"):
		return quotaKind{matches: podQuotaMatches, computed: podQuotaComputed, usage: func(obj map[string]any) usage { return podQuotaUsage(obj, podLevel) }}
	case w.is("", "Service"):
		names := map[string]bool{"services": true, "count/services": true, "services.loadbalancers": true, "services.nodeports": true}
		return quotaKind{matches: func(n string) bool { return names[n] }, computed: func(n string) bool { return names[n] }, usage: serviceQuotaUsage, updates: true}
	case w.is("", "PersistentVolumeClaim"):
		return quotaKind{matches: claimQuotaMatches, computed: func(n string) bool { return claimQuotaMatches(n) && !strings.Contains(n, "volumeattributesclass") },
			usage: claimQuotaUsage, updates: true}
	}
	count := "count/" + w.Type.Resource
	if w.Kind.Group != "" {
		count += "." + w.Kind.Group
	}
	legacy := ""
	if w.Kind.Group == "" {
		switch w.Type.Resource {
		case "configmaps", "secrets", "replicationcontrollers", "resourcequotas":
			legacy = w.Type.Resource
		}
	}
	names := func(n string) bool { return n == count || legacy != "" && n == legacy }
	return quotaKind{matches: names, computed: names, usage: func(map[string]any) usage {
		u := usage{count: *resource.NewQuantity(1, resource.DecimalSI)}
		if legacy != "" {
			u[legacy] = *resource.NewQuantity(1, resource.DecimalSI)
		}
		return u
	}}
}

// resourceQuota is ResourceQuota (rules.md admission.resource-quota), the last plugin of
// the validating phase: a write counted by a quota of its namespace — a create of any
// resource (count/RESOURCE), a Pod's compute resources, a Service's type and ports, a
// claim's storage — is refused (403) when it would take the quota's usage, as its status
// says, above its hard limits; a Pod that does not state the cpu or memory a quota limits
// is refused; a quota whose status has no usage yet refuses what it counts. A quota with
// scopes counts only the objects in them (quotascopes.go). A Pod's /resize is counted as
// an update, and so is an update moving a Pod in or out of the Terminating scope (its
// activeDeadlineSeconds set); an update is charged the difference of the usage for the
// quotas the stored object was in, its whole usage for the others (rules.md
// admission.resource-quota-scopes). Pod-level resources (from 1.34) stand for the containers' cpu and
// memory, and spare the containers from stating them. The resources of Pods this port does
// not compute (hugepages, extended resources) are said to be not predicted.
func (c *Chain) resourceQuota(w Write, out *server.Admission) {
	resize := w.Subresource == "resize" && w.is("", "Pod")
	if w.Subresource != "" && !resize || w.Namespace == "" || w.Type.Resource == "" || !w.Type.Namespaced {
		return
	}
	quotas := c.cfg.State.List("", "ResourceQuota", w.Namespace)
	if len(quotas) == 0 {
		return
	}
	sort.Slice(quotas, func(i, j int) bool {
		return unstructured.Str(unstructured.Object(quotas[i], "metadata"), "name") < unstructured.Str(unstructured.Object(quotas[j], "metadata"), "name")
	})
	// Pod-level resources count with PodLevelResources (beta, on, from 1.34).
	podLevel := c.podLevelResources()
	kind := quotaKindOf(w, podLevel)
	if !w.create() {
		// A Pod's resize is counted as an update (its evaluator handles /resize), and so is
		// an update of a Pod that enters or leaves the Terminating scope — from 1.33: 1.32's
		// pod evaluator handles a create only (pkg/quota/v1/evaluator/core/pods.go Handles).
		scopeMoves := w.is("", "Pod") && w.Subresource == "" && c.cfg.Minor >= 33 && podTerminating(w.Old) != podTerminating(w.Object)
		if !kind.updates && !resize && !scopeMoves {
			return
		}
	}
	notPredicted := func(format string, args ...any) {
		out.NotPredicted = append(out.NotPredicted, fmt.Sprintf(format, args...))
	}
	type pertinent struct {
		name       string
		hard, used usage
		// oldIn: the stored object was counted by the quota too (in its scopes).
		oldIn bool
	}
	var relevant []pertinent
	for _, q := range quotas {
		name := unstructured.Str(unstructured.Object(q, "metadata"), "name")
		spec := unstructured.Object(q, "spec")
		hard := quantities(unstructured.NestedObject(q, "status", "hard"))
		var matched []string
		for n := range hard {
			if kind.matches(n) {
				matched = append(matched, n)
			}
		}
		sort.Strings(matched)
		if len(matched) == 0 {
			continue
		}
		oldIn := !w.create()
		if reqs, scoped := quotaScopes(spec); scoped {
			// rules.md admission.resource-quota-scopes: the quota counts the object only
			// in every one of its scopes (the kinds but Pods and claims are in none).
			in, err := w.inScopes(w.Object, reqs)
			if err != nil {
				notPredicted("the ResourceQuota %s has a scope selector the server cannot read (%v): the write may be refused", name, err)
				continue
			}
			if !in {
				continue
			}
			if oldIn {
				oldIn, _ = w.inScopes(w.Old, reqs)
			}
		}
		var unknown []string
		for _, n := range matched {
			if !kind.computed(n) {
				unknown = append(unknown, n)
			}
		}
		if len(unknown) > 0 {
			notPredicted("the ResourceQuota %s limits %s, which ssa-diff does not compute: the write may exceed it", name, strings.Join(unknown, ","))
			continue
		}
		if w.is("", "Pod") {
			if missing := podMissingResources(w.Object, matched, podLevel); missing != "" {
				out.Refusal = w.forbidden("failed quota: %s: must specify %s", name, missing)
				return
			}
		}
		used := quantities(unstructured.NestedObject(q, "status", "used"))
		var noStats bool
		for _, n := range matched {
			if _, ok := used[n]; !ok {
				noStats = true
			}
		}
		if noStats {
			out.Refusal = w.forbidden("status unknown for quota: %s, resources: %s", name, strings.Join(matched, ","))
			return
		}
		relevant = append(relevant, pertinent{name: name, hard: hard, used: used, oldIn: oldIn})
	}
	if len(relevant) == 0 {
		return
	}
	// A create, and an update for the quotas the stored object was not in, is charged the
	// whole usage; an update for the others the difference, none where it is not positive.
	full := kind.usage(w.Object)
	delta := usage{}
	if !w.create() {
		old := kind.usage(w.Old)
		for n, q := range full {
			q = q.DeepCopy()
			if o, ok := old[n]; ok {
				q.Sub(o)
			}
			if q.Sign() > 0 {
				delta[n] = q
			}
		}
	}
	var refusals, counted []string
	for _, q := range relevant {
		charged := full
		if q.oldIn {
			charged = delta
		}
		requested := usage{}
		for n, v := range charged {
			if v.IsZero() {
				continue
			}
			if _, ok := q.hard[n]; ok {
				requested[n] = v
			}
		}
		var exceeded []string
		for n, v := range requested {
			total := q.used[n].DeepCopy()
			total.Add(v)
			if total.Cmp(q.hard[n]) > 0 {
				exceeded = append(exceeded, n)
			}
		}
		if len(exceeded) == 0 {
			if len(requested) > 0 {
				counted = append(counted, q.name)
			}
			continue
		}
		refusals = append(refusals, fmt.Sprintf("exceeded quota: %s, requested: %s, used: %s, limited: %s", q.name,
			printUsage(requested, exceeded), printUsage(q.used, exceeded), printUsage(q.hard, exceeded)))
	}
	if len(refusals) == 0 {
		c.charge(w.Namespace, counted, notPredicted)
		return
	}
	out.Refusal = w.forbidden("%s", refusals[0])
	if len(refusals) > 1 {
		notPredicted("%d ResourceQuotas would refuse the write: the server names the first it reads (its cache's order), here the first by name", len(refusals))
	}
}

// charge notes the write admitted against the quotas counted; a quota this run has
// already counted another write against is said: the server counts each write against the
// usage the earlier ones left, in the order they are sent.
func (c *Chain) charge(ns string, quotas []string, notPredicted func(string, ...any)) {
	c.chargedMu.Lock()
	defer c.chargedMu.Unlock()
	if c.charged == nil {
		c.charged = map[string]int{}
	}
	for _, q := range quotas {
		key := ns + "/" + q
		if c.charged[key] > 0 {
			notPredicted("the ResourceQuota %s counts %d other write%s of this run: the server counts each against the usage the earlier ones left; ssa-diff counts each against the quota's status as read", q, c.charged[key], map[bool]string{true: "", false: "s"}[c.charged[key] == 1])
		}
		c.charged[key]++
	}
}

// printUsage is a usage restricted to names, as the server prints it: name=quantity,
// sorted by name, comma-separated.
func printUsage(u usage, names []string) string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	parts := make([]string, 0, len(sorted))
	for _, n := range sorted {
		if q, ok := u[n]; ok {
			parts = append(parts, n+"="+q.String())
		}
	}
	return strings.Join(parts, ",")
}

// podComputed are the resource names of a Pod this port computes.
var podComputed = map[string]bool{
	"pods": true, "count/pods": true, "cpu": true, "memory": true, "ephemeral-storage": true,
	"requests.cpu": true, "requests.memory": true, "requests.ephemeral-storage": true,
	"limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true,
}

func podQuotaComputed(n string) bool { return podComputed[n] }

// podQuotaMatches: the names the server's Pod evaluator counts — those computed here, and
// hugepages, extended resources requested (requests.NAME of a resource outside
// kubernetes.io) and device classes.
func podQuotaMatches(n string) bool {
	if podComputed[n] || strings.HasPrefix(n, "hugepages-") || strings.HasPrefix(n, "requests.hugepages-") {
		return true
	}
	rest, ok := strings.CutPrefix(n, "requests.")
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, "deviceclass.resource.kubernetes.io/") {
		return true
	}
	domain, _, qualified := strings.Cut(rest, "/")
	return qualified && domain != "kubernetes.io" && !strings.HasSuffix(domain, ".kubernetes.io")
}

// podQuotaUsage is a Pod's usage: one pod, and its requests and limits of cpu, memory and
// ephemeral storage as the scheduler sums them (its containers, and its init containers
// where they need more: a regular one alone, beside the sidecars started before it; the
// sidecars added to the containers), with the Pod's overhead on top.
func podQuotaUsage(obj map[string]any, podLevel bool) usage {
	spec := unstructured.Object(obj, "spec")
	u := usage{"count/pods": *resource.NewQuantity(1, resource.DecimalSI)}
	if phase := unstructured.Str(unstructured.Object(obj, "status"), "phase"); phase == "Succeeded" || phase == "Failed" {
		return u
	}
	u["pods"] = *resource.NewQuantity(1, resource.DecimalSI)
	for _, field := range []string{"requests", "limits"} {
		total := podResources(spec, field, podLevel)
		for _, r := range []string{"cpu", "memory", "ephemeral-storage"} {
			q, ok := total[r]
			if !ok {
				continue
			}
			u[field+"."+r] = q
			if field == "requests" {
				u[r] = q
			}
		}
	}
	return u
}

// podResources sums a Pod's requests or limits (field) over its containers.
func podResources(spec map[string]any, field string, podLevel bool) map[string]resource.Quantity {
	sum := map[string]resource.Quantity{}
	add := func(to, from map[string]resource.Quantity) {
		for k, v := range from {
			q := to[k].DeepCopy()
			q.Add(v)
			to[k] = q
		}
	}
	atLeast := func(to, from map[string]resource.Quantity) {
		for k, v := range from {
			if q, ok := to[k]; !ok || v.Cmp(q) > 0 {
				to[k] = v.DeepCopy()
			}
		}
	}
	of := func(ctr map[string]any) map[string]resource.Quantity {
		return quantities(unstructured.NestedObject(ctr, "resources", field))
	}
	for _, ctr := range unstructured.Objects(spec, "containers") {
		add(sum, of(ctr))
	}
	sidecars, inits := map[string]resource.Quantity{}, map[string]resource.Quantity{}
	for _, ctr := range unstructured.Objects(spec, "initContainers") {
		own := of(ctr)
		if unstructured.Str(ctr, "restartPolicy") == "Always" {
			add(sum, own)
			add(sidecars, own)
			atLeast(inits, sidecars)
			continue
		}
		need := map[string]resource.Quantity{}
		add(need, own)
		add(need, sidecars)
		atLeast(inits, need)
	}
	atLeast(sum, inits)
	// Pod-level resources (with PodLevelResources, on from 1.34) stand for the
	// containers' cpu and memory (and hugepages): the requests when the pod states
	// requests, the limits when it states any (component-helpers' PodRequests, PodLimits).
	if podLevel && podLevelSet(spec, field) {
		for k, v := range quantities(unstructured.NestedObject(spec, "resources", field)) {
			if podLevelResource(k) {
				sum[k] = v.DeepCopy()
			}
		}
	}
	for k, v := range quantities(unstructured.Object(spec, "overhead")) {
		// The overhead adds to every request, and to the limits set (not zero).
		if q, ok := sum[k]; field == "requests" || ok && !q.IsZero() {
			q = q.DeepCopy()
			q.Add(v)
			sum[k] = q
		}
	}
	return sum
}

// podLevelResource: a resource pod-level resources may state.
func podLevelResource(name string) bool {
	return name == "cpu" || name == "memory" || strings.HasPrefix(name, "hugepages-")
}

// podLevelSet reports whether the pod's pod-level resources count for its requests (field
// "requests": it states a request of a pod-level resource) or limits (field "limits", or
// "" for either: it states a request or limit of one).
func podLevelSet(spec map[string]any, field string) bool {
	fields := []string{"requests", "limits"}
	if field == "requests" {
		fields = fields[:1]
	}
	for _, f := range fields {
		for k := range unstructured.NestedObject(spec, "resources", f) {
			if podLevelResource(k) {
				return true
			}
		}
	}
	return false
}

// podMissingResources is the server's words for the cpu and memory resources a quota
// limits (matched) that a container or init container does not state, or "".
func podMissingResources(obj map[string]any, matched []string, podLevel bool) string {
	required := map[string]bool{}
	for _, n := range matched {
		switch n {
		case "cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory":
			required[n] = true
		}
	}
	spec := unstructured.Object(obj, "spec")
	if len(required) == 0 || podLevel && podLevelSet(spec, "") {
		// A pod stating pod-level resources need not state them per container.
		return ""
	}
	missing := map[string][]string{}
	for _, field := range []string{"containers", "initContainers"} {
		for _, ctr := range unstructured.Objects(spec, field) {
			has := map[string]bool{}
			for _, f := range []string{"requests", "limits"} {
				for r := range unstructured.NestedObject(ctr, "resources", f) {
					if r == "cpu" || r == "memory" {
						has[f+"."+r] = true
						if f == "requests" {
							has[r] = true
						}
					}
				}
			}
			for r := range required {
				if !has[r] {
					missing[r] = append(missing[r], unstructured.Str(ctr, "name"))
				}
			}
		}
	}
	if len(missing) == 0 {
		return ""
	}
	var names []string
	for r := range missing {
		names = append(names, r)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, r := range names {
		ctrs := missing[r]
		slices.Sort(ctrs)
		ctrs = slices.Compact(ctrs)
		parts = append(parts, r+" for: "+strings.Join(ctrs, ","))
	}
	return strings.Join(parts, "; ")
}

// podTerminating: the Pod has an activeDeadlineSeconds (the Terminating scope).
func podTerminating(obj map[string]any) bool {
	v, ok := unstructured.Int(unstructured.Nested(obj, "spec", "activeDeadlineSeconds"))
	return ok && v >= 0
}

// serviceQuotaUsage is a Service's usage: one service, a load balancer for type
// LoadBalancer, and a node port per port for NodePort and LoadBalancer (only the ports
// given one when a LoadBalancer allocates none).
func serviceQuotaUsage(obj map[string]any) usage {
	spec := unstructured.Object(obj, "spec")
	ports := unstructured.Objects(spec, "ports")
	one := *resource.NewQuantity(1, resource.DecimalSI)
	u := usage{"count/services": one, "services": one, "services.loadbalancers": {Format: resource.DecimalSI},
		"services.nodeports": {Format: resource.DecimalSI}}
	switch unstructured.Str(spec, "type") {
	case "NodePort":
		u["services.nodeports"] = *resource.NewQuantity(int64(len(ports)), resource.DecimalSI)
	case "LoadBalancer":
		n := len(ports)
		if alloc, ok := spec["allocateLoadBalancerNodePorts"].(bool); ok && !alloc {
			n = 0
			for _, p := range ports {
				if np := unstructured.Nested(p, "nodePort"); np != nil && fmt.Sprint(np) != "0" {
					n++
				}
			}
		}
		u["services.nodeports"] = *resource.NewQuantity(int64(n), resource.DecimalSI)
		u["services.loadbalancers"] = one
	}
	return u
}

const storageClassSuffix = ".storageclass.storage.k8s.io/"

// claimQuotaMatches: the names the server's claim evaluator counts.
func claimQuotaMatches(n string) bool {
	switch n {
	case "persistentvolumeclaims", "count/persistentvolumeclaims", "requests.storage":
		return true
	}
	return strings.HasSuffix(n, storageClassSuffix+"persistentvolumeclaims") || strings.HasSuffix(n, storageClassSuffix+"requests.storage") ||
		strings.Contains(n, "volumeattributesclass")
}

// claimQuotaUsage is a claim's usage: one claim (and one of its class), its requested
// storage in whole bytes (and that of its class).
func claimQuotaUsage(obj map[string]any) usage {
	one := *resource.NewQuantity(1, resource.DecimalSI)
	u := usage{"persistentvolumeclaims": one, "count/persistentvolumeclaims": one}
	spec := unstructured.Object(obj, "spec")
	class := unstructured.Str(spec, "storageClassName")
	if _, set := spec["storageClassName"]; !set {
		class = unstructured.Str(unstructured.Object(unstructured.Object(obj, "metadata"), "annotations"), "volume.beta.kubernetes.io/storage-class")
	}
	if class != "" {
		u[class+storageClassSuffix+"persistentvolumeclaims"] = one
	}
	if q, ok := quantities(unstructured.NestedObject(spec, "resources", "requests"))["storage"]; ok {
		// What the claim was allocated counts when it is more (a failed expansion).
		if a, ok := quantities(unstructured.NestedObject(obj, "status", "allocatedResources"))["storage"]; ok && a.Cmp(q) > 0 {
			q = a
		}
		q.RoundUp(0)
		u["requests.storage"] = q
		if class != "" {
			u[class+storageClassSuffix+"requests.storage"] = q
		}
	}
	return u
}

// podLevelResources reports whether the cluster's minor counts pod-level resources
// (PodLevelResources on).
func (c *Chain) podLevelResources() bool {
	return c.cfg.enabled(features.PodLevelResources)
}
