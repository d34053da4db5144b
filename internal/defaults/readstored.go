package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// ReadStored is obj, a live object of a built-in kind as a dump gives it, as the release's
// kube-apiserver reads it from storage and prints it; obj itself when that is what it says.
// obj is never changed. Two things a dump holds are not what the server holds:
//
//   - creationTimestamp: null in an embedded ObjectMeta (a pod template's, a Job
//     template's, a claim template's): servers before 1.34 printed the zero time as null
//     in every object with a template; 1.34 (kubernetes/kubernetes#130989) omits it
//     (metav1.ObjectMeta.CreationTimestamp is omitzero from k8s.io/apimachinery v0.34),
//     so a 1.34 or later server neither holds nor answers it: the null in a dump is an
//     older server's printing, not a field anybody could delete. A 1.32 or 1.33 server
//     prints it (its release's ObjectMeta says so: printsNullCreationTimestamp), so it is
//     kept.
//   - a missing status, where the kind's Go type always encodes one (a struct: at least
//     {}): a dump without it was trimmed by hand; the server still holds it.
func (r Release) ReadStored(apiVersion, kind string, obj map[string]any) map[string]any {
	nullTime := hasNullCreationTimestamp(obj, true)
	var status any
	if _, ok := obj["status"]; !ok && r.alwaysEncodesStatus(apiVersion, kind) {
		if empty, ok := r.EmptyObject(apiVersion, kind); ok {
			status = empty["status"]
		}
	}
	if !nullTime && status == nil {
		return obj
	}
	out := unstructured.DeepCopyObject(obj)
	if nullTime && !r.printsNullCreationTimestamp() {
		dropNullCreationTimestamp(out, true)
	}
	if status != nil {
		out["status"] = status
	}
	return out
}

// hasNullCreationTimestamp reports whether v holds, below its top level, a "metadata"
// map with creationTimestamp null (in a built-in kind, every field named metadata is an
// ObjectMeta or a ListMeta).
func hasNullCreationTimestamp(v any, top bool) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if md, ok := x.(map[string]any); ok && k == "metadata" && !top {
				if ts, ok := md["creationTimestamp"]; ok && ts == nil {
					return true
				}
			}
			if hasNullCreationTimestamp(x, false) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasNullCreationTimestamp(x, false) {
				return true
			}
		}
	}
	return false
}

func dropNullCreationTimestamp(v any, top bool) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if md, ok := x.(map[string]any); ok && k == "metadata" && !top {
				if ts, ok := md["creationTimestamp"]; ok && ts == nil {
					delete(md, "creationTimestamp")
				}
			}
			dropNullCreationTimestamp(x, false)
		}
	case []any:
		for _, x := range t {
			dropNullCreationTimestamp(x, false)
		}
	}
}

// alwaysEncodesStatus reports whether the kind's Go type has a status field that encoding
// never leaves out (a struct).
// printsNullCreationTimestamp reports whether the release prints the zero creationTimestamp
// of an embedded ObjectMeta as null: its ObjectMeta's creationTimestamp is not omitzero
// (Kubernetes 1.33 and older), read from a PodTemplate's template.
func (r Release) printsNullCreationTimestamp() bool {
	t, ok := r.rootType("v1", "PodTemplate")
	if !ok {
		return false
	}
	for _, name := range []string{"template", "metadata", "creationTimestamp"} {
		found := false
		for _, f := range generatedTypes[t].fields() {
			if f.name() == name {
				if name == "creationTimestamp" {
					return f.flags&omitZero == 0
				}
				t, found = f.typ, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return false
}

func (r Release) alwaysEncodesStatus(apiVersion, kind string) bool {
	i, ok := r.rootType(apiVersion, kind)
	if !ok {
		return false
	}
	for _, f := range generatedTypes[i].fields() {
		if f.name() == "status" {
			return generatedTypes[f.typ].kind == kindStruct && f.flags&omitZero == 0
		}
	}
	return false
}
