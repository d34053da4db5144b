package appliers

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

func objFromYAML(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test YAML: %v", err)
	}
	return m
}

// leafPaths prints the leaves of s as the server prints paths.
func leafPaths(s *smdpath.Set) []string {
	var out []string
	s.Leaves().Iterate(func(p smdpath.Path) { out = append(out, fieldpath.PathString(p)) })
	return out
}

// sameEntryIgnoringTime compares two entries, their fields as sets.
func sameEntryIgnoringTime(x, y fieldpath.Entry) bool {
	if x.Manager != y.Manager || x.Operation != y.Operation || x.APIVersion != y.APIVersion ||
		x.FieldsType != y.FieldsType || x.Subresource != y.Subresource {
		return false
	}
	sx, err1 := fieldpath.FieldsV1ToSet(x.FieldsV1)
	sy, err2 := fieldpath.FieldsV1ToSet(y.FieldsV1)
	if err1 != nil || err2 != nil {
		return string(x.FieldsV1) == string(y.FieldsV1)
	}
	return sx.Equals(sy)
}
