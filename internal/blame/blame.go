package blame

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

// Line is one line of the object's YAML and the managers owning what it shows.
type Line struct {
	Text   string
	Owners []fieldpath.ManagerRef
	// Path is the field the line shows, printed as the server prints paths ("" for lines
	// that show no field of their own, such as a block's continuation).
	Path string
}

// Field is one owned field and its owners.
type Field struct {
	Path   string                 `json:"path"`
	Owners []fieldpath.ManagerRef `json:"owners"`
}

// Annotate renders obj without its managedFields as YAML (keys sorted, as kubectl prints
// objects) and tags each line with the entries of its managedFields that own it.
func Annotate(obj map[string]any) ([]Line, error) { return AnnotateWith(obj, Scalar) }

// AnnotateWith is Annotate with another printer of keys and scalar values than Scalar (one
// that prints what Scalar prints, faster, say).
func AnnotateWith(obj map[string]any, scalar func(any) ([]string, error)) ([]Line, error) {
	owners, err := entriesOf(obj)
	if err != nil {
		return nil, err
	}
	body := make(map[string]any, len(obj))
	for k, v := range obj {
		body[k] = v
	}
	if md, ok := obj["metadata"].(map[string]any); ok {
		c := make(map[string]any, len(md))
		for k, v := range md {
			if k != "managedFields" {
				c[k] = v
			}
		}
		body["metadata"] = c
	}
	r := &renderer{scalar: scalar}
	r.mapValue(body, owners, "", "")
	return r.lines, r.err
}

// Fields lists the owned fields of lines (each field once, in the object's order).
func Fields(lines []Line) []Field {
	var out []Field
	for _, l := range lines {
		if l.Path != "" && len(l.Owners) > 0 {
			out = append(out, Field{Path: l.Path, Owners: l.Owners})
		}
	}
	return out
}

// owner is one manager's field set at the current node of the walk.
type owner struct {
	ref   fieldpath.ManagerRef
	set   map[string]any // nil: the whole node is owned
	whole bool
}

func entriesOf(obj map[string]any) ([]owner, error) {
	entries, present, err := fieldpath.EntriesOf(obj)
	if !present {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("metadata.managedFields: %w", err)
	}
	md, _ := obj["metadata"].(map[string]any)
	list, _ := md["managedFields"].([]any)
	var out []owner
	for i, e := range entries {
		var set map[string]any
		if i < len(list) {
			// The decoded field set, when the object holds one (else its JSON text).
			m, _ := list[i].(map[string]any)
			set, _ = m["fieldsV1"].(map[string]any)
		}
		if set == nil && len(e.FieldsV1) > 0 {
			if err := json.Unmarshal(e.FieldsV1, &set); err != nil {
				return nil, fmt.Errorf("metadata.managedFields[%d].fieldsV1: %w", i, err)
			}
		}
		out = append(out, owner{ref: e.Ref(), set: set})
	}
	return out, nil
}

type renderer struct {
	scalar func(any) ([]string, error)
	lines  []Line
	err    error
}

// child returns the owners of a map field.
func childOfField(owners []owner, name string) (children, ownersOfLine []owner) {
	for _, o := range owners {
		if o.whole {
			children = append(children, o)
			ownersOfLine = append(ownersOfLine, o)
			continue
		}
		sub, ok := o.set["f:"+name].(map[string]any)
		if !ok {
			continue
		}
		c := owner{ref: o.ref, set: sub, whole: len(sub) == 0}
		children = append(children, c)
		if c.whole || sub["."] != nil {
			ownersOfLine = append(ownersOfLine, c)
		}
	}
	return
}

// childOfItem returns the owners of a list item.
func childOfItem(owners []owner, item any, index int) (children, ownersOfLine []owner) {
	for _, o := range owners {
		if o.whole {
			children = append(children, o)
			ownersOfLine = append(ownersOfLine, o)
			continue
		}
		for k, v := range o.set {
			sub, _ := v.(map[string]any)
			if !itemMatches(k, item, index) {
				continue
			}
			c := owner{ref: o.ref, set: sub, whole: len(sub) == 0}
			children = append(children, c)
			if c.whole || sub["."] != nil {
				ownersOfLine = append(ownersOfLine, c)
			}
			break
		}
	}
	return
}

func itemMatches(key string, item any, index int) bool {
	switch {
	case strings.HasPrefix(key, "k:"):
		var keys map[string]any
		m, ok := item.(map[string]any)
		if !ok || json.Unmarshal([]byte(key[2:]), &keys) != nil {
			return false
		}
		for k, want := range keys {
			if !unstructured.EqualJSON(m[k], want) {
				return false
			}
		}
		return true
	case strings.HasPrefix(key, "v:"):
		var v any
		return json.Unmarshal([]byte(key[2:]), &v) == nil && unstructured.EqualJSON(item, v)
	case strings.HasPrefix(key, "i:"):
		return key[2:] == strconv.Itoa(index)
	}
	return false
}

func refs(owners []owner) []fieldpath.ManagerRef {
	var out []fieldpath.ManagerRef
	seen := map[string]bool{}
	for _, o := range owners {
		k := fieldpath.ManagerKey(fieldpath.Entry{Manager: o.ref.Manager, Operation: o.ref.Operation, APIVersion: o.ref.APIVersion, Subresource: o.ref.Subresource})
		if !seen[k] {
			seen[k] = true
			out = append(out, o.ref)
		}
	}
	return out
}

func (r *renderer) add(text string, owners []owner, path string) {
	r.lines = append(r.lines, Line{Text: text, Owners: refs(owners), Path: path})
}

// Scalar prints a scalar (or an empty map or list) as YAML, on one line or several (a block
// scalar's lines after the first indented by two spaces): what AnnotateWith's printer prints.
func Scalar(v any) ([]string, error) {
	b, err := yaml.Marshal(v)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"), nil
}

func (r *renderer) keyText(k string) string {
	lines, err := r.scalar(k)
	if err != nil || len(lines) != 1 {
		return strconv.Quote(k)
	}
	return lines[0]
}

// mapValue renders a map's fields at indent.
func (r *renderer) mapValue(m map[string]any, owners []owner, indent, path string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		children, lineOwners := childOfField(owners, k)
		p := path + "." + k
		switch t := v.(type) {
		case map[string]any:
			if len(t) > 0 {
				r.add(indent+r.keyText(k)+":", lineOwners, p)
				r.mapValue(t, children, indent+"  ", p)
				continue
			}
		case []any:
			if len(t) > 0 {
				r.add(indent+r.keyText(k)+":", lineOwners, p)
				r.listValue(t, children, indent, p)
				continue
			}
		}
		r.scalarField(indent+r.keyText(k)+": ", v, lineOwners, indent, p)
	}
}

func (r *renderer) scalarField(prefix string, v any, owners []owner, indent, path string) {
	lines, err := r.scalar(v)
	if err != nil {
		r.err = err
		return
	}
	r.add(prefix+lines[0], owners, path)
	for _, l := range lines[1:] {
		r.add(indent+l, owners, "")
	}
}

// listValue renders list items at indent ("- " then the item).
func (r *renderer) listValue(l []any, owners []owner, indent, path string) {
	for i, item := range l {
		children, lineOwners := childOfItem(owners, item, i)
		p := path + itemPath(item, i, owners)
		start := len(r.lines)
		switch t := item.(type) {
		case map[string]any:
			if len(t) > 0 {
				r.mapValue(t, children, indent+"  ", p)
				break
			}
			r.scalarField(indent+"  ", item, lineOwners, indent+"  ", p)
		case []any:
			if len(t) > 0 {
				r.add(indent+"  ", lineOwners, p) // a nested list starts on its own line
				r.listValue(t, children, indent+"  ", p)
				break
			}
			r.scalarField(indent+"  ", item, lineOwners, indent+"  ", p)
		default:
			r.scalarField(indent+"  ", item, lineOwners, indent+"  ", p)
		}
		if start < len(r.lines) {
			first := &r.lines[start]
			first.Text = indent + "- " + strings.TrimPrefix(first.Text, indent+"  ")
			first.Owners = refs(append(lineOwnersAsOwners(first.Owners), lineOwners...))
			if _, isMap := item.(map[string]any); isMap && len(lineOwners) > 0 {
				first.Path = p
			}
		}
	}
}

func lineOwnersAsOwners(refs []fieldpath.ManagerRef) []owner {
	out := make([]owner, len(refs))
	for i, r := range refs {
		out[i] = owner{ref: r}
	}
	return out
}

// itemPath prints a list item as the server prints paths (structured-merge-diff's printer):
// [k=v,...] by the keys an owner uses, [="v"] for a set item, [i] otherwise.
func itemPath(item any, index int, owners []owner) string {
	for _, o := range owners {
		for k := range o.set {
			if !itemMatches(k, item, index) || !(strings.HasPrefix(k, "k:") || strings.HasPrefix(k, "v:")) {
				continue
			}
			pe, err := smdpath.DeserializePathElement(k)
			if err != nil {
				continue
			}
			if pe.Key != nil {
				pe.Key.Sort()
			}
			return pe.String()
		}
	}
	return "[" + strconv.Itoa(index) + "]"
}
