package merge

import "testing"

func TestSubresourcesPredicted(t *testing.T) {
	for _, s := range []string{"", "status", "scale", "resize", "ephemeralcontainers"} {
		if !PredictsSubresource(s) || ServedNotPredicted(s) {
			t.Errorf("%q: predicted %v, served but not predicted %v", s, PredictsSubresource(s), ServedNotPredicted(s))
		}
	}
	for _, s := range []string{"binding", "approval", "eviction", "finalize", "token", "log"} {
		if PredictsSubresource(s) {
			t.Errorf("%q is not predicted", s)
		}
		if ServedNotPredicted(s) != (s != "log") {
			t.Errorf("%q: served but not predicted %v", s, ServedNotPredicted(s))
		}
	}
}
