package admission

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/server"
)

// The built-in priority classes kube-apiserver creates at start-up
// (pkg/apis/scheduling: SystemCriticalPriority and the two classes above it) and the
// priority of a Pod when no class is the global default.
const (
	systemClusterCritical   = "system-cluster-critical"
	systemNodeCritical      = "system-node-critical"
	systemCriticalPriority  = 2000000000
	noDefaultClassPriority  = 0
	preemptLowerPriority    = "PreemptLowerPriority"
	tolerationSecondsByDflt = 300
)

// priority is the Priority plugin (rules.md admission.priority).
func (c *Chain) priority(w Write, out *server.Admission) {
	if w.Subresource != "" || !w.is("", "Pod") {
		return
	}
	if msg := c.admitPriority(w.create(), w.Object, w.Old); msg != "" {
		out.Refusal = w.forbidden("%s", msg)
	}
}

// defaultTolerationSeconds is DefaultTolerationSeconds (rules.md admission.toleration-seconds).
func (c *Chain) defaultTolerationSeconds(w Write, _ *server.Admission) {
	if w.Subresource == "" && w.create() && w.is("", "Pod") {
		addDefaultTolerations(w.Object)
	}
}

// storageObjectInUseProtection is StorageObjectInUseProtection (rules.md admission.storage-protection).
func (c *Chain) storageObjectInUseProtection(w Write, _ *server.Admission) {
	if w.Subresource != "" || !w.create() {
		return
	}
	switch {
	case w.is("", "PersistentVolumeClaim"):
		addFinalizer(w.Object, "kubernetes.io/pvc-protection")
	case w.is("", "PersistentVolume"):
		addFinalizer(w.Object, "kubernetes.io/pv-protection")
	}
}

// taintNodesByCondition is TaintNodesByCondition (rules.md admission.node-not-ready).
func (c *Chain) taintNodesByCondition(w Write, _ *server.Admission) {
	if w.Subresource == "" && w.create() && w.is("", "Node") {
		addNotReadyTaint(w.Object)
	}
}

// admitPriority is the Priority plugin on a Pod: the class's priority and preemption
// policy on a create, the stored ones kept on an update. A class the prediction cannot
// see leaves both unset (Assigned names them).
func (c *Chain) admitPriority(create bool, obj, old map[string]any) string {
	spec := unstructured.Object(obj, "spec")
	if spec == nil {
		return ""
	}
	if !create {
		oldSpec := unstructured.Object(old, "spec")
		for _, k := range []string{"priority", "preemptionPolicy"} {
			if v, ok := oldSpec[k]; ok && v != nil && spec[k] == nil {
				spec[k] = v
			}
		}
		return ""
	}
	name := unstructured.Str(spec, "priorityClassName")
	class, found, known := c.priorityClass(name)
	if !known {
		return ""
	}
	if !found {
		return fmt.Sprintf("no PriorityClass with name %s was found", name)
	}
	if class.name != "" {
		spec["priorityClassName"] = class.name
	}
	if v, set := spec["priority"]; set && v != nil {
		if p, isInt := unstructured.Int(v); isInt && p != class.value {
			return fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", p, class.value)
		}
	}
	spec["priority"] = class.value
	if class.preemptionPolicy == "" {
		return ""
	}
	if v, set := spec["preemptionPolicy"]; set && v != nil {
		if p, _ := v.(string); p != class.preemptionPolicy {
			return fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", p, class.preemptionPolicy)
		}
	}
	spec["preemptionPolicy"] = class.preemptionPolicy
	return ""
}

// priorityClassOf is what a Pod gets from its class: the class's name (the global
// default's when the Pod names none), value and preemption policy.
type priorityClassOf struct {
	name             string
	value            int64
	preemptionPolicy string
}

// priorityClass is the class a Pod naming name gets: from the cluster's PriorityClasses
// when the state holds them (found false: there is no such class), else what every
// cluster has — the two system classes, and no global default. known is false for a class
// the prediction cannot see.
func (c *Chain) priorityClass(name string) (class priorityClassOf, found, known bool) {
	if c.cfg.State.Knows("scheduling.k8s.io", "PriorityClass") {
		if name == "" {
			var def map[string]any
			var defValue int64
			for _, pc := range c.cfg.State.List("scheduling.k8s.io", "PriorityClass", "") {
				v, _ := unstructured.Int(pc["value"])
				if g, _ := pc["globalDefault"].(bool); g && (def == nil || v < defValue) {
					def, defValue = pc, v
				}
			}
			if def == nil {
				return priorityClassOf{value: noDefaultClassPriority, preemptionPolicy: preemptLowerPriority}, true, true
			}
			return classFrom(def, true), true, true
		}
		pc, ok := c.cfg.State.Get("scheduling.k8s.io", "PriorityClass", "", name)
		if !ok {
			return priorityClassOf{}, false, true
		}
		return classFrom(pc, false), true, true
	}
	p, ok := classPriority(name)
	return priorityClassOf{value: p, preemptionPolicy: preemptLowerPriority}, ok, ok
}

func classFrom(pc map[string]any, named bool) priorityClassOf {
	v, _ := unstructured.Int(pc["value"])
	out := priorityClassOf{value: v, preemptionPolicy: unstructured.Str(pc, "preemptionPolicy")}
	if named {
		out.name = unstructured.Str(unstructured.Object(pc, "metadata"), "name")
	}
	return out
}

// classPriority is the priority a Pod naming class gets, when the prediction knows it:
// the built-in classes' and, for no class, a bare cluster's (no global default class).
// Both come with the policy PreemptLowerPriority, the classes' default.
func classPriority(class string) (int64, bool) {
	switch class {
	case "":
		return noDefaultClassPriority, true
	case systemClusterCritical:
		return systemCriticalPriority, true
	case systemNodeCritical:
		return systemCriticalPriority + 1000, true
	}
	return 0, false
}

// addDefaultTolerations is DefaultTolerationSeconds: a toleration of each of the not-ready
// and unreachable NoExecute taints the Pod does not tolerate already (a toleration with
// no key tolerates every taint, one with no effect every effect).
func addDefaultTolerations(obj map[string]any) {
	spec := unstructured.EnsureObject(obj, "spec")
	tolerations := unstructured.List(spec, "tolerations")
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		if tolerates(tolerations, key) {
			continue
		}
		tolerations = append(tolerations, map[string]any{
			"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": int64(tolerationSecondsByDflt),
		})
	}
	if len(tolerations) > 0 {
		spec["tolerations"] = tolerations
	}
}

func tolerates(tolerations []any, key string) bool {
	for _, t := range tolerations {
		m, _ := t.(map[string]any)
		k, e := unstructured.Str(m, "key"), unstructured.Str(m, "effect")
		if (k == key || k == "") && (e == "NoExecute" || e == "") {
			return true
		}
	}
	return false
}

// addFinalizer is StorageObjectInUseProtection: the protection finalizer, once.
func addFinalizer(obj map[string]any, finalizer string) {
	md := unstructured.EnsureObject(obj, "metadata")
	list := unstructured.List(md, "finalizers")
	for _, f := range list {
		if f == finalizer {
			return
		}
	}
	md["finalizers"] = append(list, finalizer)
}

// addNotReadyTaint is TaintNodesByCondition: a new Node is not ready until its kubelet
// says so; a taint with the same key and effect is enough.
func addNotReadyTaint(obj map[string]any) {
	spec := unstructured.EnsureObject(obj, "spec")
	taints := unstructured.List(spec, "taints")
	for _, t := range taints {
		m, _ := t.(map[string]any)
		if unstructured.Str(m, "key") == "node.kubernetes.io/not-ready" && unstructured.Str(m, "effect") == "NoSchedule" {
			return
		}
	}
	spec["taints"] = append(taints, map[string]any{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"})
}

// Assigned lists, as dotted paths, the fields of obj, the object a create of group and
// kind stores, that an admission plugin fills from objects the prediction cannot see: the
// priority and preemption policy of a Pod naming a class the cluster state does not say,
// the name of the ServiceAccount token volume (TokenVolumeStandIn in the prediction).
func (c *Chain) Assigned(group, kind string, obj map[string]any) []string {
	if group != "" || kind != "Pod" {
		return nil
	}
	out := tokenVolumeAssigned(obj)
	spec := unstructured.Object(obj, "spec")
	if _, _, known := c.priorityClass(unstructured.Str(spec, "priorityClassName")); !known && spec["priority"] == nil {
		out = append(out, ".spec.priority", ".spec.preemptionPolicy")
	}
	return out
}
