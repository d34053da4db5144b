package appliers

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

// TestPruneSelector: kubectl's -l/--selector is read as kubectl reads it, apimachinery's
// label selector syntax (key=value, key!=value, key in (a,b), key notin (a), key, !key,
// key>n, key<n; comma-separated requirements).
func TestPruneSelector(t *testing.T) {
	set := map[string]string{"app": "web", "tier": "front", "n": "5"}
	for sel, want := range map[string]bool{
		"app=web": true, "app==web": true, "app!=web": false, "app=blog": false,
		"app,tier": true, "!app": false, "!missing": true, "missing": false,
		"app in (web, blog)": true, "app notin (web)": false, "tier notin (back)": true,
		"n>4": true, "n<5": false, "app=web,tier=back": false, "": true,
	} {
		s, err := parseSelector(sel)
		if err != nil {
			t.Errorf("%q: %v", sel, err)
			continue
		}
		if got := s.Matches(labels.Set(set)); got != want {
			t.Errorf("%q matches %v, want %v", sel, got, want)
		}
	}
	for _, bad := range []string{"app=web,", "a b=c", "n>x", "app in web"} {
		if _, err := parseSelector(bad); err == nil {
			t.Errorf("%q is accepted", bad)
		}
	}
}
