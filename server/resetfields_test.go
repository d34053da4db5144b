package server

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
)

// TestHoldsResetFields: an object that holds none of an endpoint's reset fields is left
// as it is by RestoreResetFields with no old object, and one that holds one (managedFields
// aside) is not, for every built-in kind and subresource.
func TestHoldsResetFields(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	objects := []string{
		`{}`,
		`{"apiVersion":"v1","kind":"X","metadata":{"name":"a","namespace":"b"}}`,
		`{"metadata":{"name":"a","labels":{"app":"a"}},"spec":{"replicas":1}}`,
		`{"metadata":{"name":"a","ownerReferences":[]},"status":{"conditions":[]}}`,
		`{"metadata":{"deletionTimestamp":null},"status":{"certificate":"x"}}`,
		`{"metadata":"not an object","spec":"not an object either","status":1}`,
		`{"status":{}}`,
		`{"data":{"spec":"x","status":"y"}}`,
	}
	checked := 0
	for _, gvk := range reg.GVKs() {
		typ, ok := reg.Lookup(gvk)
		if !ok {
			continue
		}
		for _, sub := range []string{"", "status", "scale", "approval", "ephemeralcontainers"} {
			for _, text := range objects {
				obj := testkit.DecodeJSON(t, []byte(text)).(map[string]any)
				restored := unstructured.DeepCopy(obj).(map[string]any)
				RestoreResetFields(typ, sub, restored, map[string]any{})
				same := reflect.DeepEqual(obj, restored)
				if holds := HoldsResetFields(typ, sub, obj); holds == same {
					t.Errorf("%v /%s %s: HoldsResetFields = %t, but RestoreResetFields left it the same: %t", gvk, sub, text, holds, same)
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d cases checked", checked)
	}
}
