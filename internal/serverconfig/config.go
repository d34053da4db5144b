// Package serverconfig is the kube-apiserver the ports of the server's code answer for: its
// Kubernetes minor, its feature gates, and the flags of it that change what a write stores
// or whether it is refused. The server's own code reads these from globals (its version,
// utilfeature.DefaultFeatureGate, its command line); the ports take a Config instead, built
// once per model (package server/kubeapiserver) and passed down to the defaulting, the
// registry strategies and the validation of every kind.
package serverconfig

import (
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/server/version"
)

// Config is one kube-apiserver. The zero Config is the latest minor with every gate off:
// use For.
type Config struct {
	// Version is the server's minor.
	Version version.Version
	// Gates are its feature gates.
	Gates features.Set
	// ServiceIPFamilies are the IP families of its service IP ranges
	// (--service-cluster-ip-range), the primary one first: "IPv4" or "IPv6" alone for a
	// single-stack cluster, both for a dual-stack one. Empty: not declared (the recording
	// server's, IPv4 alone, where an answer needs them).
	ServiceIPFamilies []string
}

// For is the server of minor v with its default feature gates.
func For(v version.Version) *Config {
	return &Config{Version: version.Minor(v.MinorNumber()), Gates: features.Defaults(v)}
}

// Enabled reports whether the server has the feature gate on.
func (c *Config) Enabled(g features.Gate) bool { return c.Gates.Enabled(g) }

// AtLeast reports whether the server is Kubernetes 1.<minor> or later: the switch beside a
// rule the named release changed.
func (c *Config) AtLeast(minor int) bool { return c.Version.AtLeast(version.Minor(minor)) }

// Latest is For the latest supported minor.
func Latest() *Config { return For(version.Latest()) }
