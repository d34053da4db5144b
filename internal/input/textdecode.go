package input

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeText makes the tree of an object kept as text: what decodeJSON and normalize make
// of it (the same maps, slices, strings, int64, float64, json.Number, bools and nils; of
// duplicate keys the last), without encoding/json's reflection — every prediction decodes
// its live object and manifest from their text, which was a twentieth of a run.
//
// The text was checked when it was read, so decodeText handles only what it meets in
// practice and reports false for the rest, which is then left to encoding/json: anything
// but one object, nesting past maxDepth, bytes that are not UTF-8 and \u escapes of
// surrogates in strings (encoding/json mends both), anything malformed.
func decodeText(text []byte, maxDepth int) (map[string]any, bool) {
	d := textDecoder{data: text, maxDepth: maxDepth}
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return nil, false
	}
	v, ok := d.value(1)
	if !ok {
		return nil, false
	}
	d.space()
	if d.pos != len(d.data) {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

type textDecoder struct {
	data     []byte
	pos      int
	maxDepth int
}

func (d *textDecoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// value reads the value at pos; depth is its nesting (normalize's: the top object is 1).
func (d *textDecoder) value(depth int) (any, bool) {
	d.space()
	if d.pos >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		if depth > d.maxDepth {
			return nil, false
		}
		d.pos++
		m := map[string]any{}
		d.space()
		if d.pos < len(d.data) && d.data[d.pos] == '}' {
			d.pos++
			return m, true
		}
		for {
			d.space()
			k, ok := d.string()
			if !ok {
				return nil, false
			}
			d.space()
			if d.pos >= len(d.data) || d.data[d.pos] != ':' {
				return nil, false
			}
			d.pos++
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			m[k] = v
			d.space()
			if d.pos >= len(d.data) {
				return nil, false
			}
			switch d.data[d.pos] {
			case ',':
				d.pos++
			case '}':
				d.pos++
				return m, true
			default:
				return nil, false
			}
		}
	case c == '[':
		if depth > d.maxDepth {
			return nil, false
		}
		d.pos++
		list := []any{}
		d.space()
		if d.pos < len(d.data) && d.data[d.pos] == ']' {
			d.pos++
			return list, true
		}
		for {
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			list = append(list, v)
			d.space()
			if d.pos >= len(d.data) {
				return nil, false
			}
			switch d.data[d.pos] {
			case ',':
				d.pos++
			case ']':
				d.pos++
				return list, true
			default:
				return nil, false
			}
		}
	case c == '"':
		return d.string()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

func (d *textDecoder) literal(word string) bool {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return false
	}
	d.pos += len(word)
	return true
}

// number reads a number as normalize leaves it: int64 when ParseInt reads it, else float64
// when ParseFloat does, else its text.
func (d *textDecoder) number() (any, bool) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	// JSON's grammar: an integer part without leading zeros, a fraction, an exponent.
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	if d.pos < len(d.data) && d.data[d.pos] == '0' {
		d.pos++
	} else if digits() == 0 {
		return nil, false
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return nil, false
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	text := string(d.data[start:d.pos])
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return i, true
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		return f, true
	}
	return json.Number(text), true
}

// string reads a string at pos; false for one encoding/json would mend (bytes that are not
// UTF-8, surrogates) or that is malformed.
func (d *textDecoder) string() (string, bool) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", false
	}
	d.pos++
	start := d.pos
	// The usual string: no escapes, ASCII or valid UTF-8.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", false
		}
		d.pos++
	}
	buf := append([]byte(nil), d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if !utf8.Valid(buf) {
				return "", false
			}
			return string(buf), true
		case c < 0x20:
			return "", false
		case c != '\\':
			buf = append(buf, c)
			d.pos++
			continue
		}
		if d.pos+1 >= len(d.data) {
			return "", false
		}
		e := d.data[d.pos+1]
		d.pos += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			if d.pos+4 > len(d.data) {
				return "", false
			}
			r, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 16)
			if err != nil || utf16.IsSurrogate(rune(r)) {
				return "", false
			}
			d.pos += 4
			buf = utf8.AppendRune(buf, rune(r))
		default:
			return "", false
		}
	}
	return "", false
}
