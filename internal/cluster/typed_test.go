package cluster

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
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

// ListJSON writes a List json.Encoder would read back as the record and the objects, each
// object byte for byte as it was given (trimmed): its size in the List is its size as read.
func FuzzListJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}],"c":"<&>\u2028"}`, " {\"kind\":\"X\",\"metadata\":{\"name\":\"a\"}}\n", `{"n":1e400,"s":"\\"","e":[],"o":{}}`, "{\n  \"pretty\": [\n    1\n  ]\n}"} {
		f.Add(s)
	}
	rec := &Record{APIVersion: RecordAPIVersion, Kind: RecordKind, Metadata: RecordMetadata{Name: "live-state"}, Namespace: "shop",
		Errors: []RecordedObject{{APIVersion: "v1", Kind: "ConfigMap", Name: "a", Message: "answered <html> & more"}}}
	f.Fuzz(func(t *testing.T, obj string) {
		objects := []json.RawMessage{json.RawMessage(obj), json.RawMessage(`{"second":true}`)}
		got, err := ListJSON(rec, objects)
		if again, err2 := ListJSON(rec, objects); !bytes.Equal(got, again) || (err == nil) != (err2 == nil) {
			t.Fatalf("written twice: %q, then %q", got, again)
		}
		if !json.Valid([]byte(obj)) {
			if err == nil {
				t.Fatalf("an object that is not JSON was written: %q", obj)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			APIVersion, Kind string
			Metadata         map[string]any
			Items            []json.RawMessage
		}
		if err := json.Unmarshal(got, &list); err != nil {
			t.Fatalf("%v:\n%s", err, got)
		}
		if list.APIVersion != "v1" || list.Kind != "List" || len(list.Items) != 3 {
			t.Fatalf("%+v", list)
		}
		var back Record
		if err := json.Unmarshal(list.Items[0], &back); err != nil || !reflect.DeepEqual(&back, rec) {
			t.Errorf("the record read back: %+v, %v", back, err)
		}
		if string(list.Items[1]) != strings.Trim(obj, " \t\r\n") || string(list.Items[2]) != `{"second":true}` {
			t.Errorf("the objects read back: %s, %s", list.Items[1], list.Items[2])
		}
		if !bytes.Contains(got, append([]byte("        "), strings.Trim(obj, " \t\r\n")...)) {
			t.Errorf("the object is not on its own line:\n%s", got)
		}
	})
}
