package kube

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Minor is Kubernetes 1.<Minor>, supported or not (see IsSupported). The zero Minor is no
// minor: it is not supported, and nothing reads it as a default.
type Minor int

// releasesText is the list of the releases predicted, one per minor, oldest first.
//
//go:embed releases.txt
var releasesText string

// releases are the patch releases of releasesText ("1.34.4"), by minor, oldest first, read
// on first use.
var releases = sync.OnceValue(func() []release { return mustReadReleases(releasesText) })

// release is one line of releases.txt.
type release struct {
	minor Minor
	patch string // "1.34.4", or a pre-release's "1.38.0-beta.0"
}

// ReadReleases reads a list of releases as releases.txt writes it: one "v1.MINOR.PATCH" a
// line (a minor not yet released as its pre-release, "v1.38.0-beta.0"), oldest first, one per minor and none skipped, with blank lines and "#" comments. The generators
// read the list with it; it returns the releases without their "v" ("1.34.4").
func ReadReleases(text string) ([]string, error) {
	rs, err := readReleases(text)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.patch
	}
	return out, nil
}

// isPreReleaseSuffix reports whether s is the suffix of a Kubernetes pre-release listed
// before its minor's first release is served ("beta.0" of v1.38.0-beta.0): alpha, beta or
// rc, a dot, and a number without leading zeros (the grammar `^(alpha|beta|rc)\.(0|[1-9][0-9]*)$`,
// read without compiling a regular expression at start-up; FuzzPreReleaseSuffix compares).
func isPreReleaseSuffix(s string) bool {
	name, n, ok := strings.Cut(s, ".")
	if !ok || name != "alpha" && name != "beta" && name != "rc" || n == "" || len(n) > 1 && n[0] == '0' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

func readReleases(text string) ([]release, error) {
	var out []release
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(why string) error { return fmt.Errorf("releases line %d %q: %s", i+1, line, why) }
		core, pre, hasPre := strings.Cut(line, "-")
		if !strings.HasPrefix(core, "v") || strings.Count(core, ".") != 2 || strings.Contains(core, "+") || hasPre && !isPreReleaseSuffix(pre) {
			return nil, bad("want v1.MINOR.PATCH, or a pre-release v1.MINOR.PATCH-(alpha|beta|rc).N")
		}
		m, err := ParseMinor(line)
		if err != nil {
			return nil, bad(err.Error())
		}
		if n := len(out); n > 0 && m != out[n-1].minor+1 {
			return nil, bad("the minors must come oldest first, one line each, none skipped")
		}
		out = append(out, release{minor: m, patch: strings.TrimPrefix(line, "v")})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("releases: no release listed")
	}
	return out, nil
}

func mustReadReleases(text string) []release {
	rs, err := readReleases(text)
	if err != nil {
		panic("kube: releases.txt: " + err.Error())
	}
	return rs
}

// Minors returns every minor ssa-diff predicts, oldest first. Each call returns a new slice.
func Minors() []Minor {
	rs := releases()
	out := make([]Minor, len(rs))
	for i, r := range rs {
		out[i] = r.minor
	}
	return out
}

// Oldest is the oldest minor predicted.
func Oldest() Minor { return releases()[0].minor }

// Newest is the newest minor predicted (a pre-release's too).
func Newest() Minor {
	rs := releases()
	return rs[len(rs)-1].minor
}

// Default is the minor a run that is told no minor (no flag, no cluster version) predicts:
// the newest whose listed release is a release, not a pre-release (1.37 while 1.38 is
// listed as v1.38.0-beta.0: a beta is predicted when asked for, by the flag or a cluster
// running it).
func Default() Minor {
	rs := releases()
	for i := len(rs) - 1; i > 0; i-- {
		if !strings.Contains(rs[i].patch, "-") {
			return rs[i].minor
		}
	}
	return rs[0].minor
}

// PreRelease reports whether a supported minor is predicted from a pre-release of it
// (v1.38.0-beta.0), not yet from a release.
func (m Minor) PreRelease() bool { return strings.Contains(m.Release(), "-") }

// String is "1.37".
func (m Minor) String() string { return "1." + strconv.Itoa(int(m)) }

// IsSupported reports whether ssa-diff predicts this minor.
func (m Minor) IsSupported() bool { return m.Release() != "" }

// Release is the patch release of a supported minor that ssa-diff is generated from and
// recorded against ("1.37.2"); "" for a minor not predicted.
func (m Minor) Release() string {
	for _, r := range releases() {
		if r.minor == m {
			return r.patch
		}
	}
	return ""
}

// AtLeast reports whether m is the minor o or a later one.
func (m Minor) AtLeast(o Minor) bool { return m >= o }

// Before reports whether m is a minor before o.
func (m Minor) Before(o Minor) bool { return m < o }

// Nearest is the supported minor closest to m: m itself when supported, the oldest for an
// older one, the newest for a newer one.
func (m Minor) Nearest() Minor {
	switch {
	case m < Oldest():
		return Oldest()
	case m > Newest():
		return Newest()
	}
	return m
}

// ParseMinor reads a Kubernetes version as people and servers write it — "1.35", "v1.35",
// "1.35.4", "v1.35.4", or a /version gitVersion with a suffix ("v1.35.4-eks-1a2b",
// "v1.36.3+k3s1") — and returns its minor. Only Kubernetes 1.x is read; whether the minor
// is supported is the caller's question (IsSupported).
func ParseMinor(s string) (Minor, error) {
	in := s
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "1" {
		return 0, fmt.Errorf("version %q of Kubernetes: want 1.MINOR, v1.MINOR or 1.MINOR.PATCH", in)
	}
	for i, p := range parts[1:] {
		if p == "" || strings.Trim(p, "0123456789") != "" || len(p) > 1 && p[0] == '0' || len(p) > 4 {
			what := "minor"
			if i == 1 {
				what = "patch"
			}
			return 0, fmt.Errorf("version %q of Kubernetes: the %s is not a number", in, what)
		}
	}
	m, _ := strconv.Atoi(parts[1])
	if m == 0 {
		return 0, fmt.Errorf("version %q of Kubernetes: no minor 0", in)
	}
	return Minor(m), nil
}
