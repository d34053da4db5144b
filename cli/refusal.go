package cli

import (
	"regexp"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/cli/report"
	"github.com/ssa-diff/ssa-diff/schema"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// This file finds the fields a refusal is about, so that findings and annotations sit at
// their lines: the fields of the refusal's causes (a 422's field.Invalid, Required …,
// whatever validation adds), or, for refusals without causes, the fields of the schema
// errors the message lists (structured-merge-diff's ".spec.replcas: field not declared in
// schema", one per line after "errors:" when there are several). For a field the schema
// does not declare, the schema's field of the closest name is suggested. Conflicts (409)
// have findings of their own, at their fields.

// schemaErrorPath finds a field path and its error in a schema error message: a path as
// the server prints it, at the start of a line or after a space, followed by ": ". It is
// compiled when a refusal first needs it, not at start-up.
var schemaErrorPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|\s)(\.[^\s:]+(?:\[[^\]]*\][^\s:]*)*): (field not declared in schema)?`)
})

// explainRefusal fills res.Error.Fields for a refusal that names fields.
func (c *config) explainRefusal(res *report.Result, gvk schema.GVK, manifest map[string]interface{}) {
	e := res.Error
	if e == nil || e.Code == 0 || e.Code == 409 || res.Action != report.ActionRejected {
		return
	}
	seen := map[string]bool{}
	add := func(path string, undeclared bool) {
		if path == "" || seen[path] {
			return
		}
		seen[path] = true
		f := report.ErrorField{Path: path}
		if undeclared {
			f.DidYouMean = c.didYouMean(gvk, path)
		}
		e.Fields = append(e.Fields, f)
	}
	for _, cause := range e.Causes {
		if p := causePath(cause.Field); p != "" {
			add(p, strings.Contains(cause.Message, "field not declared in schema") || strings.HasPrefix(cause.Message, "unknown field"))
		}
	}
	if len(e.Fields) > 0 {
		return
	}
	for _, m := range schemaErrorPath().FindAllStringSubmatch(e.Message, -1) {
		add(m[1], m[2] != "")
	}
}

// causePath turns a cause's field (validation's spec.template.spec.containers[0].image)
// into a field path as the server prints paths (.spec.template…).
func causePath(field string) string {
	field = strings.TrimSpace(field)
	switch {
	case field == "", field == "<nil>":
		return ""
	case strings.HasPrefix(field, ".") || strings.HasPrefix(field, "["):
		return field
	}
	return "." + field
}

// didYouMean returns the field the kind's schema declares beside the last element of path
// whose name is closest to it ("" when none is close, or the schema says nothing).
func (c *config) didYouMean(gvk schema.GVK, path string) string {
	reg := c.registry
	if reg == nil {
		return ""
	}
	t, ok := reg.Lookup(gvk)
	if !ok || t.Deduced {
		return ""
	}
	i := strings.LastIndexByte(path, '.')
	if i < 0 || strings.ContainsAny(path[i+1:], "[]") {
		return ""
	}
	parent, name := path[:i], path[i+1:]
	names := fieldsAt(t.Parseable.Schema, t.Parseable.TypeRef, parent)
	best, bestDist, tie := "", len(name)/3+1, false
	if bestDist > 3 {
		bestDist = 3
	}
	bestDist++
	for _, n := range names {
		d := editDistance(strings.ToLower(name), strings.ToLower(n))
		switch {
		case d < bestDist:
			best, bestDist, tie = n, d, false
		case d == bestDist:
			tie = true
		}
	}
	if best == "" || tie || best == name {
		return ""
	}
	return parent + "." + best
}

// fieldsAt lists the fields the schema declares for the map at path (as the server prints
// paths); nil when the path does not lead to a map with fields.
func fieldsAt(sc *smdschema.Schema, tr smdschema.TypeRef, path string) []string {
	if sc == nil {
		return nil
	}
	rest := path
	for rest != "" {
		atom, ok := sc.Resolve(tr)
		if !ok {
			return nil
		}
		switch rest[0] {
		case '.':
			end := len(rest)
			for j := 1; j < len(rest); j++ {
				if rest[j] == '.' || rest[j] == '[' {
					end = j
					break
				}
			}
			name := rest[1:end]
			rest = rest[end:]
			if atom.Map == nil {
				return nil
			}
			if f, ok := atom.Map.FindField(name); ok {
				tr = f.Type
			} else {
				tr = atom.Map.ElementType
			}
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil
			}
			rest = rest[end+1:]
			switch {
			case atom.List != nil:
				tr = atom.List.ElementType
			case atom.Map != nil:
				tr = atom.Map.ElementType
			default:
				return nil
			}
		default:
			return nil
		}
	}
	atom, ok := sc.Resolve(tr)
	if !ok || atom.Map == nil {
		return nil
	}
	names := make([]string, 0, len(atom.Map.Fields))
	for _, f := range atom.Map.Fields {
		names = append(names, f.Name)
	}
	return names
}

// editDistance is the Levenshtein distance of two strings, by runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
