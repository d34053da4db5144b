package defaults_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// The model's PrepareForCreate and PrepareForUpdate default the object they are given in
// place (defaults.Release.DefaultOwned): the registry's rules must copy what they take
// from the stored object and from the decoded body, or the defaulting would rewrite the
// caller's objects. For every built-in kind at every minor, through the main resource and
// the subresources whose rules restore from the stored object, on objects built at random
// (neither canonical nor defaulted, so that the defaulting changes what it is given): old
// and decoded are left as they were.
func TestPrepareLeavesOldAndDecodedAlone(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 6))
	for _, m := range kube.Minors() {
		r := defaults.MustFor(m)
		reg := schema.MustNewRegistry(m)
		model := kubeapiserver.MustNew(kubeapiserver.Config{Minor: m})
		for _, key := range defaults.KindKeys(r) {
			i := strings.LastIndexByte(key, '/')
			av, kind := key[:i], key[i+1:]
			typ, ok := reg.Lookup(schema.GVKFromAPIVersionKind(av, kind))
			if !ok {
				continue
			}
			for range 4 {
				for _, sub := range []string{"", "status", "resize", "ephemeralcontainers", "create"} {
					old := defaults.RandomObject(r, rng, av, kind)
					decoded := defaults.RandomObject(r, rng, av, kind)
					obj := defaults.RandomObject(r, rng, av, kind)
					oldCopy, decodedCopy := unstructured.DeepCopyObject(old), unstructured.DeepCopyObject(decoded)
					if sub == "create" {
						_ = model.PrepareForCreate(typ, decoded, obj)
					} else {
						_ = model.PrepareForUpdate(typ, sub, decoded, obj, old)
					}
					if !reflect.DeepEqual(old, oldCopy) {
						t.Fatalf("%s %s %q: the stored object changed:\n%s", m, key, sub, testkit.Diff(oldCopy, old))
					}
					if !reflect.DeepEqual(decoded, decodedCopy) {
						t.Fatalf("%s %s %q: the decoded body changed:\n%s", m, key, sub, testkit.Diff(decodedCopy, decoded))
					}
				}
			}
		}
	}
}
