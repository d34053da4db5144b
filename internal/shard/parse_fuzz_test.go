package shard

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; what it accepts is 1 ≤ I ≤ N ≤ MaxCount and prints back
// as it was written; what it refuses is an error that names the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1/1", "3/7", "0/3", "4/3", "1/1000", "1/1001", "01/3", "-1/3", "1/3/5", "", "/", "9999/9999", "1 /2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := Parse(s)
		if err != nil {
			if spec != (Spec{}) || !strings.Contains(err.Error(), fmt.Sprintf("%q", s)) {
				t.Fatalf("Parse(%q) = %v with error %v", s, spec, err)
			}
			return
		}
		if spec.Index < 1 || spec.Index > spec.Count || spec.Count > MaxCount {
			t.Fatalf("Parse(%q) = %v", s, spec)
		}
		if spec.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, spec.String())
		}
	})
}
