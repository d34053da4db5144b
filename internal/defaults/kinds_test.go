package defaults

import (
	"strings"
	"testing"
)

// A release's kinds are searched by bisection: the generator must write them sorted and
// without duplicates, and every entry must be found under its own apiVersion and kind.
func TestReleaseKindsSorted(t *testing.T) {
	for _, r := range generatedReleases {
		kinds := r.kinds()
		if len(kinds) == 0 {
			t.Errorf("1.%d: no kinds", r.minor)
		}
		for i, e := range kinds {
			key := e.key()
			if i > 0 && kinds[i-1].key() >= key {
				t.Errorf("1.%d: kinds not sorted at %q after %q", r.minor, key, kinds[i-1].key())
			}
			cut := strings.LastIndexByte(key, '/')
			got, ok := Release{&r}.rootType(key[:cut], key[cut+1:])
			if !ok || got != e.typ {
				t.Errorf("1.%d: rootType(%q) = %d, %t; want %d", r.minor, key, got, ok, e.typ)
			}
		}
		if _, ok := (Release{&r}).rootType("apps/v1", "NoSuchKind"); ok {
			t.Errorf("1.%d: an unknown kind is found", r.minor)
		}
	}
}
