package judge

import (
	"regexp"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/serverpath"
	"github.com/ssa-diff/ssa-diff/merge"
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

// ErrorField is one field a refusal is about.
type ErrorField struct {
	// Path is the field, printed as the server prints field paths (.spec.replicas).
	Path string `json:"path"`
	// DidYouMean is a field the schema declares whose name is close to Path's, for a field
	// the schema does not declare.
	DidYouMean string `json:"didYouMean,omitempty"`
}

// RefusalFields are the fields the server's refusal of an apply to gvk is about: the
// fields of its causes, or, for a refusal without causes, those of the schema errors its
// message lists; nil for a conflict (409), which has findings of its own, and for a
// refusal that names no field.
func (j *Judge) RefusalFields(gvk schema.GVK, refusal *merge.StatusError) []ErrorField {
	if refusal == nil || refusal.Code == 0 || refusal.Code == 409 {
		return nil
	}
	var out []ErrorField
	seen := map[string]bool{}
	add := func(path string, undeclared bool) {
		if path == "" || seen[path] {
			return
		}
		seen[path] = true
		f := ErrorField{Path: path}
		if undeclared {
			f.DidYouMean = j.DidYouMean(gvk, path)
		}
		out = append(out, f)
	}
	if refusal.Details != nil {
		for _, cause := range refusal.Details.Causes {
			if p := causePath(cause.Field); p != "" {
				add(p, strings.Contains(cause.Message, "field not declared in schema") || strings.HasPrefix(cause.Message, "unknown field"))
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, m := range schemaErrorPath().FindAllStringSubmatch(refusal.Message, -1) {
		add(m[1], m[2] != "")
	}
	return out
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

// DidYouMean returns the field the kind's schema declares beside the last element of path
// whose name is closest to it ("" when none is close, or the schema says nothing).
func (j *Judge) DidYouMean(gvk schema.GVK, path string) string {
	reg := j.Schemas
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
	elems, err := serverpath.Parse(path)
	if err != nil {
		return nil
	}
	for _, e := range elems {
		atom, ok := sc.Resolve(tr)
		if !ok {
			return nil
		}
		switch {
		case !e.Selector:
			if atom.Map == nil {
				return nil
			}
			if f, ok := atom.Map.FindField(e.Text); ok {
				tr = f.Type
			} else {
				tr = atom.Map.ElementType
			}
		case atom.List != nil:
			tr = atom.List.ElementType
		case atom.Map != nil:
			tr = atom.Map.ElementType
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
