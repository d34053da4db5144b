package server

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// ResetFields is the reset table of an endpoint of a kube-apiserver of minor v, the registry
// strategies' (rules.md sub.reset-fields): the fields a write through it never owns and never
// conflicts on, at the versions ResetAtEveryVersion says.
func ResetFields(v kube.Minor, t *schema.Type, subresource string) []smdpath.Path {
	p := smdpath.MakePathOrDie
	switch {
	case subresource == "status" && t.Source != schema.SourceBuiltin && v.Before(36):
		// Before 1.36 a custom resource's /status reset spec alone (its strategy still
		// puts the old metadata back: RestoreResetFields).
		return []smdpath.Path{p("spec")}
	case subresource == "status" && t.Source == schema.SourceBuiltin && t.GVK.Group == "apiextensions.k8s.io" && t.Resource == "customresourcedefinitions" &&
		v.Before(36):
		// Before 1.36 a CRD's /status reset metadata too (the strategy never put it back:
		// what a /status write sends of metadata is stored, and owned by no one).
		return []smdpath.Path{p("metadata"), p("spec")}
	}
	return resetFields(t, subresource)
}

// ResetAtEveryVersion reports whether an endpoint's reset fields hold at every version of
// the kind, or at the request's own version alone. The strategies of built-in kinds name
// each version they serve; the storage of a custom resource's version keys its main
// resource's reset fields by that version alone — status a manager owns at another version
// is compared, and conflicts, as any field — and before 1.35 its /status's too (1.35 gives
// the /status of every version with a status subresource the union of theirs; a version
// without one has none).
func ResetAtEveryVersion(v kube.Minor, t *schema.Type, subresource string) bool {
	if t.Source == schema.SourceBuiltin {
		return true
	}
	return subresource == "status" && v.AtLeast(35)
}

// resetFields is the reset table of 1.36 and later (ResetFields has the earlier minors').
func resetFields(t *schema.Type, subresource string) []smdpath.Path {
	p := smdpath.MakePathOrDie
	crd := t.Source != schema.SourceBuiltin
	key := t.GVK.Group + "/" + t.Resource
	switch subresource {
	case "":
		if key == "certificates.k8s.io/certificatesigningrequests" {
			return []smdpath.Path{p("spec"), p("status")}
		}
		if t.Status {
			return []smdpath.Path{p("status")}
		}
		return nil
	case "status":
		if crd {
			return []smdpath.Path{p("metadata"), p("spec")}
		}
		switch key {
		case "apps/deployments":
			return []smdpath.Path{p("spec"), p("metadata", "labels")}
		case "/pods":
			return []smdpath.Path{p("spec"), p("metadata", "deletionTimestamp"), p("metadata", "ownerReferences")}
		case "certificates.k8s.io/certificatesigningrequests":
			return []smdpath.Path{p("spec"), p("status", "conditions")}
		case "admissionregistration.k8s.io/validatingadmissionpolicies",
			"admissionregistration.k8s.io/mutatingadmissionpolicies",
			"flowcontrol.apiserver.k8s.io/flowschemas",
			"flowcontrol.apiserver.k8s.io/prioritylevelconfigurations",
			"storage.k8s.io/volumeattachments",
			"resource.k8s.io/resourceclaims":
			return []smdpath.Path{p("metadata"), p("spec")}
		}
		return []smdpath.Path{p("spec")}
	case "approval":
		return []smdpath.Path{p("spec"), p("status", "certificate")}
	}
	return nil
}

// RestoreResetFields puts the old values of an endpoint's reset fields back into obj, as
// the registry strategies do on update (rules.md sub.reset-fields), managedFields aside. What
// the strategies put back is what the latest minor's reset fields name: the reset fields
// earlier minors had otherwise (ResetFields) differ in ownership alone.
func RestoreResetFields(t *schema.Type, subresource string, obj, old map[string]any) {
	for _, p := range resetFields(t, subresource) {
		restorePath(obj, old, p)
	}
}

// HoldsResetFields reports whether obj sets any of an endpoint's reset fields: when it sets
// none, RestoreResetFields with no old object leaves it as it is.
func HoldsResetFields(t *schema.Type, subresource string, obj map[string]any) bool {
	for _, p := range resetFields(t, subresource) {
		m := obj
		for i, pe := range p {
			v, ok := m[*pe.FieldName]
			if !ok {
				break
			}
			if i == len(p)-1 {
				return true
			}
			if m, _ = v.(map[string]any); m == nil {
				break
			}
		}
	}
	return false
}

func restorePath(obj, old map[string]any, p smdpath.Path) {
	for i, pe := range p {
		name := *pe.FieldName
		if i == len(p)-1 {
			if name == "metadata" {
				// Everything but managedFields comes back.
				mf, hasMF := unstructured.Object(obj, "metadata")["managedFields"]
				if ov, ok := old[name]; ok {
					obj[name] = unstructured.DeepCopy(ov)
				} else {
					delete(obj, name)
				}
				// The new managedFields stand, also when there are none.
				if hasMF {
					unstructured.EnsureObject(obj, "metadata")["managedFields"] = mf
				} else if md := unstructured.Object(obj, "metadata"); md != nil {
					delete(md, "managedFields")
				}
				return
			}
			if ov, ok := old[name]; ok {
				obj[name] = unstructured.DeepCopy(ov)
			} else {
				delete(obj, name)
			}
			return
		}
		next, _ := obj[name].(map[string]any)
		oldNext, _ := old[name].(map[string]any)
		if next == nil {
			if oldNext == nil {
				return
			}
			next = map[string]any{}
			obj[name] = next
		}
		if oldNext == nil {
			oldNext = map[string]any{}
		}
		obj, old = next, oldNext
	}
}
