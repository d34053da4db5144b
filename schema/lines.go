package schema

import (
	"errors"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// addLines fills in Error.Line for the errors of one document: the line
// (in the whole input) of the node each error's path names, found by
// walking the document's YAML node tree. Only done on errors, so the happy
// path never parses twice.
// prefix locates the object in the document ("items[3]." for an item of a
// List).
func addLines(err error, doc document, prefix string) {
	if err == nil || len(doc.text) == 0 {
		return
	}
	var root yaml.Node
	if yaml.Unmarshal(doc.text, &root) != nil || len(root.Content) == 0 {
		return
	}
	for _, e := range flattenErrors(err) {
		var se *Error
		if !errors.As(e, &se) || se.Line != 0 {
			continue
		}
		if n := nodeAt(root.Content[0], splitFieldPath(prefix+se.Path)); n != nil {
			se.Line = doc.startLine + n.Line - 1
		}
	}
}

func flattenErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// splitFieldPath splits spec.versions[1].schema.properties["a.b"] into
// "spec", "versions", "1", "schema", "properties", "a.b". Indexes are
// returned as decimal strings, names as they are.
func splitFieldPath(p string) []string {
	var out []string
	for len(p) > 0 {
		switch p[0] {
		case '.':
			p = p[1:]
		case '[':
			end := strings.IndexByte(p, ']')
			if len(p) > 1 && p[1] == '"' {
				// A quoted name: find the closing quote, then the bracket.
				if name, rest, ok := unquotePrefix(p[1:]); ok && strings.HasPrefix(rest, "]") {
					out = append(out, name)
					p = rest[1:]
					continue
				}
			}
			if end < 0 {
				return append(out, p)
			}
			out = append(out, p[1:end])
			p = p[end+1:]
		default:
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			out = append(out, p[:end])
			p = p[end:]
		}
	}
	return out
}

// unquotePrefix reads a Go-quoted string at the start of s.
func unquotePrefix(s string) (value, rest string, ok bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			v, err := strconv.Unquote(s[:i+1])
			if err != nil {
				return "", "", false
			}
			return v, s[i+1:], true
		}
	}
	return "", "", false
}

// nodeAt walks a YAML node tree along path; it returns the deepest node
// reached, or nil if the first step fails. A mapping key's node is used for
// the last step, so the line is the one that names the field.
func nodeAt(n *yaml.Node, path []string) *yaml.Node {
	var last *yaml.Node
	for _, step := range path {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			var next, key *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == step {
					key, next = n.Content[i], n.Content[i+1]
					break
				}
			}
			if next == nil {
				return last
			}
			last, n = key, next
		case yaml.SequenceNode:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(n.Content) {
				return last
			}
			n = n.Content[i]
			last = n
		default:
			return last
		}
	}
	return last
}
