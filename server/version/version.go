package version

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is one Kubernetes minor release, 1.<minor>. The zero Version stands for Latest.
type Version struct {
	minor int
}

// The minors ssa-diff predicts: every one from oldestMinor to latestMinor.
const (
	oldestMinor = 34
	latestMinor = 37
)

// Minor is Kubernetes 1.<minor>, supported or not (see IsSupported).
func Minor(minor int) Version { return Version{minor: minor} }

// Latest is the newest supported minor, the one a prediction follows unless told.
func Latest() Version { return Version{minor: latestMinor} }

// Supported returns every supported minor, oldest first.
func Supported() []Version {
	out := make([]Version, 0, latestMinor-oldestMinor+1)
	for m := oldestMinor; m <= latestMinor; m++ {
		out = append(out, Version{minor: m})
	}
	return out
}

// resolved is v with the zero Version read as Latest.
func (v Version) resolved() Version {
	if v.minor == 0 {
		return Latest()
	}
	return v
}

// MinorNumber is the minor's number: 37 for Kubernetes 1.37.
func (v Version) MinorNumber() int { return v.resolved().minor }

// String is "1.37".
func (v Version) String() string { return "1." + strconv.Itoa(v.resolved().minor) }

// IsSupported reports whether ssa-diff predicts this minor.
func (v Version) IsSupported() bool {
	m := v.resolved().minor
	return m >= oldestMinor && m <= latestMinor
}

// AtLeast reports whether v is the minor o or a later one.
func (v Version) AtLeast(o Version) bool { return v.resolved().minor >= o.resolved().minor }

// Before reports whether v is a minor before o.
func (v Version) Before(o Version) bool { return !v.AtLeast(o) }

// Nearest is the supported minor closest to v: v itself when supported, the oldest for
// an older one, the newest for a newer one.
func (v Version) Nearest() Version {
	m := v.resolved().minor
	if m < oldestMinor {
		return Version{minor: oldestMinor}
	}
	if m > latestMinor {
		return Latest()
	}
	return Version{minor: m}
}

// Parse reads a Kubernetes version as people and servers write it — "1.35", "v1.35",
// "1.35.4", "v1.35.4", or a /version gitVersion with a suffix ("v1.35.4-eks-1a2b",
// "v1.36.3+k3s1") — and returns its minor. Only Kubernetes 1.x is read; whether the minor
// is supported is the caller's question (IsSupported).
func Parse(s string) (Version, error) {
	in := s
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "1" {
		return Version{}, fmt.Errorf("Kubernetes version %q: want 1.MINOR, v1.MINOR or 1.MINOR.PATCH", in)
	}
	for i, p := range parts[1:] {
		if p == "" || strings.Trim(p, "0123456789") != "" || len(p) > 1 && p[0] == '0' || len(p) > 4 {
			what := "minor"
			if i == 1 {
				what = "patch"
			}
			return Version{}, fmt.Errorf("Kubernetes version %q: the %s is not a number", in, what)
		}
	}
	m, _ := strconv.Atoi(parts[1])
	if m == 0 {
		return Version{}, fmt.Errorf("Kubernetes version %q: no minor 0", in)
	}
	return Version{minor: m}, nil
}
