package advice

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// FuzzLeavesBy holds leavesNotIn, leavesIn and leavesSplit (both at once), one walk of
// both sets, to what they did before: every leaf of s (fieldpath.IterateLeaves, in its order) tested with other.Has.
func FuzzLeavesBy(f *testing.F) {
	f.Add(`{"f:metadata":{"f:labels":{".":{},"f:a":{},"f:b":{}}},"f:spec":{"f:ports":{"k:{\"port\":80}":{".":{},"f:port":{},"f:name":{}},"k:{\"port\":81}":{}}}}`,
		`{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:ports":{"k:{\"port\":80}":{"f:port":{}}},"f:replicas":{}}}`)
	f.Add(`{"f:a":{".":{},"f:b":{}},"f:c":{},"f:l":{"v:\"x\"":{},"i:0":{}}}`, `{"f:a":{},"f:l":{"v:\"x\"":{}}}`)
	f.Add(`{}`, `{"f:a":{}}`)
	f.Fuzz(func(t *testing.T, sText, otherText string) {
		s, err := fieldpath.FieldsV1ToSet([]byte(sText))
		if err != nil {
			return
		}
		other, err := fieldpath.FieldsV1ToSet([]byte(otherText))
		if err != nil {
			return
		}
		var wantIn, wantNotIn []smdpath.Path
		fieldpath.IterateLeaves(s, func(p smdpath.Path) {
			if other.Has(p) {
				wantIn = append(wantIn, p.Copy())
			} else {
				wantNotIn = append(wantNotIn, p.Copy())
			}
		})
		if got := leavesIn(s, other); !reflect.DeepEqual(got, wantIn) {
			t.Errorf("leavesIn = %v, want %v", got, wantIn)
		}
		if got := leavesNotIn(s, other); !reflect.DeepEqual(got, wantNotIn) {
			t.Errorf("leavesNotIn = %v, want %v", got, wantNotIn)
		}
		if in, notIn := leavesSplit(s, other, true, true); !reflect.DeepEqual(in, wantIn) || !reflect.DeepEqual(notIn, wantNotIn) {
			t.Errorf("leavesSplit = %v, %v; want %v, %v", in, notIn, wantIn, wantNotIn)
		}
	})
}

// FuzzRemovedLeaves holds removedLeaves, one walk of a set beside two objects, to what
// itemsRemoved did before: every leaf of the set (fieldpath.IterateLeaves, in its order)
// present in the live object and not in the written one.
func FuzzRemovedLeaves(f *testing.F) {
	f.Add(`{"spec":{"ports":[{"port":80,"name":"a"},{"port":81}],"l":["x","y"],"i":[1,2]},"metadata":{"labels":{"a":"1"}}}`,
		`{"spec":{"ports":[{"port":81}],"l":["y"]},"metadata":{}}`,
		`{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:ports":{"k:{\"port\":80}":{".":{},"f:name":{}},"k:{\"port\":81}":{"f:port":{}}},"f:l":{"v:\"x\"":{},"v:\"y\"":{}},"f:i":{"i:1":{}}}}`)
	f.Add(`{"a":{"b":1}}`, `{}`, `{"f:a":{".":{},"f:b":{}}}`)
	f.Fuzz(func(t *testing.T, liveText, afterText, fieldsV1 string) {
		var live, after map[string]any
		if json.Unmarshal([]byte(liveText), &live) != nil || json.Unmarshal([]byte(afterText), &after) != nil || live == nil || after == nil {
			return
		}
		s, err := fieldpath.FieldsV1ToSet([]byte(fieldsV1))
		if err != nil {
			return
		}
		var want, got []string
		fieldpath.IterateLeaves(s, func(p smdpath.Path) {
			if present(live, p) && !present(after, p) {
				want = append(want, p.String())
			}
		})
		removedLeaves(s, live, after, func(p smdpath.Path) { got = append(got, p.String()) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("removedLeaves = %v, want %v", got, want)
		}
	})
}
