package defaults

import (
	"strings"
	"testing"
)

// A release's kinds are searched by bisection: the generator must write them sorted and
// without duplicates, and every entry must be found under its own apiVersion and kind.
func TestReleaseKindsSorted(t *testing.T) {
	for _, r := range generatedReleases {
		if len(r.kinds) == 0 {
			t.Errorf("1.%d: no kinds", r.minor)
		}
		for i, e := range r.kinds {
			if i > 0 && r.kinds[i-1].key >= e.key {
				t.Errorf("1.%d: kinds not sorted at %q after %q", r.minor, e.key, r.kinds[i-1].key)
			}
			cut := strings.LastIndexByte(e.key, '/')
			got, ok := Release{&r}.rootType(e.key[:cut], e.key[cut+1:])
			if !ok || got != e.typ {
				t.Errorf("1.%d: rootType(%q) = %d, %t; want %d", r.minor, e.key, got, ok, e.typ)
			}
		}
		if _, ok := (Release{&r}).rootType("apps/v1", "NoSuchKind"); ok {
			t.Errorf("1.%d: an unknown kind is found", r.minor)
		}
	}
}
