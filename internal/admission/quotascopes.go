package admission

import (
	"fmt"
	"slices"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Quota scopes (rules.md admission.resource-quota-scopes): a quota with scopes — its
// spec.scopes, each meaning "the scope exists", and its scopeSelector's expressions —
// counts an object only when the object is in every one of them. The server's evaluators
// say which objects are: a Pod is Terminating with an activeDeadlineSeconds (0 or more),
// NotTerminating without one, BestEffort by its QoS class, NotBestEffort otherwise, in a
// PriorityClass scope by its priorityClassName (the name the Priority plugin left, set
// against the selector's values under the key PriorityClass), in CrossNamespacePodAffinity
// when a pod affinity or anti-affinity term names namespaces or a namespace selector; a
// PersistentVolumeClaim is in VolumeAttributesClass by the classes it names (spec, status,
// the modification's target). No other scope holds any object, and the other kinds are in
// no scope at all.

// scopeRequirement is one scope a quota asks for: a spec.scopes entry (operator Exists) or
// a scopeSelector expression.
type scopeRequirement struct {
	scope    string
	operator string
	values   []string
}

// quotaScopes are the scopes of a quota's spec; ok is false when the quota has none.
func quotaScopes(spec map[string]any) (reqs []scopeRequirement, ok bool) {
	for _, s := range unstructured.List(spec, "scopes") {
		if name, isStr := s.(string); isStr {
			reqs = append(reqs, scopeRequirement{scope: name, operator: "Exists"})
		}
	}
	sel := unstructured.Object(spec, "scopeSelector")
	for _, e := range unstructured.Objects(sel, "matchExpressions") {
		r := scopeRequirement{scope: unstructured.Str(e, "scopeName"), operator: unstructured.Str(e, "operator")}
		for _, v := range unstructured.List(e, "values") {
			if s, isStr := v.(string); isStr {
				r.values = append(r.values, s)
			}
		}
		reqs = append(reqs, r)
	}
	return reqs, len(reqs) > 0 || sel != nil
}

// inScopes reports whether obj (the write's object, or the stored one) is in every scope of reqs, as the kind's
// evaluator decides; an error says a selector the server could not parse either.
func (w Write) inScopes(obj map[string]any, reqs []scopeRequirement) (bool, error) {
	for _, r := range reqs {
		var in bool
		var err error
		switch {
		case w.is("", "Pod"):
			in, err = podInScope(obj, r)
		case w.is("", "PersistentVolumeClaim"):
			in, err = claimInScope(obj, r)
		}
		if err != nil || !in {
			return false, err
		}
	}
	return true, nil
}

func podInScope(pod map[string]any, r scopeRequirement) (bool, error) {
	spec := unstructured.Object(pod, "spec")
	switch r.scope {
	case "Terminating":
		return podTerminating(pod), nil
	case "NotTerminating":
		return !podTerminating(pod), nil
	case "BestEffort":
		return podBestEffort(pod), nil
	case "NotBestEffort":
		return !podBestEffort(pod), nil
	case "PriorityClass":
		class := unstructured.Str(spec, "priorityClassName")
		if r.operator == "Exists" {
			return class != "", nil
		}
		var names []string
		if class != "" {
			names = []string{class}
		}
		return selects(r, names)
	case "CrossNamespacePodAffinity":
		return crossNamespaceAffinity(spec), nil
	}
	return false, nil
}

func claimInScope(claim map[string]any, r scopeRequirement) (bool, error) {
	if r.scope != "VolumeAttributesClass" {
		return false, nil
	}
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	add(unstructured.Str(unstructured.Object(claim, "spec"), "volumeAttributesClassName"))
	status := unstructured.Object(claim, "status")
	add(unstructured.Str(status, "currentVolumeAttributesClassName"))
	add(unstructured.Str(unstructured.Object(status, "modifyVolumeStatus"), "targetVolumeAttributesClassName"))
	if r.operator == "Exists" {
		return len(names) > 0, nil
	}
	return selects(r, names)
}

// selects is the scope as a label selector over a set holding the key r.scope with each
// of names as its value in turn (an empty set when there is none): true when one matches.
func selects(r scopeRequirement, names []string) (bool, error) {
	match := func(has bool, value string) (bool, error) {
		switch r.operator {
		case "In":
			return has && slices.Contains(r.values, value), nil
		case "NotIn":
			return !has || !slices.Contains(r.values, value), nil
		case "Exists":
			return has, nil
		case "DoesNotExist":
			return !has, nil
		}
		return false, fmt.Errorf("%q is not a valid scope selector operator", r.operator)
	}
	if len(names) == 0 {
		return match(false, "")
	}
	for _, n := range names {
		if ok, err := match(true, n); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// podBestEffort: the Pod's QoS class is BestEffort — the class its status holds (the
// strategy set it on create), else no container or init container (nor the pod-level
// resources) requests or limits cpu or memory.
func podBestEffort(pod map[string]any) bool {
	if q := unstructured.Str(unstructured.Object(pod, "status"), "qosClass"); q != "" {
		return q == "BestEffort"
	}
	spec := unstructured.Object(pod, "spec")
	named := func(res map[string]any) bool {
		for _, f := range []string{"requests", "limits"} {
			for r := range unstructured.Object(res, f) {
				if r == "cpu" || r == "memory" {
					return true
				}
			}
		}
		return false
	}
	if named(unstructured.Object(spec, "resources")) {
		return false
	}
	for _, k := range []string{"initContainers", "containers"} {
		for _, c := range unstructured.Objects(spec, k) {
			if named(unstructured.Object(c, "resources")) {
				return false
			}
		}
	}
	return true
}

// crossNamespaceAffinity: a pod affinity or anti-affinity term, required or preferred,
// names namespaces or a namespace selector.
func crossNamespaceAffinity(spec map[string]any) bool {
	aff := unstructured.Object(spec, "affinity")
	cross := func(term map[string]any) bool {
		return len(unstructured.List(term, "namespaces")) > 0 || term["namespaceSelector"] != nil
	}
	for _, k := range []string{"podAffinity", "podAntiAffinity"} {
		a := unstructured.Object(aff, k)
		for _, t := range unstructured.Objects(a, "requiredDuringSchedulingIgnoredDuringExecution") {
			if cross(t) {
				return true
			}
		}
		for _, t := range unstructured.Objects(a, "preferredDuringSchedulingIgnoredDuringExecution") {
			if cross(unstructured.Object(t, "podAffinityTerm")) {
				return true
			}
		}
	}
	return false
}
