package kubeapiserver

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/schema/builtin"
)

// RuntimeConfig is kube-apiserver's --runtime-config: the API group-versions (and
// resources) the cluster turns on or off against its minor's default API configuration,
// by key ("api/all", "api/ga", "api/beta", "api/alpha", "group/version",
// "group/version/resource"; the core group is "v1" or "api/v1"). Set reads the flag's
// syntax, "key=value,key" (a key alone means true; a later key wins); ApplyTo decides from
// it which built-in kinds a registry serves, and refuses what kube-apiserver refuses to
// start with, in its words.
type RuntimeConfig map[string]string

// Set adds the settings of one --runtime-config value.
func (c *RuntimeConfig) Set(s string) error {
	if *c == nil {
		*c = RuntimeConfig{}
	}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		(*c)[strings.TrimSpace(key)] = strings.TrimSpace(value)
	}
	return nil
}

// String prints the settings sorted by key, as kube-apiserver prints the flag.
func (c *RuntimeConfig) String() string {
	if c == nil {
		return ""
	}
	var pairs []string
	for _, k := range slices.Sorted(maps.Keys(*c)) {
		pairs = append(pairs, k+"="+(*c)[k])
	}
	return strings.Join(pairs, ",")
}

// Type names the flag's value in usage.
func (c *RuntimeConfig) Type() string { return "key=value" }

// The keys that switch every named group-version of a level, in the order they apply.
// The server tells a level's versions by the expressions ^v\d+$, ^v\d+beta\d+$ and
// ^v\d+alpha\d+$; levelVersion matches them without compiling them at every start of the
// program (FuzzLevelVersion holds it to them).
var runtimeLevels = []struct {
	key     string
	matches func(version string) bool
}{
	{"api/all", func(string) bool { return true }},
	{"api/ga", func(v string) bool { return levelVersion(v, "") }},
	{"api/beta", func(v string) bool { return levelVersion(v, "beta") }},
	{"api/alpha", func(v string) bool { return levelVersion(v, "alpha") }},
}

// levelVersion reports whether version is "v", digits, then, when stage is not empty,
// stage and digits again: "v1" for "", "v2beta1" for "beta".
func levelVersion(version, stage string) bool {
	rest, ok := strings.CutPrefix(version, "v")
	if !ok {
		return false
	}
	n := leadingDigits(rest)
	if n == 0 {
		return false
	}
	rest = rest[n:]
	if stage == "" {
		return rest == ""
	}
	rest, ok = strings.CutPrefix(rest, stage)
	return ok && rest != "" && leadingDigits(rest) == len(rest)
}

// leadingDigits is the number of ASCII digits s starts with.
func leadingDigits(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}

func isLevelKey(key string) bool {
	for _, l := range runtimeLevels {
		if l.key == key {
			return true
		}
	}
	return false
}

// groupVersionResource is a --runtime-config key read as kube-apiserver reads it.
type groupVersionResource struct{ group, version, resource string }

// ApplyTo sets which built-in kinds reg serves under c, at reg's minor: kube-apiserver's
// merge of the flag into its default configuration (the levels first, then whole
// group-versions, then single resources) and, of what is enabled, the resources its storage
// registers. It fails where that server would not start. No settings, or no registry: nothing
// to do.
func (c RuntimeConfig) ApplyTo(reg *schema.Registry) error {
	if len(c) == 0 || reg == nil {
		return nil
	}
	rel, ok := builtin.For(reg.Minor())
	if !ok {
		return fmt.Errorf("--runtime-config: no embedded release of Kubernetes %s", reg.Minor())
	}
	enabled, resources, err := c.resolve(rel.APIs(), reg.Minor())
	if err != nil {
		return fmt.Errorf("--runtime-config of kube-apiserver %s: %w", rel.Kubernetes(), err)
	}
	reg.ServeBuiltin(func(group, version, resource string) bool {
		gv := [2]string{group, version}
		if !slices.Contains(resources[gv], resource) {
			return false // no storage: never served
		}
		if on, set := enabled.resources[groupVersionResource{group, version, resource}]; set {
			return on
		}
		return enabled.versions[gv]
	})
	return nil
}

// apiEnablement is the outcome of the merge: the group-versions on (by group, version) and
// the resources set one by one.
type apiEnablement struct {
	versions  map[[2]string]bool
	resources map[groupVersionResource]bool
}

// resolve merges c into the release's default configuration, as kube-apiserver completes,
// validates and applies the flag.
func (c RuntimeConfig) resolve(apis []builtin.API, minor kube.Minor) (apiEnablement, map[[2]string][]string, error) {
	cfg := maps.Clone(c)
	// The core group's keys name it "v1" or "api/v1"; "api/legacy" is dropped.
	for key, value := range c {
		if key == "v1" || strings.HasPrefix(key, "v1/") || key == "api/v1" || strings.HasPrefix(key, "api/v1/") {
			delete(cfg, key)
			cfg["/v1"] = value
		}
		if key == "api/legacy" {
			delete(cfg, key)
		}
	}
	registeredGroups := map[string]bool{}
	registered := map[[2]string]bool{}
	storage := map[[2]string][]string{}
	out := apiEnablement{versions: map[[2]string]bool{}, resources: map[groupVersionResource]bool{}}
	var named [][2]string
	for _, a := range apis {
		gv := [2]string{a.Group, a.Version}
		if a.Registered {
			registeredGroups[a.Group] = true
			registered[gv] = true
		}
		storage[gv] = a.Resources
		if a.InDefaults {
			out.versions[gv] = a.OnByDefault
			named = append(named, gv)
		}
	}
	// Validation, before anything is applied: API Priority and Fairness's first, then the
	// flag's own; the server reports all it found together.
	var invalid []string
	if err := c.priorityAndFairness(); err != nil {
		invalid = append(invalid, err.Error())
	}
	if err := validateRuntimeConfig(cfg, registeredGroups, minor); err != nil {
		invalid = append(invalid, err.Error())
	}
	switch len(invalid) {
	case 0:
	case 1:
		return out, nil, errors.New(invalid[0])
	default:
		return out, nil, fmt.Errorf("[%s]", strings.Join(invalid, ", "))
	}
	// The levels, in their order; then group-versions; then resources.
	for _, l := range runtimeLevels {
		value, ok := cfg[l.key]
		if !ok {
			continue
		}
		if value != "true" && value != "false" {
			return out, nil, fmt.Errorf("invalid value %v=%v", l.key, value)
		}
		for _, gv := range named {
			if l.matches(gv[1]) {
				out.versions[gv] = value == "true"
			}
		}
	}
	type setting struct {
		gvr groupVersionResource
		on  bool
	}
	var versions, resources []setting
	for _, key := range slices.Sorted(maps.Keys(cfg)) {
		if isLevelKey(key) {
			continue
		}
		tokens := strings.Split(key, "/")
		gv := parseGroupVersion(tokens[0] + "/" + tokens[1])
		if !registeredGroups[gv[0]] {
			continue
		}
		if !registered[gv] {
			return out, nil, fmt.Errorf("group version %s that has not been registered", groupVersionString(gv))
		}
		on := true
		if v := cfg[key]; v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return out, nil, fmt.Errorf("invalid value of %s: %s, err: %v", key, v, err)
			}
			on = b
		}
		if len(tokens) == 2 {
			versions = append(versions, setting{groupVersionResource{gv[0], gv[1], ""}, on})
			continue
		}
		if strings.ToLower(tokens[2]) != tokens[2] {
			return out, nil, fmt.Errorf("invalid key %v: group/version/resource and resource is always lowercase plural, not %q", key, tokens[2])
		}
		resources = append(resources, setting{groupVersionResource{gv[0], gv[1], tokens[2]}, on})
	}
	// Whole versions before single resources (the server forgets a version's resource
	// settings when it switches the version; the default configuration has none, and the
	// flag's resources come after, so there is none to forget).
	for _, s := range versions {
		out.versions[[2]string{s.gvr.group, s.gvr.version}] = s.on
	}
	for _, s := range resources {
		out.resources[s.gvr] = s.on
	}
	return out, storage, nil
}

// validateRuntimeConfig is kube-apiserver's validation of the flag (its core group's keys
// renamed): the first thing it refuses.
func validateRuntimeConfig(cfg RuntimeConfig, registeredGroups map[string]bool, minor kube.Minor) error {
	if cfg["api/all"] == "false" && len(cfg) == 1 {
		if minor < 36 {
			return fmt.Errorf("invalid key with only api/all=false")
		}
		return fmt.Errorf("invalid runtime-config with only api/all=false")
	}
	var unknown []string
	for _, key := range slices.Sorted(maps.Keys(cfg)) {
		if isLevelKey(key) {
			continue
		}
		tokens := strings.Split(key, "/")
		if len(tokens) != 2 && len(tokens) != 3 {
			return fmt.Errorf("runtime-config invalid key %s", key)
		}
		gv := parseGroupVersion(tokens[0] + "/" + tokens[1])
		if !registeredGroups[gv[0]] {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		// Up to 1.35 the server names each key's group, in its map's (random) order — here
		// the keys' —; from 1.36 each group-version once, sorted.
		slices.Sort(unknown)
		for i, key := range unknown {
			tokens := strings.Split(key, "/")
			gv := parseGroupVersion(tokens[0] + "/" + tokens[1])
			if unknown[i] = groupVersionString(gv); minor < 36 {
				unknown[i] = gv[0]
			}
		}
		if minor >= 36 {
			slices.Sort(unknown)
			unknown = slices.Compact(unknown)
		}
		return fmt.Errorf("unknown api groups %s", strings.Join(unknown, ","))
	}
	return nil
}

// priorityAndFairness refuses a configuration that turns off what API Priority and
// Fairness, on by default, needs: flowcontrol's v1, through its own key, api/ga or api/all,
// whichever of them the flag names first with a value.
func (c RuntimeConfig) priorityAndFairness() error {
	text := c.String()
	for _, key := range []string{"flowcontrol.apiserver.k8s.io/v1", "api/ga", "api/all"} {
		if strings.Contains(text, key+"=false") {
			return fmt.Errorf("--runtime-config=%s=false conflicts with --enable-priority-and-fairness=true", key)
		}
		if strings.Contains(text, key+"=true") {
			return nil
		}
	}
	return nil
}

// parseGroupVersion reads "group/version" (one slash) as apimachinery's ParseGroupVersion
// does: both sides as they are, empty ones included.
func parseGroupVersion(s string) [2]string {
	group, version, _ := strings.Cut(s, "/")
	return [2]string{group, version}
}

func groupVersionString(gv [2]string) string {
	if gv[0] == "" {
		return gv[1]
	}
	return gv[0] + "/" + gv[1]
}
