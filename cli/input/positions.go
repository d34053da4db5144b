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
