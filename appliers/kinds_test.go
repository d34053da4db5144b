package appliers

import (
	"strings"
	"testing"
)

// TestKindsBuildTheirAppliers: each applier of the list builds, from the settings of a user
// who said nothing, an Applier of its name, forcing as its Kind says, as its default
// manager; names and options are unique across the list.
func TestKindsBuildTheirAppliers(t *testing.T) {
	names, options := map[string]bool{}, map[string]string{}
	for _, k := range Kinds() {
		if k.Name == "" || names[k.Name] || k.Usage == "" || k.Apply == "" || k.ForceHint == "" || k.New == nil {
			t.Errorf("%q: a name given twice, or its usage, advice wording or constructor missing: %+v", k.Name, k)
		}
		names[k.Name] = true
		s := Settings{Options: map[string][]string{}}
		for _, o := range k.Options {
			if other, ok := options[o.Name]; ok {
				t.Errorf("--%s is an option of %s and %s", o.Name, other, k.Name)
			}
			options[o.Name] = k.Name
			if o.Default != "" {
				s.Options[o.Name] = []string{o.Default}
				if err := o.CheckOption(o.Default); err != nil {
					t.Errorf("--%s refuses its default: %v", o.Name, err)
				}
			}
		}
		a, err := k.New(s)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		want := k.Manager
		if want == "" {
			want = "kubectl"
		}
		if a.Name() != k.Name || a.AlwaysForces() != k.AlwaysForces || a.Manager() != want {
			t.Errorf("%s builds %s (forces %v, manager %q); its Kind says forces %v, manager %q", k.Name, a.Name(), a.AlwaysForces(), a.Manager(), k.AlwaysForces, want)
		}
		if k.Prune == "" {
			s.Prune.On = true
			if _, err := k.New(s); err == nil || !strings.Contains(err.Error(), "prunes nothing") {
				t.Errorf("%s prunes nothing, yet takes --prune: %v", k.Name, err)
			}
		}
	}
	if got := strings.Join(Names(), " "); got != "kubectl api argocd flux helm" {
		t.Errorf("Names() = %s", got)
	}
}

// TestSettingsChooseTheManager: the user's field manager wins, also an empty one given; else
// the applier's own.
func TestSettingsChooseTheManager(t *testing.T) {
	for _, c := range []struct {
		kind string
		s    Settings
		want string
	}{
		{"api", Settings{}, "kubectl"},
		{"api", Settings{Manager: "ctl", ManagerGiven: true}, "ctl"},
		{"api", Settings{Manager: "", ManagerGiven: true}, ""},
		{"argocd", Settings{}, ArgoCDManager},
		{"argocd", Settings{Manager: "me", ManagerGiven: true}, "me"},
		{"flux", Settings{}, FluxManager},
		{"kubectl", Settings{}, "kubectl"},
		{"helm", Settings{}, HelmManager},
	} {
		k, _ := KindOf(c.kind)
		a, err := k.New(c.s)
		if err != nil {
			t.Fatal(err)
		}
		got := a.Manager()
		if c.kind == "api" {
			got = a.(API).FieldManager
		}
		if got != c.want {
			t.Errorf("%s with %+v: manager %q, want %q", c.kind, c.s, got, c.want)
		}
	}
	if _, ok := KindOf("helm3"); ok {
		t.Error("KindOf(helm3) found an applier")
	}
}

// An applier's options are read for it alone: another applier's option given is refused,
// naming the applier it needs; every value is checked; the chosen applier's are returned.
func TestOptionValues(t *testing.T) {
	argo, _ := KindOf("argocd")
	kubectl, _ := KindOf("kubectl")
	given := map[string][]string{"argocd-app": {"shop"}}
	value := func(name string) []string { return given[name] }
	changed := func(name string) bool { return given[name] != nil }
	got, err := argo.OptionValues(changed, value)
	if err != nil || len(got["argocd-app"]) != 1 || got["argocd-app"][0] != "shop" {
		t.Errorf("argocd: %v, %v", got, err)
	}
	if _, err := kubectl.OptionValues(changed, value); err == nil || err.Error() != "--argocd-app needs --applier argocd" {
		t.Errorf("kubectl with --argocd-app: %v", err)
	}
}

// TestSummaryNamesEveryApplier: Summary describes each applier, in the list's order, by its
// name and usage.
func TestSummaryNamesEveryApplier(t *testing.T) {
	s := Summary()
	at := 0
	for _, k := range Kinds() {
		i := strings.Index(s[at:], k.Name+": "+k.Usage)
		if i < 0 {
			t.Fatalf("Summary() = %q: %s missing or out of order", s, k.Name)
		}
		at += i + len(k.Name)
	}
	if !strings.HasSuffix(s, ".") {
		t.Errorf("Summary() = %q: not a sentence", s)
	}
}

// TestKindsMadeOnce: the list is made at its first use and then shared, so its callers
// (some twenty while the command's flags are defined) pay nothing more: the same list, no
// allocation.
func TestKindsMadeOnce(t *testing.T) {
	first := Kinds()
	if again := Kinds(); len(again) != len(first) || &again[0] != &first[0] {
		t.Errorf("Kinds made a new list")
	}
	if n := testing.AllocsPerRun(10, func() { _ = Kinds() }); n != 0 {
		t.Errorf("Kinds allocates %v times a call", n)
	}
}
