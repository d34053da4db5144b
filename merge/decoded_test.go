package merge_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// ManagedFieldsDecoded hands out the decoded managedFields of the live object and of the
// result for those very entries only (times aside): what fieldpath.Decode gives them, and
// nothing for any other entries.
func TestManagedFieldsDecoded(t *testing.T) {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
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
		// The result's entries (the live ones when nothing changes, else those the request
		// encoded), as they are and as the result's object holds them.
		objEntries, _, err := fieldpath.EntriesOf(res.Object)
		if err != nil {
			t.Fatal(err)
		}
		for _, entries := range [][]fieldpath.Entry{res.ManagedFields, objEntries} {
			got, ok := res.ManagedFieldsDecoded(entries)
			want, err := fieldpath.Decode(entries)
			if !ok || err != nil {
				t.Fatalf("%s: the result's entries not handed out (%v, %v)", c.name, ok, err)
			}
			if d := decodingDiff(got, want); d != "" {
				t.Errorf("%s: the result's entries: %s", c.name, d)
			}
		}
		other := append([]fieldpath.Entry(nil), liveEntries...)
		later := other[1].Time.Add(time.Second)
		other[1].Time = &later
		// Times are the entries' own, as decoding's are.
		if got, ok := res.ManagedFieldsDecoded(other); ok {
			want, _ := fieldpath.Decode(other)
			if d := decodingDiff(got, want); d != "" {
				t.Errorf("%s: entries of another time: %s", c.name, d)
			}
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

// decodingDiff says how two decodings of the same entries differ in what readers of them
// see: identities, versions, kinds of entry, times, sets (as compared, printed and
// encoded, leaves included); "" when they do not.
func decodingDiff(got, want fieldpath.Managed) string {
	if len(got.Fields) != len(want.Fields) || len(got.Times) != len(want.Times) {
		return fmt.Sprintf("%d sets and %d times, want %d and %d", len(got.Fields), len(got.Times), len(want.Fields), len(want.Times))
	}
	for key, w := range want.Fields {
		g, ok := got.Fields[key]
		if !ok {
			return "no set for " + key
		}
		if g.APIVersion() != w.APIVersion() || g.Applied() != w.Applied() {
			return fmt.Sprintf("%s: %s applied=%v, want %s applied=%v", key, g.APIVersion(), g.Applied(), w.APIVersion(), w.Applied())
		}
		gj, _ := g.Set().ToJSON()
		wj, _ := w.Set().ToJSON()
		if !g.Set().Equals(w.Set()) || g.Set().String() != w.Set().String() || g.Set().Leaves().String() != w.Set().Leaves().String() || string(gj) != string(wj) {
			return fmt.Sprintf("%s: set %s, want %s", key, g.Set(), w.Set())
		}
		gt, wt := got.Times[key], want.Times[key]
		if (gt == nil) != (wt == nil) || gt != nil && !gt.Equal(*wt) {
			return fmt.Sprintf("%s: time %v, want %v", key, gt, wt)
		}
	}
	return ""
}
