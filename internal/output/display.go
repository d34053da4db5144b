package output

import (
	"github.com/ssa-diff/ssa-diff/internal/report"
)

// serverMaintained are the metadata fields only the server writes: a reviewer reads what
// the manifest changes first, these after (see displayTexts). managedFields is among them
// when shown.
var serverMaintained = []string{"creationTimestamp", "generation", "managedFields", "resourceVersion", "uid"}

// serverSectionHeader separates, in a displayed object, the server-maintained fields from
// the rest (a YAML comment: the text stays YAML).
const serverSectionHeader = "# maintained by the server:\n"

// displayPair is the live and predicted objects of a diff as the human formats show them:
// the ignore rules' fields hidden (Options.Ignore), then forDisplay's preparation.
func displayPair(res *report.Result, live, pred map[string]any, opts Options) (map[string]any, map[string]any) {
	if oi := opts.Ignore.For(res.APIVersion, res.Kind, res.Namespace, res.Name, live, pred); oi != nil {
		live, pred = oi.Hide(live, pred)
	}
	return forDisplay(live, pred, opts)
}

// displayTexts renders the two sides of a diff (displayPair's objects) as YAML; same when
// they print the same. When an update changes both server-maintained fields and others,
// each side prints without the server-maintained fields, then after serverSectionHeader
// a metadata holding only them: the diff's first hunks are what the manifest changes,
// the generation and resourceVersion last. -o diff, which prints what kubectl diff
// prints, renders the objects whole (whole).
func displayTexts(res *report.Result, live, pred map[string]any, opts Options, whole bool) (a, b string, same bool, err error) {
	l, p := displayPair(res, live, pred, opts)
	if sameDisplay(l, p) {
		return "", "", true, nil
	}
	if !whole && l != nil && p != nil {
		lr, ls := splitServerMaintained(l)
		pr, ps := splitServerMaintained(p)
		if ls != nil && ps != nil && !sameDisplay(ls, ps) && !sameDisplay(lr, pr) {
			if a, err = renderSplit(lr, ls); err == nil {
				b, err = renderSplit(pr, ps)
			}
			return a, b, a == b, err
		}
	}
	if a, err = renderYAML(l); err == nil {
		b, err = renderYAML(p)
	}
	return a, b, a == b, err
}

func renderSplit(rest, server map[string]any) (string, error) {
	r, err := renderYAML(rest)
	if err != nil {
		return "", err
	}
	s, err := renderYAML(server)
	if err != nil {
		return "", err
	}
	return r + serverSectionHeader + s, nil
}

// splitServerMaintained returns obj without its server-maintained metadata, and an object
// holding only them (nil when it has none). obj is not modified.
func splitServerMaintained(obj map[string]any) (rest, server map[string]any) {
	md, _ := obj["metadata"].(map[string]any)
	var sm map[string]any
	for _, k := range serverMaintained {
		if v, ok := md[k]; ok {
			if sm == nil {
				sm = map[string]any{}
			}
			sm[k] = v
		}
	}
	if sm == nil {
		return obj, nil
	}
	c, m := shallowWithMeta(obj)
	for k := range sm {
		delete(m, k)
	}
	return c, map[string]any{"metadata": sm}
}
