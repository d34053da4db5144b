package input

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

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

// index parses the document again with a position-keeping YAML parser (JSON is YAML too).
// A document it cannot parse simply has no positions.
func (d *document) index() {
	d.lines = map[string]int{}
	var n yamlv3.Node
	if err := yamlv3.Unmarshal(d.raw, &n); err != nil {
		return
	}
	root := &n
	if root.Kind == yamlv3.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	d.walk(root, "", 0)
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

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
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
func (o *Object) LineOfFieldPathIn(tree map[string]interface{}, path string) int {
	return o.Line(pointerOf(tree, path))
}

// pointerOf resolves a field path against the object into the JSON Pointer of the longest
// prefix that exists. Map keys may hold dots (app.kubernetes.io/name), so a key is matched
// against the object, the longest that fits first.
func pointerOf(tree map[string]interface{}, path string) string {
	ptr, _ := resolvePath(tree, path)
	return ptr
}

// resolvePath is pointerOf, and whether the whole path was found. A bracketed element on
// a map is a key, as validation errors print map keys (metadata.labels[app]).
func resolvePath(tree map[string]interface{}, path string) (string, bool) {
	var ptr strings.Builder
	var cur interface{} = tree
	rest := path
	for rest != "" {
		switch {
		case rest[0] == '.':
			m, ok := cur.(map[string]interface{})
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
			end := closingBracket(rest)
			if end < 0 {
				return ptr.String(), false
			}
			l, ok := cur.([]interface{})
			if !ok {
				m, isMap := cur.(map[string]interface{})
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

// closingBracket is the index of the ']' that closes s[0] == '[', past quoted strings.
func closingBracket(s string) int {
	inString, escaped := false, false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == ']':
			return i
		}
	}
	return -1
}

// itemIndex finds the item a path element selects: "3" (an index), "=\"x\"" (a set's
// value) or "name=\"app\",port=80" (a keyed list's item).
func itemIndex(l []interface{}, sel string) int {
	if n, err := strconv.Atoi(sel); err == nil {
		if n >= 0 && n < len(l) {
			return n
		}
		return -1
	}
	if strings.HasPrefix(sel, "=") {
		var v interface{}
		if json.Unmarshal([]byte(sel[1:]), &v) != nil {
			return -1
		}
		for i, x := range l {
			if sameScalar(x, v) {
				return i
			}
		}
		return -1
	}
	keys := map[string]interface{}{}
	for _, kv := range splitKeys(sel) {
		eq := strings.IndexByte(kv, '=')
		if eq < 0 {
			return -1
		}
		var v interface{}
		if json.Unmarshal([]byte(kv[eq+1:]), &v) != nil {
			return -1
		}
		keys[kv[:eq]] = v
	}
	// Keys an item lacks (defaults the server adds, like a port's protocol) do not rule
	// it out; at least one must be there.
	for i, x := range l {
		m, ok := x.(map[string]interface{})
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

// splitKeys splits "a=1,b=\"x,y\"" at the commas outside strings.
func splitKeys(s string) []string {
	var parts []string
	inString, escaped, start := false, false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == ',':
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// sameScalar compares a decoded value with one read from a path (JSON numbers are
// float64 there, int64 or float64 in objects).
func sameScalar(a, b interface{}) bool {
	num := func(v interface{}) (float64, bool) {
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
