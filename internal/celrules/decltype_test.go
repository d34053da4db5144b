package celrules_test

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/celrules"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
)

// An int-or-string's size in cost estimates: the request's size (3,145,726) before 1.34
// whatever its maxLength, maxLength × 4 from 1.34 (the crdminors case
// cost-int-or-string-maxlength, recorded from 1.32 to 1.38).
func TestIntOrStringSizeByMinor(t *testing.T) {
	for _, c := range []struct {
		schema map[string]any
		minor  int
		want   int64
	}{
		{map[string]any{"x-kubernetes-int-or-string": true, "maxLength": int64(100)}, 32, 3145726},
		{map[string]any{"x-kubernetes-int-or-string": true, "maxLength": int64(100)}, 33, 3145726},
		{map[string]any{"x-kubernetes-int-or-string": true, "maxLength": int64(100)}, 34, 400},
		{map[string]any{"x-kubernetes-int-or-string": true, "maxLength": int64(100)}, 37, 400},
		{map[string]any{"x-kubernetes-int-or-string": true}, 33, 3145726},
		{map[string]any{"x-kubernetes-int-or-string": true}, 34, 3145726},
	} {
		s, err := crdschema.Parse(c.schema)
		if err != nil {
			t.Fatal(err)
		}
		if got := celrules.DeclType(kube.Minor(c.minor), s, false).MaxElements; got != c.want {
			t.Errorf("1.%d %v: MaxElements %d, want %d", c.minor, c.schema, got, c.want)
		}
	}
}
