package input

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/serverpath"
	yamlv3 "go.yaml.in/yaml/v3"
)

// document is the text of one document and, once asked for, the line of each of its fields.
type document struct {
	raw       []byte
	firstLine int
	json      bool // raw is one JSON value

	once  sync.Once
	lines map[string]int // JSON Pointer → absolute 1-based line
}

// line returns the line of the node at pointer, or of its closest ancestor with a known line.
func (d *document) line(pointer string) int {
	if d == nil {
		return 0
	}
	d.once.Do(d.index)
	for {
		if l, ok := d.lines[pointer]; ok {
			return l
		}
		i := strings.LastIndexByte(pointer, '/')
		if i < 0 {
			return 0
		}
		pointer = pointer[:i]
	}
}

// itemLines finds the lines of the n items of the array at base ("" or "/items") of a JSON
// document with a quick token scan, cheaper than indexing every field of a large List.
// It returns nil for YAML documents or when the scan fails.
func (d *document) itemLines(base string, n int) []int {
	if !d.json {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(d.raw))
	if base == "/items" {
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil
		}
		for {
			t, err := dec.Token()
			if err != nil {
				return nil
			}
			if t == "items" {
				break
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
		}
	} else if base != "" {
		return nil
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil
	}
	lines := make([]int, 0, n)
	off, line := 0, d.firstLine
	for dec.More() {
		start := int(dec.InputOffset())
		for start < len(d.raw) && (isSpace(d.raw[start]) || d.raw[start] == ',') {
			start++
		}
		line += bytes.Count(d.raw[off:start], []byte("\n"))
		off = start
		lines = append(lines, line)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	if len(lines) != n {
		return nil
	}
	return lines
}

// index finds the line of each field: in a YAML document written in block style by reading
// its lines (blockLines), otherwise by parsing it again with a position-keeping YAML parser
// (JSON is YAML too). A document it cannot parse simply has no positions.
func (d *document) index() {
	if !d.json {
		if lines, ok := blockLines(d.raw, d.firstLine); ok {
			d.lines = lines
			return
		}
	}
	d.lines = yamlLines(d.raw, d.firstLine)
}

// yamlLines is the line of each node of a document, from yaml.v3's nodes.
func yamlLines(raw []byte, firstLine int) map[string]int {
	d := &document{raw: raw, firstLine: firstLine, lines: map[string]int{}}
	var n yamlv3.Node
	if err := yamlv3.Unmarshal(raw, &n); err != nil {
		return d.lines
	}
	root := &n
	if root.Kind == yamlv3.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	d.walk(root, "", 0)
	return d.lines
}

const maxIndexDepth = 1000

func (d *document) walk(n *yamlv3.Node, ptr string, depth int) {
	if n == nil || depth > maxIndexDepth {
		return
	}
	if _, ok := d.lines[ptr]; !ok {
		d.lines[ptr] = d.firstLine + n.Line - 1
	}
	switch n.Kind {
	case yamlv3.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := ptr + "/" + escapePointer(k.Value)
			d.lines[p] = d.firstLine + k.Line - 1
			d.walk(v, p, depth+1)
		}
	case yamlv3.SequenceNode:
		for i, c := range n.Content {
			d.walk(c, ptr+"/"+strconv.Itoa(i), depth+1)
		}
	}
}

// escapePointer escapes a key as a JSON Pointer's segment (RFC 6901): ~ as ~0, / as ~1.
// Keys with a slash are common (label and annotation names), so it is written out rather
// than made a strings.Replacer per call.
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			b.WriteString("~0")
		case '/':
			b.WriteString("~1")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// unescapePointer reads a JSON Pointer's segment: ~1 is /, ~0 is ~, left to right.
func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && i+1 < len(s) && (s[i+1] == '1' || s[i+1] == '0') {
			if s[i+1] == '1' {
				b.WriteByte('/')
			} else {
				b.WriteByte('~')
			}
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// PointerToPath turns a JSON Pointer into a field path for messages: /spec/containers/0/image
// becomes .spec.containers[0].image.
func PointerToPath(pointer string) string {
	if pointer == "" {
		return ""
	}
	var b strings.Builder
	for _, seg := range strings.Split(pointer[1:], "/") {
		seg = unescapePointer(seg)
		if _, err := strconv.Atoi(seg); err == nil {
			b.WriteString("[" + seg + "]")
			continue
		}
		b.WriteString("." + seg)
	}
	return b.String()
}

// LineOfFieldPath returns the line of the field at path, a field path as the API server
// prints it in its messages (.spec.containers[name="app"].image, .data.a, [0]), or of
// the closest enclosing field found; the object's line when nothing is found. A list item
// named by keys matches when the keys it has match (the server's defaults, such as a
// port's protocol, are not in a manifest).
func (o *Object) LineOfFieldPath(path string) int {
	tree := o.Object
	if o.text != nil {
		tree, _ = o.Decode()
	}
	return o.LineOfFieldPathIn(tree, path)
}

// LineOfFieldPathIn is LineOfFieldPath with the object's tree given: for a deferred
// object, the tree Decode made, which saves decoding it again.
func (o *Object) LineOfFieldPathIn(tree map[string]any, path string) int {
	return o.Line(pointerOf(tree, path))
}

// pointerOf resolves a field path against the object into the JSON Pointer of the longest
// prefix that exists. Map keys may hold dots (app.kubernetes.io/name), so a key is matched
// against the object, the longest that fits first.
func pointerOf(tree map[string]any, path string) string {
	ptr, _ := resolvePath(tree, path)
	return ptr
}

// resolvePath is pointerOf, and whether the whole path was found. A bracketed element on
// a map is a key, as validation errors print map keys (metadata.labels[app]).
func resolvePath(tree map[string]any, path string) (string, bool) {
	var ptr strings.Builder
	var cur any = tree
	rest := path
	for rest != "" {
		switch {
		case rest[0] == '.':
			m, ok := cur.(map[string]any)
			if !ok {
				return ptr.String(), false
			}
			best := ""
			for k := range m {
				if len(k) > len(best) && strings.HasPrefix(rest[1:], k) {
					if after := rest[1+len(k):]; after == "" || after[0] == '.' || after[0] == '[' {
						best = k
					}
				}
			}
			if best == "" {
				return ptr.String(), false
			}
			ptr.WriteString("/" + escapePointer(best))
			cur, rest = m[best], rest[1+len(best):]
		case rest[0] == '[':
			end := serverpath.SelectorEnd(rest)
			if end < 0 {
				return ptr.String(), false
			}
			l, ok := cur.([]any)
			if !ok {
				m, isMap := cur.(map[string]any)
				key := rest[1:end]
				if v, has := m[key]; isMap && has {
					ptr.WriteString("/" + escapePointer(key))
					cur, rest = v, rest[end+1:]
					continue
				}
				return ptr.String(), false
			}
			i := itemIndex(l, rest[1:end])
			if i < 0 {
				return ptr.String(), false
			}
			ptr.WriteString("/" + strconv.Itoa(i))
			cur, rest = l[i], rest[end+1:]
		default:
			return ptr.String(), false
		}
	}
	return ptr.String(), true
}

// itemIndex finds the item a path element selects: "3" (an index), "=\"x\"" (a set's
// value) or "name=\"app\",port=80" (a keyed list's item).
func itemIndex(l []any, sel string) int {
	item, err := serverpath.ParseItem(sel)
	switch {
	case err != nil:
		return -1
	case item.HasIndex:
		if item.Index >= 0 && item.Index < len(l) {
			return item.Index
		}
		return -1
	case item.HasValue:
		for i, x := range l {
			if sameScalar(x, item.Value) {
				return i
			}
		}
		return -1
	}
	keys := item.Keys
	// Keys an item lacks (defaults the server adds, like a port's protocol) do not rule
	// it out; at least one must be there.
	for i, x := range l {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		matched := 0
		for k, v := range keys {
			got, has := m[k]
			if !has {
				continue
			}
			if !sameScalar(got, v) {
				matched = -1
				break
			}
			matched++
		}
		if matched > 0 {
			return i
		}
	}
	return -1
}

// sameScalar compares a decoded value with one read from a path (JSON numbers are
// float64 there, int64 or float64 in objects).
func sameScalar(a, b any) bool {
	num := func(v any) (float64, bool) {
		switch t := v.(type) {
		case int64:
			return float64(t), true
		case float64:
			return t, true
		}
		return 0, false
	}
	if x, ok := num(a); ok {
		y, ok := num(b)
		return ok && x == y
	}
	switch a.(type) {
	case string, bool, nil:
		return a == b
	}
	return false // maps and lists are no keys
}
