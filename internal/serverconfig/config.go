// Package serverconfig is the kube-apiserver the ports of the server's code answer for: its
// Kubernetes minor, its feature gates, and the flags of it that change what a write stores
// or whether it is refused. The server's own code reads these from globals (its version,
// utilfeature.DefaultFeatureGate, its command line); the ports take a Config instead, built
// once per model (package server/kubeapiserver) and passed down to the defaulting, the
// registry strategies and the validation of every kind.
package serverconfig

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/kube"
)

// Config is one kube-apiserver. The zero Config is no server (no minor): use For.
type Config struct {
	// Minor is the server's Kubernetes minor.
	Minor kube.Minor
	// Gates are its feature gates.
	Gates features.Set
	// ServiceIPFamilies are the IP families of its service IP ranges
	// (--service-cluster-ip-range), the primary one first: "IPv4" or "IPv6" alone for a
	// single-stack cluster, both for a dual-stack one. Empty: not declared (the recording
	// server's, IPv4 alone, where an answer needs them).
	ServiceIPFamilies []string
	// Differ prints what the server's code prints with a library ssa-diff does not link
	// into the command. Nil: nothing printed so, the text left out of the message it is in
	// (whoever predicts with the Config says so).
	Differ Differ
}

// Differ prints the differences Kubernetes 1.32 and 1.33 print with go-cmp (cmp.Diff of
// the release's internal types): linking go-cmp's reflection would cost every run, so a
// helper program prints them (server/kubeapiserver gives it; package internal/api/gocmp).
type Differ interface {
	// EphemeralContainers is the difference of an ephemeral container and its change as
	// the server of minor prints it in refusing the change.
	EphemeralContainers(minor kube.Minor, old, new api.EphemeralContainer) (string, error)
}

// For is the server of minor v with its default feature gates. It fails for a minor whose
// feature gates are not generated (internal/features).
func For(v kube.Minor) (*Config, error) {
	gates, ok := features.Defaults(v)
	if !ok {
		return nil, fmt.Errorf("the feature gates of Kubernetes %s are not generated (internal/features: make generate)", v)
	}
	return &Config{Minor: v, Gates: gates}, nil
}

// MustFor is For for a minor known to have its tables (one of kube.Minors(), which the
// tests hold to them): it panics where For fails.
func MustFor(v kube.Minor) *Config {
	c, err := For(v)
	if err != nil {
		panic(err)
	}
	return c
}

// PrintsGoCmpDiffs reports whether the server prints go-cmp's diffs, what Differ prints:
// Kubernetes 1.32 and 1.33 (1.34 moved to apimachinery's JSON diff).
func (c *Config) PrintsGoCmpDiffs() bool { return !c.AtLeast(34) }

// Enabled reports whether the server has the feature gate on.
func (c *Config) Enabled(g features.Gate) bool { return c.Gates.Enabled(g) }

// AtLeast reports whether the server is Kubernetes 1.<minor> or later: the switch beside a
// rule the named release changed.
func (c *Config) AtLeast(minor int) bool { return c.Minor.AtLeast(kube.Minor(minor)) }
