package admission

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/server"
)

// runtimeClass is RuntimeClass's mutation (rules.md admission.runtime-class): a Pod created
// naming a RuntimeClass gets the class's overhead (403 when it sets another), the class's
// nodeSelector merged into its own (403 on a key with another value) and the class's
// tolerations merged into its own. A class the cluster does not have is 403. It runs when
// the state holds RuntimeClasses or the Pod names one.
func (c *Chain) runtimeClass(w Write, out *server.Admission) {
	class, ok := c.podRuntimeClass(w, out)
	if !ok || class == nil {
		return
	}
	spec := unstructured.EnsureObject(w.Object, "spec")
	if podFixed := unstructured.NestedObject(class, "overhead", "podFixed"); podFixed != nil {
		if have := unstructured.Object(spec, "overhead"); len(have) > 0 && !sameQuantities(have, podFixed) {
			out.Refusal = w.forbidden("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead")
			return
		}
		spec["overhead"] = unstructured.DeepCopy(podFixed)
	}
	scheduling := unstructured.Object(class, "scheduling")
	if scheduling == nil {
		return
	}
	classSelector := unstructured.Object(scheduling, "nodeSelector")
	if podSelector := unstructured.Object(spec, "nodeSelector"); podSelector == nil {
		if classSelector != nil {
			spec["nodeSelector"] = unstructured.DeepCopy(classSelector)
		}
	} else {
		for _, k := range unstructured.SortedKeys(classSelector) {
			cv, _ := classSelector[k].(string)
			if pv, ok := podSelector[k].(string); ok && pv != cv {
				out.Refusal = w.forbidden("conflict: runtimeClass.scheduling.nodeSelector[%s] = %s; pod.spec.nodeSelector[%s] = %s", k, cv, k, pv)
				return
			}
			podSelector[k] = cv
		}
	}
	if merged := mergeTolerations(unstructured.List(spec, "tolerations"), unstructured.List(scheduling, "tolerations")); len(merged) > 0 {
		// A copy: the class's tolerations are the cluster state's, and the write's object
		// is its own (the registry's defaulting rewrites it in place).
		spec["tolerations"] = unstructured.DeepCopy(merged)
	}
}

// validateRuntimeClass is RuntimeClass's validation: a Pod's overhead is its class's, and
// a Pod whose class defines none has none.
func (c *Chain) validateRuntimeClass(w Write, out *server.Admission) {
	class, ok := c.podRuntimeClass(w, out)
	if !ok {
		return
	}
	have := unstructured.NestedObject(w.Object, "spec", "overhead")
	if podFixed := unstructured.NestedObject(class, "overhead", "podFixed"); podFixed != nil {
		if !sameQuantities(have, podFixed) {
			out.Refusal = w.forbidden("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead")
		}
	} else if have != nil {
		out.Refusal = w.forbidden("pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead")
	}
}

// podRuntimeClass is the RuntimeClass a Pod create names (nil when it names none); ok is
// false when the write is not one the plugin looks at, or the class cannot be known (the
// state holds no RuntimeClass: said), or does not exist (refused).
func (c *Chain) podRuntimeClass(w Write, out *server.Admission) (map[string]any, bool) {
	if w.Subresource != "" || !w.create() || !w.is("", "Pod") {
		return nil, false
	}
	name := unstructured.Str(unstructured.Object(w.Object, "spec"), "runtimeClassName")
	if name == "" {
		return nil, true
	}
	if !c.cfg.State.Knows("node.k8s.io", "RuntimeClass") {
		if c.cfg.State != nil {
			out.NotPredicted = append(out.NotPredicted, "the Pod names the RuntimeClass "+name+", which the cluster state does not hold: its overhead and scheduling are not predicted")
		}
		return nil, false
	}
	class, found := c.cfg.State.Get("node.k8s.io", "RuntimeClass", "", name)
	if !found {
		out.Refusal = w.forbidden("pod rejected: RuntimeClass %q not found", name)
		return nil, false
	}
	return class, true
}

// sameQuantities compares two ResourceLists by value.
func sameQuantities(a, b map[string]any) bool {
	qa, qb := quantities(a), quantities(b)
	if len(qa) != len(qb) || len(a) != len(b) {
		return false
	}
	for k, v := range qa {
		w, ok := qb[k]
		if !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

// mergeTolerations is the plugin's merge of the Pod's tolerations with the class's: each
// in order, unless one already kept, or a later different one, covers it.
func mergeTolerations(first, second []any) []any {
	all := append(append([]any{}, first...), second...)
	var merged []any
next:
	for i, t := range all {
		tm, _ := t.(map[string]any)
		for _, k := range merged {
			if superset(k.(map[string]any), tm) {
				continue next
			}
		}
		for _, later := range all[i+1:] {
			lm, _ := later.(map[string]any)
			if !unstructured.Equal(tm, lm) && superset(lm, tm) {
				continue next
			}
		}
		merged = append(merged, t)
	}
	return merged
}

// superset reports whether the toleration ss tolerates every taint t does.
func superset(ss, t map[string]any) bool {
	if unstructured.Equal(ss, t) {
		return true
	}
	str := unstructured.Str
	if str(t, "key") != str(ss, "key") && (str(ss, "key") != "" || str(ss, "operator") != "Exists") {
		return false
	}
	if str(t, "effect") != str(ss, "effect") && str(ss, "effect") != "" {
		return false
	}
	if str(ss, "effect") == "NoExecute" {
		if s, ok := unstructured.Int(ss["tolerationSeconds"]); ok {
			if ts, ok := unstructured.Int(t["tolerationSeconds"]); !ok || ts > s {
				return false
			}
		}
	}
	switch str(ss, "operator") {
	case "Equal", "":
		return str(t, "operator") == "Equal" && str(t, "value") == str(ss, "value")
	case "Exists":
		return true
	}
	return false
}
