package noise

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ssa-diff/ssa-diff/judge"
)

// Settings are the noise controls as given.
type Settings struct {
	// Rules are ignore rules given otherwise (an Argo CD Application's ignoreDifferences),
	// before IgnorePaths'.
	Rules []judge.IgnoreRule
	// IgnorePaths are --ignore-path values ([TARGET:]FIELD, judge.ParseIgnoreRule);
	// IgnoreManagers --ignore-manager's, hidden from every object.
	IgnorePaths, IgnoreManagers []string
	// Skip are --skip values: comma-separated kinds or apiVersion/kinds.
	Skip []string
	// FilePatterns are --ignore-filename-pattern's regular expressions (Go syntax).
	FilePatterns []string
}

// Rules are the noise controls read: what a run hides, skips and leaves unread.
type Rules struct {
	// Ignore is what the diffs and the gate hide; nil when nothing is hidden.
	Ignore    *judge.Ignore
	skipKinds map[string]bool
	patterns  []*regexp.Regexp
}

// Read checks the settings and returns their rules; an error names the flag at fault.
func Read(s Settings) (*Rules, error) {
	r := &Rules{}
	rules := append([]judge.IgnoreRule(nil), s.Rules...)
	for _, p := range s.IgnorePaths {
		rule, err := judge.ParseIgnoreRule(p)
		if err != nil {
			return nil, fmt.Errorf("--ignore-path: %w", err)
		}
		rules = append(rules, rule)
	}
	for _, m := range s.IgnoreManagers {
		if m == "" {
			return nil, fmt.Errorf("--ignore-manager: an empty manager name")
		}
	}
	if len(s.IgnoreManagers) > 0 {
		rules = append(rules, judge.IgnoreRule{Group: "*", Kind: "*", Managers: s.IgnoreManagers})
	}
	if len(rules) > 0 {
		ig, err := judge.NewIgnore(rules...)
		if err != nil {
			return nil, err
		}
		r.Ignore = ig
	}
	for _, v := range s.Skip {
		for _, k := range strings.Split(v, ",") {
			if k = strings.TrimSpace(k); k != "" {
				if r.skipKinds == nil {
					r.skipKinds = map[string]bool{}
				}
				r.skipKinds[k] = true
			}
		}
	}
	for _, p := range s.FilePatterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("--ignore-filename-pattern %q: %w", p, err)
		}
		r.patterns = append(r.patterns, re)
	}
	return r, nil
}

// IgnoreFile reports whether a file met walking a directory is left out. (A nil Rules
// hides, skips and leaves out nothing.)
func (r *Rules) IgnoreFile(path string) bool {
	if r == nil {
		return false
	}
	for _, re := range r.patterns {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}

// Skips reports whether any kind is skipped.
func (r *Rules) Skips() bool { return r != nil && len(r.skipKinds) > 0 }

// Skipped reports whether an object of apiVersion and kind is skipped: its kind or its
// apiVersion/kind is named.
func (r *Rules) Skipped(apiVersion, kind string) bool {
	return r != nil && (r.skipKinds[kind] || r.skipKinds[apiVersion+"/"+kind])
}
