package jsontext

import (
	"bytes"
	"encoding/json"
)

// Compact appends src to dst as json.Compact does — the text without the spaces between
// tokens — and fails when json.Compact would: when src is not one valid JSON value.
func Compact(dst *bytes.Buffer, src []byte) error {
	w := walker{src: src, out: dst.AvailableBuffer()}
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
	w := walker{src: src, out: dst.AvailableBuffer(), indent: true, prefix: prefix, step: indent}
	if w.whole() {
		dst.Write(w.out)
		return nil
	}
	return json.Indent(dst, src, prefix, indent)
}

// maxDepth is the nesting encoding/json's scanner accepts; deeper text is left to it.
const maxDepth = 10000

// walker copies one JSON value, checking JSON's grammar as it goes.
type walker struct {
	src, out []byte
	pos      int
	indent   bool   // Indent's layout; Compact's otherwise
	prefix   string // Indent's
	step     string
}

// whole copies src, one value between optional spaces (Indent keeps those after it); false when it is not valid JSON or
// nests past maxDepth.
func (w *walker) whole() bool {
	w.space()
	if !w.value(0) {
		return false
	}
	end := w.pos
	w.space()
	if w.indent {
		// json.Indent keeps the spaces after the value, as they are.
		w.out = append(w.out, w.src[end:w.pos]...)
	}
	return w.pos == len(w.src)
}

func (w *walker) space() {
	for w.pos < len(w.src) {
		switch w.src[w.pos] {
		case ' ', '\t', '\n', '\r':
			w.pos++
		default:
			return
		}
	}
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

// value copies the value at pos, which nests depth levels deep.
func (w *walker) value(depth int) bool {
	if w.pos >= len(w.src) {
		return false
	}
	switch b := w.src[w.pos]; {
	case b == '{' || b == '[':
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
		return w.number()
	}
	return false
}

// container copies an object or an array.
func (w *walker) container(depth int) bool {
	if depth >= maxDepth {
		return false
	}
	open := w.src[w.pos]
	closing := byte(']')
	if open == '{' {
		closing = '}'
	}
	w.out = append(w.out, open)
	w.pos++
	w.space()
	if w.pos < len(w.src) && w.src[w.pos] == closing {
		w.out = append(w.out, closing)
		w.pos++
		return true
	}
	for {
		w.newline(depth + 1)
		w.space()
		if open == '{' {
			if w.pos >= len(w.src) || w.src[w.pos] != '"' || !w.string() {
				return false
			}
			w.space()
			if w.pos >= len(w.src) || w.src[w.pos] != ':' {
				return false
			}
			w.out = append(w.out, ':')
			if w.indent {
				w.out = append(w.out, ' ')
			}
			w.pos++
			w.space()
		}
		if !w.value(depth + 1) {
			return false
		}
		w.space()
		if w.pos >= len(w.src) {
			return false
		}
		switch w.src[w.pos] {
		case ',':
			w.out = append(w.out, ',')
			w.pos++
		case closing:
			w.newline(depth)
			w.out = append(w.out, closing)
			w.pos++
			return true
		default:
			return false
		}
	}
}

func (w *walker) literal(word string) bool {
	if len(w.src)-w.pos < len(word) || string(w.src[w.pos:w.pos+len(word)]) != word {
		return false
	}
	w.out = append(w.out, word...)
	w.pos += len(word)
	return true
}

// number copies a number of JSON's grammar: an integer part without leading zeros, a
// fraction, an exponent.
func (w *walker) number() bool {
	start := w.pos
	if w.src[w.pos] == '-' {
		w.pos++
	}
	if w.pos < len(w.src) && w.src[w.pos] == '0' {
		w.pos++
	} else if w.digits() == 0 {
		return false
	}
	if w.pos < len(w.src) && w.src[w.pos] == '.' {
		w.pos++
		if w.digits() == 0 {
			return false
		}
	}
	if w.pos < len(w.src) && (w.src[w.pos] == 'e' || w.src[w.pos] == 'E') {
		w.pos++
		if w.pos < len(w.src) && (w.src[w.pos] == '+' || w.src[w.pos] == '-') {
			w.pos++
		}
		if w.digits() == 0 {
			return false
		}
	}
	w.out = append(w.out, w.src[start:w.pos]...)
	return true
}

func (w *walker) digits() int {
	n := 0
	for w.pos < len(w.src) && w.src[w.pos] >= '0' && w.src[w.pos] <= '9' {
		w.pos++
		n++
	}
	return n
}

// string copies a string as it is written: no control characters, escapes of JSON's
// grammar (the scanner takes any other byte, UTF-8 or not).
func (w *walker) string() bool {
	start := w.pos
	w.pos++ // the opening quote
	for w.pos < len(w.src) {
		b := w.src[w.pos]
		switch {
		case b == '"':
			w.pos++
			w.out = append(w.out, w.src[start:w.pos]...)
			return true
		case b < 0x20:
			return false
		case b == '\\':
			if w.pos+1 >= len(w.src) {
				return false
			}
			switch w.src[w.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				w.pos += 2
			case 'u':
				if w.pos+6 > len(w.src) {
					return false
				}
				for _, h := range w.src[w.pos+2 : w.pos+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				w.pos += 6
			default:
				return false
			}
		default:
			w.pos++
		}
	}
	return false
}
