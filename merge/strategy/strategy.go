package strategy

import (
	"fmt"
	"net/netip"
	"reflect"
	"strconv"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge/defaults"
)

// Create turns the result of field management on a missing object into the
// object kube-apiserver stores: defaulting, PrepareForCreate, and the
// defaulting that happens again when the object is read back from storage.
// obj is changed in place. Server-assigned values (uid, creationTimestamp,
// resourceVersion, a Service's clusterIP, …) are not invented: list them with
// Assigned.
func Create(apiVersion, kind string, obj map[string]any) error {
	if err := defaults.Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForCreate(apiVersion, kind, obj)
	return defaults.Default(apiVersion, kind, obj)
}

// Update turns the result of field management on an existing object (obj)
// into the object kube-apiserver stores, given the stored object old (as a
// GET returned it): defaulting, BeforeUpdate/PrepareForUpdate for the main
// resource, and defaulting again. obj is changed in place; old is not.
func Update(apiVersion, kind string, obj, old map[string]any) error {
	if err := defaults.Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForUpdate(apiVersion, kind, obj, old)
	return defaults.Default(apiVersion, kind, obj)
}

// UpdateStatus is Update for a write through the /status subresource.
func UpdateStatus(apiVersion, kind string, obj, old map[string]any) error {
	if err := defaults.Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForStatusUpdate(apiVersion, kind, obj, old)
	return defaults.Default(apiVersion, kind, obj)
}

// PrepareForCreate applies the registry rules of a create to a defaulted
// object: generation 1 for kinds that track it, status cleared for kinds with
// a status subresource (with the few values a strategy sets, such as a Pod's
// phase), a Namespace's kubernetes finalizer, a DaemonSet's template
// generation annotation, and the values a Service's allocator derives from a
// given clusterIP.
func PrepareForCreate(apiVersion, kind string, obj map[string]any) {
	r := RulesFor(apiVersion, kind)
	meta := ensureObject(obj, "metadata")
	if r.Generation != NoGeneration {
		meta["generation"] = int64(1)
	}
	if r.StatusReset {
		obj["status"] = map[string]any{}
	}
	switch groupOf(apiVersion) + "/" + kind {
	case "/Pod":
		obj["status"] = map[string]any{"phase": "Pending", "qosClass": podQOS(object(obj, "spec"))}
	case "/Namespace":
		obj["status"] = map[string]any{"phase": "Active"}
		spec := ensureObject(obj, "spec")
		if !containsString(list(spec, "finalizers"), "kubernetes") {
			spec["finalizers"] = append(list(spec, "finalizers"), "kubernetes")
		}
	case "/PersistentVolume":
		// lastPhaseTransitionTime is stamped with the time: see Assigned.
		obj["status"] = map[string]any{"phase": "Pending"}
	case "/Service":
		deriveServiceIPs(ensureObject(obj, "spec"))
	case "apps/DaemonSet":
		if templateGeneration(meta) < 1 {
			setAnnotation(meta, daemonSetTemplateGeneration, "1")
		}
	}
}

// daemonSetTemplateGeneration is the annotation through which apps/v1 stores
// a DaemonSet's internal spec.templateGeneration.
const daemonSetTemplateGeneration = "deprecated.daemonset.template.generation"

// PrepareForUpdate applies rest.BeforeUpdate and the main-resource
// PrepareForUpdate to obj, the defaulted new object, given the stored old:
// generation restored and bumped by the kind's rule, status (and the other
// fields a main-resource write may not change) restored from old.
func PrepareForUpdate(apiVersion, kind string, obj, old map[string]any) {
	r := RulesFor(apiVersion, kind)
	meta := ensureObject(obj, "metadata")
	oldMeta := object(old, "metadata")
	restore(meta, oldMeta, "generation")
	if r.StatusReset {
		restore(obj, old, "status")
	}
	if r.SpecFrozenOnUpdate {
		restore(obj, old, "spec")
	}
	gk := groupOf(apiVersion) + "/" + kind
	switch gk {
	case "/Namespace":
		restore(ensureObject(obj, "spec"), object(old, "spec"), "finalizers")
	case "/Service":
		keepAllocated(ensureObject(obj, "spec"), object(old, "spec"))
	case "/Secret":
		if str(obj, "type") == "" {
			restore(obj, old, "type")
		}
	case "apps/DaemonSet":
		tg := templateGeneration(oldMeta)
		if !unstructured.Equal(path(obj, "spec", "template"), path(old, "spec", "template")) {
			tg++
		}
		if tg > 0 {
			setAnnotation(meta, daemonSetTemplateGeneration, strconv.FormatInt(tg, 10))
		}
	}
	changed := false
	switch r.Generation {
	case SpecGeneration:
		changed = !unstructured.Equal(obj["spec"], old["spec"])
	case SpecOrAnnotationsGeneration:
		changed = !unstructured.Equal(obj["spec"], old["spec"]) || !reflect.DeepEqual(meta["annotations"], oldMeta["annotations"])
	case WebhooksGeneration:
		changed = !unstructured.Equal(obj["webhooks"], old["webhooks"])
	case TemplateGeneration:
		changed = !unstructured.Equal(obj["template"], old["template"])
	case AllButMetadataGeneration:
		changed = !unstructured.Equal(meta["labels"], oldMeta["labels"])
		for k, v := range obj {
			if k != "metadata" && !unstructured.Equal(v, old[k]) {
				changed = true
			}
		}
		for k := range old {
			if _, ok := obj[k]; !ok && k != "metadata" {
				changed = true
			}
		}
	}
	if changed {
		g, _ := asInt(meta["generation"])
		meta["generation"] = g + 1
	}
}

// PrepareForStatusUpdate applies the /status strategy: everything but status
// (and the metadata a status write may change) comes from old.
func PrepareForStatusUpdate(apiVersion, kind string, obj, old map[string]any) {
	meta := ensureObject(obj, "metadata")
	restore(meta, object(old, "metadata"), "generation")
	for k := range obj {
		if k != "status" && k != "metadata" && k != "apiVersion" && k != "kind" {
			delete(obj, k)
		}
	}
	for k, v := range old {
		if k != "status" && k != "metadata" && k != "apiVersion" && k != "kind" {
			obj[k] = unstructured.DeepCopy(v)
		}
	}
	if groupOf(apiVersion)+"/"+kind == "apps/Deployment" {
		restore(meta, object(old, "metadata"), "labels")
	}
}

// templateGeneration reads a DaemonSet's template generation annotation.
func templateGeneration(meta map[string]any) int64 {
	s, _ := object(meta, "annotations")[daemonSetTemplateGeneration].(string)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func setAnnotation(meta map[string]any, k, v string) {
	ensureObject(meta, "annotations")[k] = v
}

// deriveServiceIPs fills what the Service IP allocator derives from a given
// clusterIP: clusterIPs, ipFamilies and the SingleStack policy. Without a
// clusterIP these depend on the cluster and are reported by Assigned.
func deriveServiceIPs(spec map[string]any) {
	if str(spec, "type") == "ExternalName" {
		return
	}
	ip := str(spec, "clusterIP")
	if ip == "" || ip == "None" {
		if ip == "None" && len(list(spec, "clusterIPs")) == 0 {
			spec["clusterIPs"] = []any{"None"}
		}
		return
	}
	if len(list(spec, "clusterIPs")) == 0 {
		spec["clusterIPs"] = []any{ip}
	}
	if spec["ipFamilyPolicy"] == nil && len(list(spec, "clusterIPs")) == 1 {
		spec["ipFamilyPolicy"] = "SingleStack"
	}
	if len(list(spec, "ipFamilies")) == 0 {
		var fams []any
		for _, s := range list(spec, "clusterIPs") {
			a, err := netip.ParseAddr(fmt.Sprint(s))
			if err != nil {
				return
			}
			if a.Is4() {
				fams = append(fams, "IPv4")
			} else {
				fams = append(fams, "IPv6")
			}
		}
		spec["ipFamilies"] = fams
	}
}

// podQOS computes a Pod's QoS class from its (defaulted) containers, as
// qos.GetPodQOS does for container-level resources: BestEffort without any
// cpu or memory request or limit, Guaranteed when every container limits cpu
// and memory with requests equal to limits, Burstable otherwise.
func podQOS(spec map[string]any) string {
	any, guaranteed := false, true
	for _, key := range []string{"initContainers", "containers"} {
		for _, c := range objects(spec, key) {
			res := object(c, "resources")
			req, lim := object(res, "requests"), object(res, "limits")
			for _, r := range []string{"cpu", "memory"} {
				if isPositive(req[r]) || isPositive(lim[r]) {
					any = true
				}
				if !isPositive(lim[r]) || (req[r] != nil && req[r] != lim[r]) {
					guaranteed = false
				}
			}
		}
	}
	switch {
	case !any:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}

func isPositive(v any) bool {
	s, ok := v.(string)
	return ok && s != "" && s != "0"
}

// keepAllocated follows the Service registry's patchAllocatedValues and
// IP-family handling on update: values the server allocated and the new
// object leaves unset are kept (cluster IPs and their families, node ports
// matched by port name, the health-check node port).
func keepAllocated(spec, old map[string]any) {
	if old == nil {
		return
	}
	if str(spec, "type") != "ExternalName" && str(old, "type") != "ExternalName" {
		if str(spec, "clusterIP") == "" {
			restore(spec, old, "clusterIP")
		}
		if len(list(spec, "clusterIPs")) == 0 && len(list(old, "clusterIPs")) > 0 {
			restore(spec, old, "clusterIPs")
		}
		if unstructured.Equal(spec["clusterIPs"], old["clusterIPs"]) {
			if len(list(spec, "ipFamilies")) == 0 {
				restore(spec, old, "ipFamilies")
			}
			if spec["ipFamilyPolicy"] == nil {
				restore(spec, old, "ipFamilyPolicy")
			}
		}
	}
	nodePorts := func(s map[string]any) bool {
		t := str(s, "type")
		if t == "NodePort" {
			return true
		}
		alloc, set := s["allocateLoadBalancerNodePorts"].(bool)
		return t == "LoadBalancer" && (alloc || !set)
	}
	if nodePorts(spec) && nodePorts(old) {
		used := map[int64]bool{}
		byName := map[string]int64{}
		for _, p := range objects(old, "ports") {
			n, _ := asInt(p["nodePort"])
			byName[str(p, "name")] = n
		}
		oldUsed := map[int64]bool{}
		for _, n := range byName {
			oldUsed[n] = true
		}
		for _, p := range objects(spec, "ports") {
			if n, _ := asInt(p["nodePort"]); n != 0 && oldUsed[n] {
				used[n] = true
			}
		}
		for _, p := range objects(spec, "ports") {
			if n, _ := asInt(p["nodePort"]); n == 0 {
				if v := byName[str(p, "name")]; v != 0 && !used[v] {
					p["nodePort"] = v
				}
			}
		}
	}
	if str(spec, "type") == "LoadBalancer" && str(spec, "externalTrafficPolicy") == "Local" &&
		str(old, "type") == "LoadBalancer" && str(old, "externalTrafficPolicy") == "Local" {
		if n, _ := asInt(spec["healthCheckNodePort"]); n == 0 {
			restore(spec, old, "healthCheckNodePort")
		}
	}
}
