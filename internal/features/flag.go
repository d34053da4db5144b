package features

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/kube"
)

// Settings are the gates a --feature-gates flag sets, by name: on (true) or off (false).
// Names are checked only against a release, by [Set.Apply].
type Settings map[string]bool

// ParseSettings reads kube-apiserver's --feature-gates value, "Name=true,Other=false", as
// the server reads it: empty items skipped, spaces around names and values trimmed,
// values as strconv.ParseBool reads them; a later setting of a gate wins. Its errors are
// the server's own words ("missing bool value for Name", "invalid value of Name=v, err:
// …").
func ParseSettings(value string) (Settings, error) {
	m := Settings{}
	for _, item := range strings.Split(value, ",") {
		if item == "" {
			continue
		}
		name, v, ok := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if !ok {
			return nil, fmt.Errorf("missing bool value for %s", name)
		}
		v = strings.TrimSpace(v)
		on, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("invalid value of %s=%s, err: %v", name, v, err)
		}
		m[name] = on
	}
	return m, nil
}

// String is the settings as --feature-gates spells them, by name.
func (m Settings) String() string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = n + "=" + strconv.FormatBool(m[n])
	}
	return strings.Join(names, ",")
}

// Apply is s, the gates of the server of minor v, with the settings made, as that server
// takes its --feature-gates flag: a gate the release does not have is "unrecognized
// feature gate: Name" (the first by name; the server stops at it), one locked to its
// default is refused for a setting otherwise ("cannot set feature gate Name to false,
// feature is locked to true"), every such refusal said (several as the server's aggregate, "[…, …]"). It fails for a minor the table does
// not describe.
func (s Set) Apply(v kube.Minor, m Settings) (Set, error) {
	if _, ok := release(v); !ok && len(m) > 0 {
		return s, fmt.Errorf("the feature gates of Kubernetes %s are not generated (internal/features: make generate)", v)
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	def, _ := Defaults(v)
	var errs []error
	for _, n := range names {
		g, ok := Lookup(n)
		if !ok || !Known(v, g) {
			return s, fmt.Errorf("unrecognized feature gate: %s", n)
		}
		if Locked(v, g) && def.Enabled(g) != m[n] {
			errs = append(errs, fmt.Errorf("cannot set feature gate %s to %t, feature is locked to %t", n, m[n], def.Enabled(g)))
			continue
		}
		s = s.With(g, m[n])
	}
	switch len(errs) {
	case 0:
		return s, nil
	case 1:
		return s, errs[0]
	}
	// The server's aggregate of several: "[first, second]".
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return s, errors.New("[" + strings.Join(msgs, ", ") + "]")
}

// Locked reports whether the server of minor v locks the gate to its default.
func Locked(v kube.Minor, g Gate) bool {
	r, ok := release(v)
	if !ok {
		return false
	}
	for _, k := range locked[r] {
		if k == g {
			return true
		}
	}
	return false
}
