package cluster

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The items of a LIST get the apiVersion and kind of the list when they lack them; nothing
// else of them changes, and they stay valid JSON.
func FuzzTyped(f *testing.F) {
	for _, s := range []string{`{}`, `{ }`, `{"metadata":{"name":"a"},"data":{"k":"v"}}`, ` {"kind":"X"} `,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`, `{"n":1e400}`, `{"a":"\u2028"}`} {
		f.Add(s)
	}
	res := Resource{APIVersion: "apps/v1", Kind: "Deployment", Name: "deployments", Namespaced: true}
	f.Fuzz(func(t *testing.T, item string) {
		head, err := readHead([]byte(item))
		var before map[string]json.RawMessage
		if err != nil || json.Unmarshal([]byte(item), &before) != nil || !isObject([]byte(item)) {
			return
		}
		out := typed(json.RawMessage(item), head, res)
		var after map[string]json.RawMessage
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("typed(%q) = %q: %v", item, out, err)
		}
		for key, want := range map[string]string{"apiVersion": `"apps/v1"`, "kind": `"Deployment"`} {
			if _, ok := before[key]; !ok {
				if string(after[key]) != want {
					t.Fatalf("typed(%q) = %q: %s is not %s", item, out, key, want)
				}
				delete(after, key)
			}
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("typed(%q) = %q changed other members", item, out)
		}
	})
}
