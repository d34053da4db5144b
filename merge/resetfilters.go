package merge

import (
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// resetFilters builds the per-apiVersion filters structured-merge-diff takes. Every served
// version of the kind gets the same table.
func resetFilters(reg *schema.Registry, t *schema.Type, subresource string) map[smdpath.APIVersion]smdpath.Filter {
	paths := server.ResetFields(t, subresource)
	if len(paths) == 0 {
		return nil
	}
	sets := map[smdpath.APIVersion]*smdpath.Set{smdpath.APIVersion(t.GVK.APIVersion()): smdpath.NewSet(paths...)}
	for _, g := range reg.Versions(t.GVK.Group, t.GVK.Kind) {
		sets[smdpath.APIVersion(g.APIVersion())] = smdpath.NewSet(paths...)
	}
	return smdpath.NewExcludeFilterSetMap(sets)
}
