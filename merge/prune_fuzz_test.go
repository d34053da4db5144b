package merge_test

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/merge"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// FuzzPruneShortcut holds the apply's way past the prune (keepsEverything,
// merge/fieldapply.go) to the prune itself (pruneOneVersion, the updater's three walks)
// under real schemas (FuzzSetWalks' kinds and generator): a live object and an applied
// one mutated at random from the same base, the applier's last set made of parts of both
// objects' fields and of the named fields above them (as the kubectl client-side apply's
// and an update's entries hold them; apiVersion and kind too), another manager owning part
// of the live object.
// Whenever keepsEverything says the prune keeps the merged object whole, the prune must
// give it back unchanged and without error.
func FuzzPruneShortcut(f *testing.F) {
	reg, bases := walkFuzzKinds(f)
	for _, seed := range []string{"", "\x00", "\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01",
		"\x06\x01\x02\x03\x00\x00\x01\x00\x00\x00\x00\x00\x00\x01\x01", "\x05\x03\x04\x00\x01\x02\x05\x06\x07\x08"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &fuzzGen{data: data}
		base, typ := g.kind(reg, bases)
		if typ == nil {
			return
		}
		live, cfg := merge.FuzzCopy(base), merge.FuzzCopy(base)
		g.mutate(live)
		reorder(live, g)
		g.mutate(cfg)
		reorder(cfg, g)
		lv, err := typ.Parseable.FromUnstructured(live, typed.AllowDuplicates)
		if err != nil {
			return
		}
		cv, err := typ.Parseable.FromUnstructured(cfg)
		if err != nil {
			return
		}
		merged, err := lv.Merge(cv)
		if err != nil {
			return
		}
		set, err := cv.ToFieldSet()
		if err != nil {
			return
		}
		liveSet, err := lv.ToFieldSet()
		if err != nil {
			return
		}
		sc, tr := merged.Schema(), merged.TypeRef()
		last, other := smdpath.NewSet(), smdpath.NewSet()
		liveSet.EnsureNamedFieldsAreMembers(sc, tr).Iterate(func(p smdpath.Path) {
			if g.intn(4) == 0 {
				last.Insert(p)
			}
		})
		set.EnsureNamedFieldsAreMembers(sc, tr).Iterate(func(p smdpath.Path) {
			if g.intn(3) != 0 {
				last.Insert(p)
			}
		})
		liveSet.Iterate(func(p smdpath.Path) {
			if g.intn(3) == 0 {
				other.Insert(p)
			}
		})
		if last.Empty() || !merge.KeepsEverything(last, set, merged, cfg) {
			return
		}
		managers := smdpath.ManagedFields{
			"applier": smdpath.NewVersionedSet(set, "v", true),
			"other":   smdpath.NewVersionedSet(other, "v", false),
		}
		pruned, err := merge.PruneOneVersion(merged, managers, last)
		if err != nil {
			t.Fatalf("keepsEverything says the prune keeps everything, the prune fails: %v\nlast: %s\nlive: %s\napplied: %s", err, last, mustJSON(live), mustJSON(cfg))
		}
		if !reflect.DeepEqual(pruned.AsValue().Unstructured(), merged.AsValue().Unstructured()) {
			t.Fatalf("keepsEverything says the prune keeps everything, it does not\npruned: %s\nmerged: %s\nlast: %s\nnew: %s\nother: %s", mustJSON(pruned.AsValue().Unstructured()), mustJSON(merged.AsValue().Unstructured()), last, set, other)
		}
	})
}
