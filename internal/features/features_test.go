package features

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/server/version"
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
			v := version.Minor(34 + i)
			if got := Defaults(v).Enabled(c.gate); got != want {
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
	s := Defaults(version.Minor(35))
	if s.Enabled(StrictIPCIDRValidation) || !s.With(StrictIPCIDRValidation, true).Enabled(StrictIPCIDRValidation) {
		t.Error("With does not turn the gate on")
	}
	if Defaults(version.Minor(37)).With(StrictIPCIDRValidation, false).Enabled(StrictIPCIDRValidation) {
		t.Error("With does not turn the gate off")
	}
	if !Known(version.Minor(37), MaxUnavailableStatefulSet) {
		t.Error("1.37 does not know MaxUnavailableStatefulSet")
	}
}
