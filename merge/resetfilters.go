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
func resetFilters(v kube.Minor, reg *schema.Registry, t *schema.Type, subresource string) map[smdpath.APIVersion]smdpath.Filter {
	paths := server.ResetFields(v, t, subresource)
	if len(paths) == 0 {
		return nil
	}
	sets := map[smdpath.APIVersion]*smdpath.Set{smdpath.APIVersion(t.GVK.APIVersion()): smdpath.NewSet(paths...)}
	if !server.ResetAtEveryVersion(v, t, subresource) {
		return smdpath.NewExcludeFilterSetMap(sets)
	}
	for _, g := range reg.Versions(t.GVK.Group, t.GVK.Kind) {
		if t.Source != schema.SourceBuiltin {
			// A custom resource's /status tables are those of the versions with a status
			// subresource (their union, at each of them).
			if vt, ok := reg.Lookup(g); !ok || !vt.Status {
				continue
			}
		}
		sets[smdpath.APIVersion(g.APIVersion())] = smdpath.NewSet(paths...)
	}
	return smdpath.NewExcludeFilterSetMap(sets)
}
