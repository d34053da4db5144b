package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// ReadStored is obj, a live object of a built-in kind as a dump gives it, as kube-apiserver
// 1.34-1.37 reads it from storage and prints it; obj itself when that is what it says.
// obj is never changed. Two things a dump holds are not what the server holds:
//
//   - creationTimestamp: null in an embedded ObjectMeta (a pod template's, a Job
//     template's, a claim template's): servers before 1.34 printed the zero time as null
//     in every object with a template; 1.34 (kubernetes/kubernetes#130989) omits it
//     (metav1.ObjectMeta.CreationTimestamp is omitzero from k8s.io/apimachinery v0.34 to
//     v0.37 alike), so no supported minor holds or answers it. The null in a dump is the
//     older server's printing, not a field anybody could delete.
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
	if nullTime {
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
func (r Release) alwaysEncodesStatus(apiVersion, kind string) bool {
	i, ok := r.rootType(apiVersion, kind)
	if !ok {
		return false
	}
	for _, f := range generatedTypes[i].fields {
		if f.name == "status" {
			return generatedTypes[f.typ].kind == kindStruct && f.flags&omitZero == 0
		}
	}
	return false
}
