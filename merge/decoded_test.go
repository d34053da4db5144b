package merge_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// ManagedFieldsDecoded hands out the live object's decoded managedFields for those very
// entries only: what fieldpath.Decode gives them, and nothing for any other entries.
func TestManagedFieldsDecoded(t *testing.T) {
	engine := merge.New(schema.MustNewRegistry(kube.Newest()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Newest()}))
	live := decode(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"n","uid":"u","resourceVersion":"1","creationTimestamp":"2026-12-01T09:00:00Z",
	  "managedFields":[{"manager":"ci","operation":"Apply","apiVersion":"v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}},
	    {"manager":"edit","operation":"Update","apiVersion":"v1","time":"2026-12-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:b":{}}}}]},
	  "data":{"a":"1","b":"2"}}`)
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	liveEntries, _, err := fieldpath.EntriesOf(live)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fieldpath.Decode(liveEntries)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, manifest string
		action         merge.Action
	}{
		{"unchanged", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"n"},"data":{"a":"1"}}`, merge.ActionUnchanged},
		{"update", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"n"},"data":{"a":"3"}}`, merge.ActionUpdate},
	} {
		res, err := engine.Apply(merge.Request{Live: live, Object: decode(c.manifest), Manager: "ci", Now: now})
		if err != nil || res.Action != c.action {
			t.Fatalf("%s: %v, %v", c.name, res.Action, err)
		}
		got, ok := res.ManagedFieldsDecoded(liveEntries)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded live entries %v, %+v; want %+v", c.name, ok, got, want)
		}
		if c.action == merge.ActionUnchanged {
			if _, ok := res.ManagedFieldsDecoded(res.ManagedFields); !ok {
				t.Errorf("%s: the result's entries are the live ones, not handed out", c.name)
			}
		} else if _, ok := res.ManagedFieldsDecoded(res.ManagedFields); ok {
			t.Errorf("%s: handed out the live entries' decoding for the result's", c.name)
		}
		other := append([]fieldpath.Entry(nil), liveEntries...)
		later := other[1].Time.Add(time.Second)
		other[1].Time = &later
		if _, ok := res.ManagedFieldsDecoded(other); ok {
			t.Errorf("%s: handed out a decoding for entries of another time", c.name)
		}
		other[1].Time, other[1].FieldsV1 = liveEntries[1].Time, []byte(`{"f:data":{"f:c":{}}}`)
		if _, ok := res.ManagedFieldsDecoded(other); ok {
			t.Errorf("%s: handed out a decoding for entries of other fields", c.name)
		}
	}
	var none *merge.Result
	if _, ok := none.ManagedFieldsDecoded(liveEntries); ok {
		t.Error("a nil result handed out a decoding")
	}
}
