package features

import (
	"slices"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
)

// The defaults of gates whose flips change answers, as each release's kube_features.go
// declares them (read by hand from the sources: k8s.io/kubernetes pkg/features at v1.34.4,
// v1.35.4, v1.36.3, v1.37.2, and k8s.io/apiextensions-apiserver pkg/features).
func TestDefaultsPerMinor(t *testing.T) {
	for _, c := range []struct {
		gate Gate
		want [4]bool // 1.34, 1.35, 1.36, 1.37
	}{
		{StrictIPCIDRValidation, [4]bool{false, false, true, true}},
		{MaxUnavailableStatefulSet, [4]bool{false, false, false, true}},
		{ImageVolume, [4]bool{false, true, true, true}},
		{SELinuxMount, [4]bool{false, false, false, true}},
		{RelaxedServiceNameValidation, [4]bool{false, false, true, true}},
		{CRDObservedGenerationTracking, [4]bool{false, false, true, true}},
		{CRDValidationRatcheting, [4]bool{true, true, true, true}},
	} {
		for i, want := range c.want {
			v := kube.Minor(34 + i)
			if got := mustDefaults(t, v).Enabled(c.gate); got != want {
				t.Errorf("%s at %s: %v, want %v", c.gate, v, got, want)
			}
		}
	}
}

func TestSetAndLookup(t *testing.T) {
	g, ok := Lookup("StrictIPCIDRValidation")
	if !ok || g != StrictIPCIDRValidation || g.String() != "StrictIPCIDRValidation" {
		t.Fatalf("Lookup: %v %v", g, ok)
	}
	if _, ok := Lookup("NoSuchGate"); ok {
		t.Error("Lookup found NoSuchGate")
	}
	s := mustDefaults(t, 35)
	if s.Enabled(StrictIPCIDRValidation) || !s.With(StrictIPCIDRValidation, true).Enabled(StrictIPCIDRValidation) {
		t.Error("With does not turn the gate on")
	}
	if mustDefaults(t, 37).With(StrictIPCIDRValidation, false).Enabled(StrictIPCIDRValidation) {
		t.Error("With does not turn the gate off")
	}
	if !Known(kube.Minor(37), MaxUnavailableStatefulSet) {
		t.Error("1.37 does not know MaxUnavailableStatefulSet")
	}
}

// TestLookupFindsEveryGate: Lookup bisects the names, which holds while the generator
// numbers the gates in the order of their names: every gate's name is found as that gate,
// and a name between or around them is not.
func TestLookupFindsEveryGate(t *testing.T) {
	if !slices.IsSorted(gateNames[:]) {
		t.Fatal("the gates are not numbered in the order of their names")
	}
	for g := Gate(0); g < gateCount; g++ {
		if got, ok := Lookup(g.String()); !ok || got != g {
			t.Errorf("Lookup(%q) = %v, %v", g.String(), got, ok)
		}
		for _, near := range []string{g.String() + "X", g.String()[:len(g.String())-1], strings.ToLower(g.String())} {
			if got, ok := Lookup(near); ok && got.String() != near {
				t.Errorf("Lookup(%q) = %v", near, got)
			}
		}
	}
	for _, name := range []string{"", "A", "zzz", "\xff"} {
		if got, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) = %v", name, got)
		}
	}
}

func mustDefaults(t *testing.T, m kube.Minor) Set {
	t.Helper()
	s, ok := Defaults(m)
	if !ok {
		t.Fatalf("no feature gates of %s", m)
	}
	return s
}

// TestEveryMinorHasItsGates: the table describes every minor of kube.Minors (make generate
// writes it from kube/releases.txt), and no other: a minor outside it has no gates rather
// than another minor's.
func TestEveryMinorHasItsGates(t *testing.T) {
	for _, m := range kube.Minors() {
		if _, ok := Defaults(m); !ok {
			t.Errorf("no feature gates of %s: run make generate", m)
		}
	}
	if releaseCount != len(kube.Minors()) || oldestMinor != int(kube.Oldest()) {
		t.Errorf("the table describes %d releases from 1.%d; kube.Minors() lists %d from %s", releaseCount, oldestMinor, len(kube.Minors()), kube.Oldest())
	}
	for _, m := range []kube.Minor{0, kube.Oldest() - 1, kube.Newest() + 1} {
		if _, ok := Defaults(m); ok || Known(m, StrictIPCIDRValidation) {
			t.Errorf("%s has feature gates", m)
		}
	}
}
