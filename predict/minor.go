package predict

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/kube"
)

// MinorChoice is what the user said of the minor a run predicts (the command's
// --kube-version): nothing, one minor, or the nearest to the cluster's.
type MinorChoice struct {
	// Given: the user named a minor, Minor (one kube.Minors lists); it wins over what the
	// live state says.
	Given bool
	Minor kube.Minor
	// Nearest: the supported minor nearest to the cluster's.
	Nearest bool
	// Option names how the user makes the choice, in messages: the command's
	// "--kube-version".
	Option string
}

// For decides the minor of a run whose live state comes from a cluster that runs server
// (its /version gitVersion, "v1.35.4"; "" when not known), read at where (a message names
// it). A cluster at a minor ssa-diff does not predict is an error, unless the choice says
// which minor to predict, or the nearest; a warning says when the minor predicted is not
// the cluster's. With nothing known and nothing given, the default minor (kube.Default).
func (c MinorChoice) For(server, where string) (minor kube.Minor, warning string, err error) {
	if server == "" {
		if c.Given {
			return c.Minor, "", nil
		}
		return kube.Default(), "", nil
	}
	sv, err := kube.ParseMinor(server)
	if err != nil {
		if c.Given {
			return c.Minor, "", nil
		}
		return kube.Minor(0), "", fmt.Errorf("%s runs Kubernetes %q, a version ssa-diff cannot read: give the minor to predict with %s", where, server, c.Option)
	}
	switch {
	case c.Nearest:
		if !sv.IsSupported() {
			warning = fmt.Sprintf("%s runs Kubernetes %s, which ssa-diff does not predict: predicting %s, the nearest supported minor, as %s nearest asks", where, server, sv.Nearest(), c.Option)
		}
		return sv.Nearest(), warning, nil
	case c.Given:
		if sv.String() != c.Minor.String() {
			warning = fmt.Sprintf("%s runs Kubernetes %s; predicting %s as %s says", where, server, c.Minor, c.Option)
		}
		return c.Minor, warning, nil
	case !sv.IsSupported():
		return kube.Minor(0), "", fmt.Errorf("%s runs Kubernetes %s, which ssa-diff does not predict (it predicts %s): give %s %s to predict the nearest supported minor, or %s nearest", where, server, SupportedMinors(), c.Option, sv.Nearest(), c.Option)
	}
	return sv, "", nil
}

// SupportedMinors lists the minors ssa-diff predicts, in words: "1.34, 1.35, 1.36 or 1.37".
func SupportedMinors() string {
	var vs []string
	for _, v := range kube.Minors() {
		vs = append(vs, v.String())
	}
	if len(vs) == 1 {
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// ParseMinorChoice reads a choice as a user gives it to option (the command's
// "--kube-version"): a supported minor ("1.35", "v1.35", "1.35.4" are 1.35), or "nearest".
func ParseMinorChoice(option, value string) (MinorChoice, error) {
	c := MinorChoice{Option: option}
	if value == "nearest" {
		c.Nearest = true
		return c, nil
	}
	v, err := kube.ParseMinor(value)
	if err != nil {
		return c, fmt.Errorf("%s: %w", option, err)
	}
	if !v.IsSupported() {
		return c, fmt.Errorf("%s %s: ssa-diff predicts Kubernetes %s", option, value, SupportedMinors())
	}
	c.Given, c.Minor = true, v
	return c, nil
}

// Unknown is, for a Nearest choice, the warning that the live state (read from live; ""
// when there is none) records no Kubernetes version, so that v, the newest minor, is
// predicted instead; "" for another choice.
func (c MinorChoice) Unknown(live string, v kube.Minor) string {
	if !c.Nearest {
		return ""
	}
	if live == "" {
		return fmt.Sprintf("%s nearest: no live state says which Kubernetes the cluster runs: predicting %s, the newest released minor; give %s MINOR to predict the cluster's", c.Option, v, c.Option)
	}
	return fmt.Sprintf("%s nearest: %s records no Kubernetes version (a dump made with kubectl get does not; --live-from-cluster --save-live records it): predicting %s, the newest released minor; give %s MINOR to predict the cluster's (kubectl version says it)", c.Option, live, v, c.Option)
}
