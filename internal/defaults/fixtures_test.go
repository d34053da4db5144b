package defaults

import (
	"reflect"
	"sort"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Every object the server stored is a fixed point: normalising or defaulting
// it again changes nothing (the server itself re-defaults on every read).
func TestStoredObjectsAreFixedPoints(t *testing.T) {
	objs := testkit.StoredObjects(t)
	names := make([]string, 0, len(objs))
	for n := range objs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		obj := objs[name]
		av, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		if !newest().Known(av, kind) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			for _, step := range []struct {
				name string
				fn   func(string, string, map[string]any) error
			}{{"Normalize", newest().Normalize}, {"Default", newest().Default}} {
				got := unstructured.DeepCopy(obj).(map[string]any)
				if err := step.fn(av, kind, got); err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
				if !reflect.DeepEqual(got, obj) {
					t.Errorf("%s changed a stored object:\n%s", step.name, testkit.Diff(obj, got))
				}
			}
		})
	}
}
