package features

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
)

// The refusals are those a 1.35.4 kube-apiserver printed for the same --feature-gates
// values (its "command failed" err).
func TestParseAndApply(t *testing.T) {
	for _, c := range []struct {
		value, err string
		on, off    []Gate
	}{
		{value: "MutatingAdmissionPolicy=true", on: []Gate{MutatingAdmissionPolicy}},
		{value: " ImageVolume = false ,,", off: []Gate{ImageVolume}},
		{value: "ImageVolume=false,ImageVolume=1", on: []Gate{ImageVolume}},
		{value: "", on: []Gate{ImageVolume}},
		{value: "Foo=true", err: "unrecognized feature gate: Foo"},
		{value: "MutatingAdmissionPolicy", err: "missing bool value for MutatingAdmissionPolicy"},
		{value: "MutatingAdmissionPolicy=yes", err: `invalid value of MutatingAdmissionPolicy=yes, err: strconv.ParseBool: parsing "yes": invalid syntax`},
		{value: "MutatingAdmissionPolicy=true,Bar=false", err: "unrecognized feature gate: Bar"},
		{value: "CRDValidationRatcheting=false", err: "cannot set feature gate CRDValidationRatcheting to false, feature is locked to true"},
		{value: "CRDValidationRatcheting=true", on: []Gate{CRDValidationRatcheting}},
		{value: "CRDValidationRatcheting=false,CustomResourceFieldSelectors=false",
			err: "[cannot set feature gate CRDValidationRatcheting to false, feature is locked to true, cannot set feature gate CustomResourceFieldSelectors to false, feature is locked to true]"},
	} {
		s, err := applyFlag(35, c.value)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %q", c.value, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.value, err)
			continue
		}
		for _, g := range c.on {
			if !s.Enabled(g) {
				t.Errorf("%q: %s off", c.value, g)
			}
		}
		for _, g := range c.off {
			if s.Enabled(g) {
				t.Errorf("%q: %s on", c.value, g)
			}
		}
	}
}

// A gate of a later release is unknown to an earlier one: the server refuses it.
func TestApplyUnknownAtMinor(t *testing.T) {
	var later Gate
	found := false
	for g := Gate(0); g < gateCount; g++ {
		if Known(37, g) && !Known(34, g) {
			later, found = g, true
			break
		}
	}
	if !found {
		t.Skip("no gate added between 1.34 and 1.37")
	}
	if _, err := applyFlag(34, later.String()+"=true"); err == nil || err.Error() != "unrecognized feature gate: "+later.String() {
		t.Errorf("1.34 took %s: %v", later, err)
	}
	if _, err := applyFlag(37, later.String()+"=true"); err != nil {
		t.Errorf("1.37 refused %s: %v", later, err)
	}
}

func TestSettingsString(t *testing.T) {
	m, err := ParseSettings("b=false,a=1")
	if err != nil || m.String() != "a=true,b=false" {
		t.Errorf("%v %q", err, m.String())
	}
}

func applyFlag(v kube.Minor, value string) (Set, error) {
	m, err := ParseSettings(value)
	if err != nil {
		return Set{}, err
	}
	def, _ := Defaults(v)
	return def.Apply(v, m)
}

func FuzzParseSettings(f *testing.F) {
	for _, s := range []string{"", "A=true", " A = false ,,B=1", "A", "A=yes", "=", ",=,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		m, err := ParseSettings(value)
		if err != nil {
			return
		}
		again, err := ParseSettings(m.String())
		if err != nil {
			t.Fatalf("%q: its own spelling %q refused: %v", value, m.String(), err)
		}
		if again.String() != m.String() {
			t.Fatalf("%q: %q then %q", value, m.String(), again.String())
		}
		def, _ := Defaults(35)
		_, _ = def.Apply(35, m)
	})
}

// Every listed release has its gates locked to their defaults (each one so far locks some):
// a table generated before a release was listed leaves the newest ones empty, shifted.
func TestEveryReleaseLocksGates(t *testing.T) {
	for r := range locked {
		if len(locked[r]) == 0 || len(known[r]) == 0 {
			t.Errorf("release %d of %d: %d gates known, %d locked: make generate", r, len(locked), len(known[r]), len(locked[r]))
		}
	}
}
