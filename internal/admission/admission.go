package admission

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Write is the write an admission plugin looks at: the object's group and kind, the
// subresource written ("" for the main resource) and whether it creates the object.
type Write struct {
	Group, Kind string
	Subresource string
	Create      bool
}

// Result is what the admission chain says of a write.
type Result struct {
	// Forbidden, when not empty, is why a plugin refuses the write: the server answers
	// 403 Forbidden with `<resource> "<name>" is forbidden: <Forbidden>`.
	Forbidden string
}

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

// Admit runs the default admission plugins that change or refuse w, obj being the object
// about to be stored (changed in place) and old the stored one on an update (nil on a
// create).
func Admit(w Write, obj, old map[string]any) Result {
	if w.Subresource != "" {
		return Result{}
	}
	switch w.Group + "/" + w.Kind {
	case "/Pod":
		if msg := admitPriority(w, obj, old); msg != "" {
			return Result{Forbidden: msg}
		}
		if w.Create {
			addDefaultTolerations(obj)
		}
	case "/PersistentVolumeClaim":
		if w.Create {
			addFinalizer(obj, "kubernetes.io/pvc-protection")
		}
	case "/PersistentVolume":
		if w.Create {
			addFinalizer(obj, "kubernetes.io/pv-protection")
		}
	case "/Node":
		if w.Create {
			addNotReadyTaint(obj)
		}
	}
	return Result{}
}

// admitPriority is the Priority plugin on a Pod: the class's priority and preemption
// policy on a create, the stored ones kept on an update. A class the prediction cannot
// see leaves both unset (Assigned names them).
func admitPriority(w Write, obj, old map[string]any) string {
	spec := unstructured.Object(obj, "spec")
	if spec == nil {
		return ""
	}
	if !w.Create {
		oldSpec := unstructured.Object(old, "spec")
		for _, k := range []string{"priority", "preemptionPolicy"} {
			if v, ok := oldSpec[k]; ok && v != nil && spec[k] == nil {
				spec[k] = v
			}
		}
		return ""
	}
	priority, ok := classPriority(unstructured.Str(spec, "priorityClassName"))
	if !ok {
		return ""
	}
	if v, set := spec["priority"]; set && v != nil {
		if p, isInt := unstructured.Int(v); isInt && p != priority {
			return fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", p, priority)
		}
	}
	spec["priority"] = priority
	if v, set := spec["preemptionPolicy"]; set && v != nil {
		if p, _ := v.(string); p != preemptLowerPriority {
			return fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", p, preemptLowerPriority)
		}
	}
	spec["preemptionPolicy"] = preemptLowerPriority
	return ""
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
// priority and preemption policy of a Pod naming a class other than the built-in ones.
func Assigned(group, kind string, obj map[string]any) []string {
	if group != "" || kind != "Pod" {
		return nil
	}
	spec := unstructured.Object(obj, "spec")
	if _, known := classPriority(unstructured.Str(spec, "priorityClassName")); !known && spec["priority"] == nil {
		return []string{".spec.priority", ".spec.preemptionPolicy"}
	}
	return nil
}
