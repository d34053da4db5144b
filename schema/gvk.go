package schema

import (
	"strconv"
	"strings"
)

// GVK names one kind in one version of an API group. The core group is
// the empty string.
type GVK struct{ Group, Version, Kind string }

// GVKFromAPIVersionKind splits an object's apiVersion ("v1", "apps/v1")
// and combines it with its kind. Like the API server, an apiVersion with
// more than one slash yields a GVK with only the kind set.
func GVKFromAPIVersionKind(apiVersion, kind string) GVK {
	switch strings.Count(apiVersion, "/") {
	case 0:
		return GVK{Version: apiVersion, Kind: kind}
	case 1:
		i := strings.IndexByte(apiVersion, '/')
		return GVK{Group: apiVersion[:i], Version: apiVersion[i+1:], Kind: kind}
	}
	return GVK{Kind: kind}
}

// APIVersion returns the apiVersion of the GVK: "v1" for the core group,
// "apps/v1" otherwise.
func (g GVK) APIVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// String formats the GVK as the API server does in messages:
// "apps/v1, Kind=Deployment", and "/v1, Kind=Pod" for the core group.
func (g GVK) String() string {
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// compareVersions orders Kubernetes API versions as discovery does: GA
// before beta before alpha, higher numbers first within each level
// (v2, v1, v1beta2, v1beta1, v1alpha1), then versions that do not follow
// the convention, alphabetically. It returns a negative number when a
// comes first.
func compareVersions(a, b string) int {
	ma, la, na, oka := parseKubeVersion(a)
	mb, lb, nb, okb := parseKubeVersion(b)
	switch {
	case oka && okb:
		if la != lb {
			return lb - la
		}
		if ma != mb {
			return mb - ma
		}
		return nb - na
	case oka:
		return -1
	case okb:
		return 1
	}
	return strings.Compare(a, b)
}

// parseKubeVersion parses v<major>[(alpha|beta)<minor>]; level is 2 for
// GA, 1 for beta, 0 for alpha.
func parseKubeVersion(v string) (major, level, minor int, ok bool) {
	if !strings.HasPrefix(v, "v") {
		return 0, 0, 0, false
	}
	rest := v[1:]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || rest[0] == '0' {
		return 0, 0, 0, false
	}
	major, err := strconv.Atoi(rest[:i])
	if err != nil {
		return 0, 0, 0, false
	}
	rest = rest[i:]
	if rest == "" {
		return major, 2, 0, true
	}
	for _, l := range []struct {
		prefix string
		level  int
	}{{"beta", 1}, {"alpha", 0}} {
		if s, found := strings.CutPrefix(rest, l.prefix); found {
			if s == "" || s[0] == '0' {
				return 0, 0, 0, false
			}
			n, err := strconv.Atoi(s)
			if err != nil {
				return 0, 0, 0, false
			}
			return major, l.level, n, true
		}
	}
	return 0, 0, 0, false
}

// GVKOf is the group, version and kind an object (decoded JSON, nil included) says it is,
// as written: a field that is absent or not a string reads as empty.
func GVKOf(obj map[string]any) GVK {
	av, _ := obj["apiVersion"].(string)
	k, _ := obj["kind"].(string)
	return GVKFromAPIVersionKind(av, k)
}
