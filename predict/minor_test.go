package predict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
)

// TestTheMinorIsDecidedFirst: the minor asked for wins (a warning when the cluster runs
// another); else the cluster's, refused when ssa-diff does not predict it unless the nearest
// is asked for; with nothing known, the default (the newest released).
func TestTheMinorIsDecidedFirst(t *testing.T) {
	minors := kube.Minors()
	oldest, newest := minors[0], minors[len(minors)-1]
	beyond := fmt.Sprintf("v1.%d.0", int(newest)+1) // the minor after the newest: not predicted
	for _, c := range []struct {
		name          string
		choice        MinorChoice
		server        string
		want          kube.Minor
		warns, refuse string
	}{
		{"nothing known", MinorChoice{}, "", kube.Default(), "", ""},
		{"asked", MinorChoice{Given: true, Minor: oldest}, "", oldest, "", ""},
		{"the cluster's", MinorChoice{}, "v" + oldest.String() + ".2", oldest, "", ""},
		{"asked, another cluster", MinorChoice{Given: true, Minor: oldest, Option: "--kube-version"}, "v" + newest.String() + ".1", oldest, "predicting " + oldest.String() + " as --kube-version says", ""},
		{"asked, a cluster that cannot be read", MinorChoice{Given: true, Minor: oldest}, "banana", oldest, "", ""},
		{"a cluster that cannot be read", MinorChoice{Option: "--kube-version"}, "banana", 0, "", "a version ssa-diff cannot read: give the minor to predict with --kube-version"},
		{"a cluster not predicted", MinorChoice{Option: "--kube-version"}, beyond, 0, "", "which ssa-diff does not predict"},
		{"the nearest", MinorChoice{Nearest: true, Option: "--kube-version"}, beyond, newest, "the nearest supported minor, as --kube-version nearest asks", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, warning, err := c.choice.For(c.server, "the cluster")
			if c.refuse != "" {
				if err == nil || !strings.Contains(err.Error(), c.refuse) {
					t.Fatalf("err %v, want %q", err, c.refuse)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("%v, %v; want %v", got, err, c.want)
			}
			if c.warns == "" && warning != "" || !strings.Contains(warning, c.warns) {
				t.Errorf("warning %q, want %q", warning, c.warns)
			}
		})
	}
}

func TestParseMinorChoice(t *testing.T) {
	newest := kube.Newest()
	for _, c := range []struct {
		in, err string
		want    MinorChoice
	}{
		{in: "nearest", want: MinorChoice{Option: "--kube-version", Nearest: true}},
		{in: "v" + newest.String() + ".4", want: MinorChoice{Option: "--kube-version", Given: true, Minor: newest}},
		{in: "1.20", err: "--kube-version 1.20: ssa-diff predicts Kubernetes " + SupportedMinors()},
		{in: "one", err: "--kube-version: "},
	} {
		got, err := ParseMinorChoice("--kube-version", c.in)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q…", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
	nearest := MinorChoice{Option: "--kube-version", Nearest: true}
	if w := nearest.Unknown("", newest); !strings.HasPrefix(w, "--kube-version nearest: no live state says") {
		t.Errorf("no live state: %q", w)
	}
	if w := nearest.Unknown("live.json", newest); !strings.HasPrefix(w, "--kube-version nearest: live.json records no Kubernetes version") {
		t.Errorf("a dump: %q", w)
	}
	if w := (MinorChoice{Given: true, Minor: newest}).Unknown("live.json", newest); w != "" {
		t.Errorf("a minor given: %q", w)
	}
}
