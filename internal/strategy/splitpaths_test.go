package strategy

import (
	"reflect"
	"strings"
	"testing"
)

// sameAsSplit fails t unless splitPaths(paths) is strings.Split of each path, each path's
// slice ending at its last step (appending to one leaves the next as it was).
func sameAsSplit(t *testing.T, paths []string) {
	t.Helper()
	got := splitPaths(paths)
	var want [][]string
	for _, p := range paths {
		want = append(want, strings.Split(p, "."))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("splitPaths(%q) = %q, want %q", paths, got, want)
	}
	for i := range got {
		if cap(got[i]) != len(got[i]) {
			t.Fatalf("splitPaths(%q): path %d has room for %d more steps", paths, i, cap(got[i])-len(got[i]))
		}
	}
}

func TestSplitPathsIsStringsSplit(t *testing.T) {
	for _, paths := range [][]string{nil, {""}, {"resources"}, {"volumes.*.emptyDir.mode", "a", "", "a..b", ".a", "a."},
		containerFields("lifecycle.stopSignal", "livenessProbe.grpc.mode")} {
		sameAsSplit(t, paths)
	}
}

// FuzzSplitPaths holds splitPaths to strings.Split on any paths (split at NUL).
func FuzzSplitPaths(f *testing.F) {
	f.Add("volumes.*.emptyDir.mode\x00resources")
	f.Add("..\x00\x00a.b.")
	f.Fuzz(func(t *testing.T, s string) {
		sameAsSplit(t, strings.Split(s, "\x00"))
	})
}

// TestUsedByKeepsThePaths: a feature kept in use by other fields too is in use by its own
// paths and the others, and still drops its own only.
func TestUsedByKeepsThePaths(t *testing.T) {
	f := newOffFeature("PodLevelResources", "resources").usedBy("containers.*.resources.limits", "overhead")
	want := [][]string{{"resources"}, {"containers", "*", "resources", "limits"}, {"overhead"}}
	if !reflect.DeepEqual(f.usedPaths, want) || !reflect.DeepEqual(f.paths, want[:1]) {
		t.Fatalf("paths %q, used %q", f.paths, f.usedPaths)
	}
	if !f.holds(map[string]any{"overhead": map[string]any{"cpu": "1"}}) || f.holds(map[string]any{"other": 1}) {
		t.Error("holds does not read the other fields")
	}
}
