package server

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// ResetFields is the reset table of an endpoint, the registry strategies' (rules.md
// sub.reset-fields): the fields a write through it never owns, never conflicts on, and whose
// old values the registry puts back.
func ResetFields(t *schema.Type, subresource string) []smdpath.Path {
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
// the registry strategies do on update (rules.md sub.reset-fields), managedFields aside.
func RestoreResetFields(t *schema.Type, subresource string, obj, old map[string]any) {
	for _, p := range ResetFields(t, subresource) {
		restorePath(obj, old, p)
	}
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
