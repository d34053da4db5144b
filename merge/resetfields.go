package merge

import (
	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// resetPaths is the reset table of an endpoint (catalog J2, J3): the fields a write through
// it never owns, never conflicts on, and whose old values the registry puts back.
func resetPaths(t *schema.Type, subresource string) []smdpath.Path {
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

// resetFilters builds the per-apiVersion filters structured-merge-diff takes. Every served
// version of the kind gets the same table.
func resetFilters(reg *schema.Registry, t *schema.Type, subresource string) map[smdpath.APIVersion]smdpath.Filter {
	paths := resetPaths(t, subresource)
	if len(paths) == 0 {
		return nil
	}
	sets := map[smdpath.APIVersion]*smdpath.Set{smdpath.APIVersion(t.GVK.APIVersion()): smdpath.NewSet(paths...)}
	for _, g := range reg.Versions(t.GVK.Group, t.GVK.Kind) {
		sets[smdpath.APIVersion(g.APIVersion())] = smdpath.NewSet(paths...)
	}
	return smdpath.NewExcludeFilterSetMap(sets)
}
