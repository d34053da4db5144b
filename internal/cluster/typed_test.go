package cluster

import (
	"bytes"
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

// ListJSON writes what json.Encoder, indenting as kubectl does, writes of the same List,
// byte for byte, for any objects that are JSON.
func FuzzListJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}],"c":"<&>\u2028"}`, " {\"kind\":\"X\",\"metadata\":{\"name\":\"a\"}}\n", `{"n":1e400,"s":"\\"","e":[],"o":{}}`} {
		f.Add(s)
	}
	rec := &Record{APIVersion: RecordAPIVersion, Kind: RecordKind, Metadata: RecordMetadata{Name: "live-state"}, Namespace: "shop",
		Errors: []RecordedObject{{APIVersion: "v1", Kind: "ConfigMap", Name: "a", Message: "answered <html> & more"}}}
	f.Fuzz(func(t *testing.T, obj string) {
		if !json.Valid([]byte(obj)) {
			return
		}
		objects := []json.RawMessage{json.RawMessage(obj), json.RawMessage(`{"second":true}`)}
		got, err := ListJSON(rec, objects)
		if err != nil {
			t.Fatal(err)
		}
		items := []any{rec}
		for _, o := range objects {
			items = append(items, o)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "    ")
		if err := enc.Encode(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("ListJSON:\n%s\njson.Encoder:\n%s", got, want.Bytes())
		}
	})
}
