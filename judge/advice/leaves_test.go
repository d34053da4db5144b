package advice

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// FuzzLeavesBy holds leavesNotIn and leavesIn, one walk of both sets, to what they did
// before: every leaf of s (fieldpath.IterateLeaves, in its order) tested with other.Has.
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
	})
}
