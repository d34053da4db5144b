package fieldsjson

import (
	"encoding/json"
	"sort"
	"strconv"
)

// AppendJSON appends v, a decoded JSON value (maps with string keys, lists, strings,
// booleans, numbers, nil), to dst exactly as encoding/json.Marshal writes it: map keys
// sorted, HTML characters escaped. Values of other types are written by encoding/json.
func AppendJSON(dst []byte, v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, t), nil
	case string:
		return appendJSONString(dst, t)
	case int64:
		return strconv.AppendInt(dst, t, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(t), 10), nil
	case map[string]any:
		if len(t) == 0 {
			return append(dst, "{}"...), nil
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		var err error
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendJSONString(dst, k); err != nil {
				return nil, err
			}
			dst = append(dst, ':')
			if dst, err = AppendJSON(dst, t[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		dst = append(dst, '[')
		var err error
		for i, x := range t {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = AppendJSON(dst, x); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// appendJSONString writes s quoted. Printable ASCII is written here, with the escapes
// encoding/json uses (\" \\ and the HTML characters as \u003c \u003e \u0026); anything
// else is left to encoding/json.
func appendJSONString(dst []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			b, err := json.Marshal(s)
			if err != nil {
				return nil, err
			}
			return append(dst, b...), nil
		}
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '<':
			dst = append(dst, `\u003c`...)
		case '>':
			dst = append(dst, `\u003e`...)
		case '&':
			dst = append(dst, `\u0026`...)
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"'), nil
}

// DecodeJSON decodes a JSON value as encoding/json.Unmarshal into an any does.
// Objects whose values are objects and whose keys are plain strings — every fieldsV1 — are
// read directly; anything else is left to encoding/json.
func DecodeJSON(data []byte) (any, error) {
	d := fieldsDecoder{data: data}
	d.space()
	if v, ok := d.object(0); ok {
		d.space()
		if d.pos == len(d.data) {
			return v, nil
		}
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// fieldsDecoder reads the JSON of a field set: nested objects with unescaped string keys.
type fieldsDecoder struct {
	data []byte
	pos  int
}

// maxFieldsDepth bounds the nesting read directly; deeper input goes to encoding/json.
const maxFieldsDepth = 1000

func (d *fieldsDecoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *fieldsDecoder) object(depth int) (map[string]any, bool) {
	if depth > maxFieldsDepth || d.pos >= len(d.data) || d.data[d.pos] != '{' {
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
		k, ok := d.memberKey()
		if !ok {
			return nil, false
		}
		v, ok := d.object(depth + 1)
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
}

// memberKey reads an object member's key and the colon after it, with the spaces around.
func (d *fieldsDecoder) memberKey() (string, bool) {
	d.space()
	k, ok := d.key()
	if !ok {
		return "", false
	}
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		return "", false
	}
	d.pos++
	d.space()
	return k, true
}

// key reads a quoted string of printable ASCII whose only escapes are \" and \\ (the
// quotes of the keys of keyed list items, such as "k:{\"name\":\"web\"}").
func (d *fieldsDecoder) key() (string, bool) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", false
	}
	start := d.pos + 1
	escaped := false
	for i := start; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			d.pos = i + 1
			if !escaped {
				return string(d.data[start:i]), true
			}
			return unescapeKey(d.data[start:i]), true
		case c == '\\':
			if i+1 >= len(d.data) || (d.data[i+1] != '"' && d.data[i+1] != '\\') {
				return "", false
			}
			escaped = true
			i++
		case c < 0x20 || c >= 0x7f:
			return "", false
		}
	}
	return "", false
}

// unescapeKey removes the backslashes of \" and \\ from a key as key read it.
func unescapeKey(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' {
			i++
		}
		out = append(out, b[i])
	}
	return string(out)
}

// CanonicalFieldsV1 is fieldsV1 JSON text as encoding/json writes its decoded tree —
// compact, keys sorted, HTML characters escaped, a repeated key's last value kept —
// written from the text without building the tree when it is a field set (objects of
// objects, keys of printable ASCII). It is how readers of this module keep fieldsV1 as
// text, so that text compares equal for equal sets.
func CanonicalFieldsV1(data []byte) ([]byte, error) {
	d := fieldsDecoder{data: data}
	d.space()
	if out, ok := d.canonical(nil, 0); ok {
		d.space()
		if d.pos == len(d.data) {
			return out, nil
		}
	}
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, err
	}
	return AppendJSON(nil, v)
}

// canonicalMember is one key of an object being rewritten, and its value's span in the
// output buffer.
type canonicalMember struct {
	key        string
	start, end int
}

// canonical reads an object of objects and appends it to dst in canonical form.
func (d *fieldsDecoder) canonical(dst []byte, depth int) ([]byte, bool) {
	if depth > maxFieldsDepth || d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return nil, false
	}
	d.pos++
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return append(dst, "{}"...), true
	}
	// Values are written past dst's end first, then copied back in key order.
	base := len(dst)
	var members []canonicalMember
	for {
		k, ok := d.memberKey()
		if !ok {
			return nil, false
		}
		start := len(dst)
		if dst, ok = d.canonical(dst, depth+1); !ok {
			return nil, false
		}
		members = append(members, canonicalMember{k, start, len(dst)})
		d.space()
		if d.pos >= len(d.data) {
			return nil, false
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			continue
		case '}':
			d.pos++
		default:
			return nil, false
		}
		break
	}
	// The last of repeated keys wins, as in a decoded map; then keys in byte order.
	sort.SliceStable(members, func(i, j int) bool { return members[i].key < members[j].key })
	kept := members[:0]
	for i, m := range members {
		if i+1 < len(members) && members[i+1].key == m.key {
			continue
		}
		kept = append(kept, m)
	}
	values := append([]byte(nil), dst[base:]...)
	dst = append(dst[:base], '{')
	for i, m := range kept {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendJSONString(dst, m.key); err != nil {
			return nil, false
		}
		dst = append(dst, ':')
		dst = append(dst, values[m.start-base:m.end-base]...)
	}
	return append(dst, '}'), true
}
