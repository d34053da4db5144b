package gitopsconfig

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ssa-diff/ssa-diff/judge"
)

// IgnoreRules are the Application's spec.ignoreDifferences as the judge's rules (those
// that ignore nothing left out); errors name the field.
func (a *Application) IgnoreRules() ([]judge.IgnoreRule, error) {
	var rules []judge.IgnoreRule
	for i, d := range a.Ignore {
		at := fmt.Sprintf("spec.ignoreDifferences[%d]", i)
		r := judge.IgnoreRule{Group: d.Group, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Managers: d.ManagedFieldsManagers}
		for j, p := range d.JSONPointers {
			ip, err := judge.ParseIgnorePath(p)
			if err != nil {
				return nil, fmt.Errorf("%s.jsonPointers[%d]: %w", at, j, err)
			}
			r.Paths = append(r.Paths, ip)
		}
		for j, q := range d.JQPathExpressions {
			ip, err := jqPath(q)
			if err != nil {
				return nil, fmt.Errorf("%s.jqPathExpressions[%d]: %w", at, j, err)
			}
			r.Paths = append(r.Paths, ip)
		}
		if len(r.Paths) == 0 && len(r.Managers) == 0 {
			continue // Argo CD ignores nothing with it either
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// jqPath reads a jq path expression as an ignore path; what is more than a path (select,
// pipes, optional steps, recursion) is refused.
func jqPath(q string) (judge.IgnorePath, error) {
	// A path: .name steps, ["name"] steps, [N] and [] (every item). Compiled here, not at
	// start-up: only an Application's ignoreDifferences needs it.
	plain := regexp.MustCompile(`^(\.[A-Za-z_][A-Za-z0-9_]*|\.?\["[^"\\]*"\]|\.?\[[0-9]+\]|\.?\[\])+$`)
	if !plain.MatchString(q) {
		return judge.IgnorePath{}, fmt.Errorf("the jq expression %q is not taken: only plain paths (.a.b, .a[\"b.c\"], .a[0], .a[]) are, not select(), pipes, ? or ..; write the fields it selects as jsonPointers or --ignore-path", q)
	}
	p := strings.ReplaceAll(q, "[]", "[*]")
	p = strings.ReplaceAll(p, ".[", "[")
	ip, err := judge.ParseIgnorePath(p)
	if err != nil {
		return judge.IgnorePath{}, fmt.Errorf("the jq expression %q: %w", q, err)
	}
	return ip, nil
}
