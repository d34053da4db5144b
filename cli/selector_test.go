package cli

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
)

// FuzzSelector reads any text as a kubectl label selector: nothing panics, an error names
// the flag, and a selector that parses matches the same labels twice and matches the same
// once printed back and read again.
func FuzzSelector(f *testing.F) {
	for _, s := range []string{"app=web", "a in (x, y),!b", "k notin (),n>3", "x==y,z!=w", "(", "a in (b", "!", ",", "a=b=c"} {
		f.Add(s, "app", "web")
	}
	f.Fuzz(func(t *testing.T, sel, key, value string) {
		s, err := parseSelector(sel)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--selector ") {
				t.Fatalf("error %q names no flag", err)
			}
			return
		}
		set := labels.Set{key: value}
		first := s.Matches(set)
		if s.Matches(set) != first {
			t.Fatal("not deterministic")
		}
		again, err := parseSelector(s.String())
		if err != nil {
			t.Fatalf("%q printed as %q does not parse: %v", sel, s.String(), err)
		}
		if again.Matches(set) != first {
			t.Fatalf("%q printed as %q matches otherwise", sel, s.String())
		}
	})
}
