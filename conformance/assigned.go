package conformance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/admission"
	"github.com/ssa-diff/ssa-diff/merge"
)

// CompareAssigned is Compare for a prediction that names the values the server assigns
// (Result.Assigned): each named value must be one the server's answer has and the
// prediction does not (metadata.resourceVersion, on every write, aside); then both leave
// them out, and the objects are compared as Compare does. So with strict, the prediction
// must be exactly the stored object apart from the values it says it cannot know.
func CompareAssigned(c *Case, res *merge.Result, strict bool) []string {
	if res.Rejection != nil || res.Object == nil || c.Want == nil || c.Want["kind"] == "Status" {
		return Compare(c, res, strict)
	}
	c = withGeneratedName(c)
	standIn, _ := generatedStandIn(c)
	want, got := generic(c.Want), generic(res.Object)
	if c.Subresource() == "scale" {
		want = generic(c.After)
	}
	var problems []string
	if standIn != "" {
		// Wherever the prediction says the generated name, it says it cannot know it.
		for _, p := range pathsOf(got, standIn, "") {
			if !slices.Contains(res.Assigned, p) {
				problems = append(problems, fmt.Sprintf("%s: the stand-in %s for the name generated from generateName is not listed as assigned", p, standIn))
			}
		}
	}
	for _, p := range res.Assigned {
		if p == ".metadata.resourceVersion" {
			continue
		}
		w, ok := removeAt(want, p)
		if !ok || w == nil {
			problems = append(problems, fmt.Sprintf("%s: listed as assigned, but the server has no such field", p))
		}
		if p == ".metadata.name" && standIn != "" && w != standIn {
			problems = append(problems, fmt.Sprintf("%s: the server's %v is not the name predicted from generateName, %s, but for its random suffix", p, w, standIn))
		}
		// The stand-ins for the ServiceAccount token volume's random name and a generated
		// name are no claim.
		if v, ok := removeAt(got, p); ok && v != nil && !shorterPrefix(v, w) && v != admission.TokenVolumeStandIn && (standIn == "" || v != standIn) {
			problems = append(problems, fmt.Sprintf("%s: listed as assigned, but predicted too", p))
		}
	}
	cc := *c
	cc.Want, cc.After = want, want
	pred := *res
	pred.Object = got
	return append(problems, Compare(&cc, &pred, strict)...)
}

// shorterPrefix reports whether got is a list of the first values of the list want, and
// shorter: a list the server completes (a dual-stack Service's second cluster IP).
func shorterPrefix(got, want any) bool {
	g, ok := got.([]any)
	w, ok2 := want.([]any)
	if !ok || !ok2 || len(g) >= len(w) {
		return false
	}
	for i := range g {
		if fmt.Sprint(g[i]) != fmt.Sprint(w[i]) {
			return false
		}
	}
	return true
}

// removeAt deletes the value at a dotted path (".spec.ports[0].nodePort") from obj and
// returns it, and whether it was there (a null placeholder is). Map keys may hold dots
// (label keys): the longest key that fits the rest of the path is taken.
func removeAt(obj map[string]any, path string) (any, bool) {
	var cur any = obj
	rest := path
	for rest != "" {
		switch x := cur.(type) {
		case map[string]any:
			if !strings.HasPrefix(rest, ".") {
				return nil, false
			}
			key := ""
			for k := range x {
				if strings.HasPrefix(rest[1:], k) && len(k) > len(key) {
					after := rest[1+len(k):]
					if after == "" || after[0] == '.' || after[0] == '[' {
						key = k
					}
				}
			}
			if key == "" {
				return nil, false
			}
			rest = rest[1+len(key):]
			if rest == "" {
				v := x[key]
				delete(x, key)
				return v, true
			}
			cur = x[key]
		case []any:
			end := strings.IndexByte(rest, ']')
			if !strings.HasPrefix(rest, "[") || end < 0 {
				return nil, false
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			rest = rest[end+1:]
			if rest == "" {
				return nil, false // list items are never assigned whole
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return nil, false
}

// pathsOf lists the dotted paths (as Result.Assigned writes them) of the string values s
// in v.
func pathsOf(v any, s, at string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			out = append(out, pathsOf(e, s, at+"."+k)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, pathsOf(e, s, at+"["+strconv.Itoa(i)+"]")...)
		}
	case string:
		if x == s {
			out = append(out, at)
		}
	}
	return out
}
