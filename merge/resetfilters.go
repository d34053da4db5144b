package merge

import (
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// resetFilters builds the per-apiVersion filters structured-merge-diff takes, for the
// server of minor v: the request's version gets the endpoint's table, and every served
// version of the kind too where the server gives them the same (server.ResetAtEveryVersion;
// of a custom resource, every version with a status subresource).
func resetFilters(v kube.Minor, k *kindTypes, subresource string) map[smdpath.APIVersion]smdpath.Filter {
	t := k.typ
	paths := server.ResetFields(v, t, subresource)
	if len(paths) == 0 {
		return nil
	}
	sets := map[smdpath.APIVersion]*smdpath.Set{smdpath.APIVersion(t.GVK.APIVersion()): smdpath.NewSet(paths...)}
	if !server.ResetAtEveryVersion(v, t, subresource) {
		return smdpath.NewExcludeFilterSetMap(sets)
	}
	for _, vt := range k.versions {
		if t.Source != schema.SourceBuiltin && !vt.Status {
			// A custom resource's /status tables are those of the versions with a status
			// subresource (their union, at each of them).
			continue
		}
		sets[smdpath.APIVersion(vt.GVK.APIVersion())] = smdpath.NewSet(paths...)
	}
	return smdpath.NewExcludeFilterSetMap(sets)
}
