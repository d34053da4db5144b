package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/serverpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Ignore is what a reviewer does not want to see: fields hidden from the diffs and from
// the gate's findings, as Argo CD's ignoreDifferences (jsonPointers,
// managedFieldsManagers) and Flux's spec.ignore hide them. It never changes a prediction:
// the object stored, its managedFields and the server's refusals stay what they are (a
// conflict refused without force is still refused).
//
// An Ignore is made by NewIgnore from parsed rules, whoever read them: the command's
// --ignore-path and --ignore-manager (ParseIgnoreRule), an Argo CD Application's or a
// Flux Kustomization's fields. It is read, never changed: safe for concurrent use. The nil
// Ignore ignores nothing.
type Ignore struct {
	rules []IgnoreRule
}

// IgnoreRule hides fields of the objects it targets.
//
// A report records it as JSON (group, kind, namespace, name, paths as written, managers).
type IgnoreRule struct {
	// Group and Kind target objects; "*" is any group or kind, "" the core group.
	Group string `json:"group"`
	Kind  string `json:"kind"`
	// Namespace and Name target one object; "" is any.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	// Paths are the fields hidden, with all they hold.
	Paths []IgnorePath `json:"paths,omitempty"`
	// Managers are managers whose fields (in the live or the predicted object's
	// managedFields) are hidden, as Argo CD's managedFieldsManagers.
	Managers []string `json:"managers,omitempty"`
}

// IgnorePath is a field path of an ignore rule: a JSON pointer (/spec/replicas) or a
// JSONPath (.spec.replicas, .spec.containers[0].image, .metadata.labels['app.kubernetes.io/name'],
// [*] or .* for any item or field), as ParseIgnorePath reads them.
type IgnorePath struct {
	text string
	segs []ignoreSeg
}

// ignoreSeg is one step: a field name or list position (token), or any (wildcard).
type ignoreSeg struct {
	token    string
	wildcard bool
}

// String is the path as it was written.
func (p IgnorePath) String() string { return p.text }

// MarshalText is the path as it was written, which UnmarshalText reads back.
func (p IgnorePath) MarshalText() ([]byte, error) { return []byte(p.text), nil }

// UnmarshalText reads a path as ParseIgnorePath does.
func (p *IgnorePath) UnmarshalText(b []byte) error {
	q, err := ParseIgnorePath(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ErrIgnorePath is the error of a path ParseIgnorePath cannot read.
var ErrIgnorePath = errors.New("bad ignore path")

// ParseIgnorePath reads a JSON pointer (RFC 6901: "/spec/replicas", ~0 and ~1 escapes; a
// number is a list position or a field of that name) or a JSONPath ("$.spec.replicas",
// ".spec.replicas", "spec.replicas", with [N], ['name'], ["name"], [*] and .* steps).
func ParseIgnorePath(s string) (IgnorePath, error) {
	bad := func(format string, args ...any) (IgnorePath, error) {
		return IgnorePath{}, fmt.Errorf("%w %q: %s", ErrIgnorePath, s, fmt.Sprintf(format, args...))
	}
	if s == "" || s == "/" || s == "$" || s == "." {
		return bad("it names the whole object")
	}
	p := IgnorePath{text: s}
	if strings.HasPrefix(s, "/") {
		for _, tok := range strings.Split(s[1:], "/") {
			if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(tok, "~0", ""), "~1", ""), "~") {
				return bad("~ must be ~0 or ~1 in a JSON pointer")
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			p.segs = append(p.segs, ignoreSeg{token: tok})
		}
		return p, nil
	}
	rest := strings.TrimPrefix(s, "$")
	if rest != "" && rest[0] != '.' && rest[0] != '[' {
		rest = "." + rest
	}
	for rest != "" {
		switch rest[0] {
		case '.':
			end := 1
			for end < len(rest) && rest[end] != '.' && rest[end] != '[' {
				end++
			}
			name := rest[1:end]
			if name == "" || strings.ContainsAny(name, "] \t\n") {
				return bad("a field name %q at %d (quote names with ['…'])", name, len(s)-len(rest))
			}
			if name == "*" {
				name = ""
			}
			p.segs = append(p.segs, ignoreSeg{token: name, wildcard: name == ""})
			rest = rest[end:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if q := rest[1:min(2, len(rest))]; q == "'" || q == `"` {
				close := strings.Index(rest[2:], q+"]")
				if close < 0 {
					return bad("the quoted name at %d is not closed", len(s)-len(rest))
				}
				p.segs = append(p.segs, ignoreSeg{token: rest[2 : 2+close]})
				rest = rest[2+close+2:]
				continue
			}
			if end < 0 {
				return bad("the '[' at %d is not closed", len(s)-len(rest))
			}
			in := rest[1:end]
			switch _, err := strconv.ParseUint(in, 10, 31); {
			case in == "*":
				p.segs = append(p.segs, ignoreSeg{wildcard: true})
			case err == nil:
				p.segs = append(p.segs, ignoreSeg{token: in})
			default:
				return bad("[%s]: want a position, * or a quoted name", in)
			}
			rest = rest[end+1:]
		default:
			return bad("expected '.' or '[' at %d", len(s)-len(rest))
		}
	}
	return p, nil
}

// ParseIgnoreRule reads a rule as --ignore-path writes it: PATH for every object, or
// GROUP/KIND:PATH or GROUP/KIND/NAMESPACE/NAME:PATH for some (as Argo CD's
// ignoreDifferences targets them: core the core group (a rule starting with / is a JSON
// pointer), * any group or kind,
// NAMESPACE "" or * any; a KIND alone is that kind in any group).
func ParseIgnoreRule(s string) (IgnoreRule, error) {
	r := IgnoreRule{Group: "*", Kind: "*"}
	text := s
	if s != "" && !strings.ContainsRune("/.$", rune(s[0])) {
		scope, path, ok := strings.Cut(s, ":")
		if !ok {
			return IgnoreRule{}, fmt.Errorf("%w %q: want PATH or GROUP/KIND[/NAMESPACE/NAME]:PATH", ErrIgnorePath, s)
		}
		parts := strings.Split(scope, "/")
		switch len(parts) {
		case 1:
			r.Kind = parts[0]
		case 2:
			r.Group, r.Kind = parts[0], parts[1]
		case 4:
			r.Group, r.Kind, r.Namespace, r.Name = parts[0], parts[1], parts[2], parts[3]
		default:
			return IgnoreRule{}, fmt.Errorf("%w %q: the target %q is not KIND, GROUP/KIND or GROUP/KIND/NAMESPACE/NAME", ErrIgnorePath, s, scope)
		}
		if r.Group == "core" {
			r.Group = ""
		}
		if r.Namespace == "*" {
			r.Namespace = ""
		}
		if r.Kind == "" {
			return IgnoreRule{}, fmt.Errorf("%w %q: the target %q names no kind", ErrIgnorePath, s, scope)
		}
		text = path
	}
	p, err := ParseIgnorePath(text)
	if err != nil {
		return IgnoreRule{}, err
	}
	r.Paths = []IgnorePath{p}
	return r, nil
}

// NewIgnore is the Ignore of rules. A rule must target a kind and hide a path or a
// manager's fields.
func NewIgnore(rules ...IgnoreRule) (*Ignore, error) {
	ig := &Ignore{}
	for i, r := range rules {
		if r.Kind == "" {
			return nil, fmt.Errorf("ignore rule %d: no kind (\"*\" for any)", i+1)
		}
		if len(r.Paths) == 0 && len(r.Managers) == 0 {
			return nil, fmt.Errorf("ignore rule %d: no path and no manager", i+1)
		}
		for _, p := range r.Paths {
			if len(p.segs) == 0 {
				return nil, fmt.Errorf("ignore rule %d: a path that is not read by ParseIgnorePath", i+1)
			}
		}
		r.Paths = append([]IgnorePath(nil), r.Paths...)
		r.Managers = append([]string(nil), r.Managers...)
		ig.rules = append(ig.rules, r)
	}
	return ig, nil
}

// MarshalJSON is the Ignore's rules, as a report records them.
func (ig *Ignore) MarshalJSON() ([]byte, error) {
	rules := ig.Rules()
	if rules == nil {
		rules = []IgnoreRule{}
	}
	return json.Marshal(rules)
}

// UnmarshalJSON reads the rules MarshalJSON writes, checked as NewIgnore checks them.
func (ig *Ignore) UnmarshalJSON(b []byte) error {
	var rules []IgnoreRule
	if err := json.Unmarshal(b, &rules); err != nil {
		return err
	}
	read, err := NewIgnore(rules...)
	if err != nil {
		return err
	}
	*ig = *read
	return nil
}

// Empty reports whether the Ignore hides nothing.
func (ig *Ignore) Empty() bool { return ig == nil || len(ig.rules) == 0 }

// Rules are the Ignore's rules.
func (ig *Ignore) Rules() []IgnoreRule {
	if ig == nil {
		return nil
	}
	return append([]IgnoreRule(nil), ig.rules...)
}

func (r IgnoreRule) targets(group, kind, namespace, name string) bool {
	return (r.Group == "*" || r.Group == group) && (r.Kind == "*" || r.Kind == kind) &&
		(r.Namespace == "" || r.Namespace == namespace) && (r.Name == "" || r.Name == name)
}

// ObjectIgnore is what an Ignore hides of one object: its rules, resolved on the live and
// the predicted object.
type ObjectIgnore struct {
	paths    []IgnorePath
	managers map[string]bool
	// owned[0] and owned[1] are the pointers of the ignored managers' fields in the live
	// and the predicted object; ownedPaths the same fields as the server prints them.
	owned      [2][][]string
	ownedPaths map[string]bool
}

// For is what the Ignore hides of the object apiVersion/kind namespace/name, whose live
// and predicted versions are live and pred (either may be nil); nil when nothing.
func (ig *Ignore) For(apiVersion, kind, namespace, name string, live, pred map[string]any) *ObjectIgnore {
	if ig.Empty() {
		return nil
	}
	group, _, _ := strings.Cut(apiVersion, "/")
	if !strings.Contains(apiVersion, "/") {
		group = ""
	}
	oi := &ObjectIgnore{managers: map[string]bool{}, ownedPaths: map[string]bool{}}
	for _, r := range ig.rules {
		if !r.targets(group, kind, namespace, name) {
			continue
		}
		oi.paths = append(oi.paths, r.Paths...)
		for _, m := range r.Managers {
			oi.managers[m] = true
		}
	}
	if len(oi.paths) == 0 && len(oi.managers) == 0 {
		return nil
	}
	if len(oi.managers) > 0 {
		for side, obj := range []map[string]any{live, pred} {
			if obj == nil {
				continue
			}
			for _, p := range managersFields(obj, oi.managers) {
				oi.ownedPaths[fieldpath.PathString(p)] = true
				if ptr, ok := fieldpath.JSONPointer(p, obj); ok {
					oi.owned[side] = append(oi.owned[side], pointerTokens(ptr))
				}
			}
		}
	}
	for _, o := range oi.owned {
		// The last positions first: hiding a set item moves the items after it.
		sort.Slice(o, func(i, j int) bool { return tokensAfter(o[i], o[j]) })
	}
	return oi
}

// tokensAfter orders pointers backwards, positions as numbers.
func tokensAfter(a, b []string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		x, errx := strconv.Atoi(a[i])
		y, erry := strconv.Atoi(b[i])
		if errx == nil && erry == nil {
			return x > y
		}
		return a[i] > b[i]
	}
	return len(a) > len(b)
}

// managersFields are the leaf fields the managers own in obj's managedFields.
func managersFields(obj map[string]any, managers map[string]bool) []smdpath.Path {
	entries, _, err := fieldpath.EntriesOf(obj)
	if err != nil {
		return nil
	}
	var out []smdpath.Path
	for _, e := range entries {
		if !managers[e.Manager] || len(e.FieldsV1) == 0 {
			continue
		}
		set, err := fieldpath.FieldsV1ToSet(e.FieldsV1)
		if err != nil {
			continue
		}
		fieldpath.IterateLeaves(set, func(p smdpath.Path) { out = append(out, p.Copy()) })
	}
	return out
}

func pointerTokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

// Manager reports whether the rules hide the fields of manager.
func (oi *ObjectIgnore) Manager(manager string) bool { return oi != nil && oi.managers[manager] }

// Covers reports whether the field path (as the server prints it: .spec.replicas,
// .spec.containers[name="web"].image) is hidden: it is, or is under, an ignored path in
// the live or the predicted object, or an ignored manager owns it.
func (oi *ObjectIgnore) Covers(path string, live, pred map[string]any) bool {
	if oi == nil {
		return false
	}
	for p := path; p != ""; p = parentPath(p) {
		if oi.ownedPaths[p] {
			return true
		}
	}
	elems, err := serverpath.Parse(path)
	if err != nil {
		return false
	}
	for side, obj := range []map[string]any{live, pred} {
		toks, ok := resolve(obj, elems)
		if !ok {
			continue
		}
		for _, p := range oi.paths {
			if p.prefixOf(toks) {
				return true
			}
		}
		for _, o := range oi.owned[side] {
			if tokensPrefix(o, toks) {
				return true
			}
		}
	}
	return false
}

// parentPath is path without its last element ("" at the top).
func parentPath(path string) string {
	elems, err := serverpath.Parse(path)
	if err != nil || len(elems) == 0 {
		return ""
	}
	return serverpath.String(elems[:len(elems)-1])
}

func tokensPrefix(prefix, toks []string) bool {
	if len(prefix) > len(toks) {
		return false
	}
	for i := range prefix {
		if prefix[i] != toks[i] {
			return false
		}
	}
	return true
}

func (p IgnorePath) prefixOf(toks []string) bool {
	if len(p.segs) > len(toks) {
		return false
	}
	for i, s := range p.segs {
		if !s.wildcard && s.token != toks[i] {
			return false
		}
	}
	return true
}

// resolve turns a server-printed path into the pointer tokens of its field in obj: keyed
// and set items become positions, consecutive field elements are joined where obj's key
// holds dots (labels' app.kubernetes.io/name).
func resolve(obj any, elems []serverpath.Element) ([]string, bool) {
	var toks []string
	cur := obj
	for i := 0; i < len(elems); i++ {
		e := elems[i]
		switch c := cur.(type) {
		case map[string]any:
			if e.Selector {
				if _, ok := c[e.Text]; !ok {
					return nil, false
				}
				toks, cur = append(toks, e.Text), c[e.Text]
				continue
			}
			name, j := e.Text, i
			_, ok := c[name]
			for k := i + 1; !ok && k < len(elems) && !elems[k].Selector; k++ {
				name += "." + elems[k].Text
				if _, ok = c[name]; ok {
					j = k
				}
			}
			if !ok {
				return nil, false
			}
			toks, cur, i = append(toks, name), c[name], j
		case []any:
			if !e.Selector {
				return nil, false
			}
			item, err := serverpath.ParseItem(e.Text)
			if err != nil {
				return nil, false
			}
			at := -1
			for n, x := range c {
				if itemIs(x, n, item) {
					at = n
					break
				}
			}
			if at < 0 {
				return nil, false
			}
			toks, cur = append(toks, strconv.Itoa(at)), c[at]
		default:
			return nil, false
		}
	}
	return toks, true
}

func itemIs(x any, n int, item serverpath.Item) bool {
	switch {
	case item.HasIndex:
		return n == item.Index
	case item.HasValue:
		return fmt.Sprint(x) == fmt.Sprint(item.Value)
	}
	m, ok := x.(map[string]any)
	if !ok || len(item.Keys) == 0 {
		return false
	}
	for k, v := range item.Keys {
		if fmt.Sprint(m[k]) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

// Hide returns copies of live and pred without what the rules hide (the inputs are not
// changed; an object with nothing hidden is returned as it is).
func (oi *ObjectIgnore) Hide(live, pred map[string]any) (map[string]any, map[string]any) {
	if oi == nil {
		return live, pred
	}
	out := [2]map[string]any{live, pred}
	for side, obj := range out {
		if obj == nil {
			continue
		}
		var v any = obj
		for _, p := range oi.paths {
			v, _, _ = strip(v, p.segs)
		}
		for _, o := range oi.owned[side] {
			segs := make([]ignoreSeg, len(o))
			for i, t := range o {
				segs[i] = ignoreSeg{token: t}
			}
			v, _, _ = strip(v, segs)
		}
		m, _ := v.(map[string]any)
		out[side] = m
	}
	return out[0], out[1]
}

// strip returns v without what segs reach, copying what it changes: changed when it
// changed something, gone when segs reach v itself.
func strip(v any, segs []ignoreSeg) (out any, changed, gone bool) {
	if len(segs) == 0 {
		return nil, true, true
	}
	s := segs[0]
	switch c := v.(type) {
	case map[string]any:
		var cp map[string]any
		for k, x := range c {
			if !s.wildcard && k != s.token {
				continue
			}
			nx, ch, g := strip(x, segs[1:])
			if !ch {
				continue
			}
			if cp == nil {
				cp = make(map[string]any, len(c))
				for k2, x2 := range c {
					cp[k2] = x2
				}
			}
			if g {
				delete(cp, k)
			} else {
				cp[k] = nx
			}
		}
		if cp == nil {
			return v, false, false
		}
		return cp, true, false
	case []any:
		changed := false
		cp := make([]any, 0, len(c))
		for i, x := range c {
			if !s.wildcard && strconv.Itoa(i) != s.token {
				cp = append(cp, x)
				continue
			}
			nx, ch, g := strip(x, segs[1:])
			changed = changed || ch
			if !g {
				cp = append(cp, nx)
			}
		}
		if !changed {
			return v, false, false
		}
		return cp, true, false
	}
	return v, false, false
}
