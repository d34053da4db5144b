package jsontext

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Compact appends src to dst as json.Compact does — the text without the spaces between
// tokens — and fails when json.Compact would: when src is not one valid JSON value.
func Compact(dst *bytes.Buffer, src []byte) error {
	w := walker{Scanner: NewScanner(src), out: dst.AvailableBuffer()}
	if w.whole() {
		dst.Write(w.out)
		return nil
	}
	return json.Compact(dst, src)
}

// Indent appends src to dst as json.Indent does: each element of an object or array on a
// line of its own, starting with prefix and indent once per level, a space after each
// colon, empty objects and arrays as {} and []; it fails when json.Indent would.
func Indent(dst *bytes.Buffer, src []byte, prefix, indent string) error {
	w := walker{Scanner: NewScanner(src), out: dst.AvailableBuffer(), indent: true, prefix: prefix, step: indent}
	if w.whole() {
		dst.Write(w.out)
		return nil
	}
	return json.Indent(dst, src, prefix, indent)
}

// AppendIndent appends src, one JSON value between optional spaces, to dst as Indent
// indents its compact text (json.Compact's) when that text is an element depth levels
// deep: each element on a line of its own starting with prefix and indent depth+1 times
// per level below, no spaces before or after the value. In one pass: a value held as
// text (a managedFields entry's fieldsV1) is written into an indented document without
// being compacted first. It reports false, with dst as given, when src is not one valid
// JSON value or nests deeper than the walker goes (maxDepth, counting depth): encoding/json
// is then the one to ask.
func AppendIndent(dst, src []byte, prefix, indent string, depth int) ([]byte, bool) {
	w := walker{Scanner: NewScanner(src), out: dst, indent: true, prefix: prefix, step: indent}
	w.Space()
	if !w.value(depth) {
		return dst, false
	}
	w.Space()
	if !w.AtEnd() {
		return dst, false
	}
	return w.out, true
}

// maxDepth is the nesting encoding/json's scanner accepts; deeper text is left to it.
const maxDepth = 10000

// walker copies one JSON value, checking JSON's grammar as it goes.
type walker struct {
	Scanner
	out    []byte
	indent bool   // Indent's layout; Compact's otherwise
	prefix string // Indent's
	step   string
	check  *Compactor // a Compactor's: the keys of open objects, what the checks found
}

// whole copies the text, one value between optional spaces (Indent keeps those after it);
// false when it is not valid JSON or nests past maxDepth.
func (w *walker) whole() bool {
	w.Space()
	if !w.value(0) {
		return false
	}
	end := w.pos
	w.Space()
	if w.indent {
		// json.Indent keeps the spaces after the value, as they are.
		w.out = append(w.out, w.data[end:w.pos]...)
	}
	return w.AtEnd()
}

// newline starts the line of an element at depth (Indent only).
func (w *walker) newline(depth int) {
	if !w.indent {
		return
	}
	w.out = append(w.out, '\n')
	w.out = append(w.out, w.prefix...)
	for range depth {
		w.out = append(w.out, w.step...)
	}
}

// value copies the value at the read position, which nests depth levels deep.
func (w *walker) value(depth int) bool {
	switch b := w.Peek(); {
	case b == '{' || b == '[':
		if w.check != nil {
			return w.checkedContainer(depth)
		}
		return w.container(depth)
	case b == '"':
		return w.string()
	case b == 't':
		return w.literal("true")
	case b == 'f':
		return w.literal("false")
	case b == 'n':
		return w.literal("null")
	case b == '-' || b >= '0' && b <= '9':
		text, ok := w.Number()
		w.out = append(w.out, text...)
		return ok
	}
	return false
}

// container copies an object or an array.
func (w *walker) container(depth int) bool {
	if depth >= maxDepth {
		return false
	}
	open := w.Peek()
	closing := byte(']')
	if open == '{' {
		closing = '}'
	}
	w.out = append(w.out, open)
	if w.Enter(closing) {
		w.out = append(w.out, closing)
		return true
	}
	for {
		w.newline(depth + 1)
		w.Space()
		if open == '{' {
			if !w.string() || !w.colon() {
				return false
			}
			w.out = append(w.out, ':')
			if w.indent {
				w.out = append(w.out, ' ')
			}
		}
		if !w.value(depth + 1) {
			return false
		}
		more, ok := w.Next(closing)
		switch {
		case !ok:
			return false
		case more:
			w.out = append(w.out, ',')
		default:
			w.newline(depth)
			w.out = append(w.out, closing)
			return true
		}
	}
}

func (w *walker) literal(word string) bool {
	if !w.Literal(word) {
		return false
	}
	w.out = append(w.out, word...)
	return true
}

// string copies a string as it is written; with checks, it notes a string that is not
// UTF-8.
func (w *walker) string() bool {
	start := w.pos
	inner, _, ascii, ok := w.quoted()
	if !ok {
		return false
	}
	w.out = append(w.out, w.data[start:w.pos]...)
	if !ascii && w.check != nil && !utf8.Valid(inner) {
		w.check.found.UTF8 = false
	}
	return true
}
