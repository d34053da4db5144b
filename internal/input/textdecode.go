package input

import (
	"encoding/json"
	"strconv"

	"github.com/ssa-diff/ssa-diff/internal/jsontext"
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
	var strings jsontext.StringCache
	d := textDecoder{Scanner: jsontext.NewScanner(text), maxDepth: maxDepth}
	d.Strings = &strings
	d.Space()
	if d.Peek() != '{' {
		return nil, false
	}
	v, ok := d.value(1)
	if !ok {
		return nil, false
	}
	d.Space()
	if !d.AtEnd() {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

type textDecoder struct {
	jsontext.Scanner
	maxDepth int
}

// value reads the value at the read position; depth is its nesting (normalize's: the top
// object is 1).
func (d *textDecoder) value(depth int) (any, bool) {
	switch c := d.Peek(); {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.String()
	case c == 't':
		return true, d.Literal("true")
	case c == 'f':
		return false, d.Literal("false")
	case c == 'n':
		return nil, d.Literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

func (d *textDecoder) object(depth int) (any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	m := map[string]any{}
	return m, d.Object(m, func() (any, bool) { return d.value(depth + 1) })
}

func (d *textDecoder) array(depth int) (any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	list := []any{}
	if d.Enter(']') {
		return list, true
	}
	for {
		d.Space()
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		list = append(list, v)
		if more, ok := d.Next(']'); !more {
			return list, ok
		}
	}
}

// number reads a number as normalize leaves it: int64 when ParseInt reads it, else float64
// when ParseFloat does, else its text.
func (d *textDecoder) number() (any, bool) {
	b, ok := d.Number()
	if !ok {
		return nil, false
	}
	// The number's text is made a string to keep only when it is kept as text.
	if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return i, true
	}
	if f, err := strconv.ParseFloat(string(b), 64); err == nil {
		return f, true
	}
	return json.Number(string(b)), true
}
