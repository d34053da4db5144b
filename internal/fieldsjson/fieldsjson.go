package fieldsjson

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/jsontext"
)

// AppendJSON appends v, a decoded JSON value (maps with string keys, lists, strings,
// booleans, numbers, nil), to dst exactly as encoding/json.Marshal writes it: map keys
// sorted, HTML characters escaped. Values of other types are written by encoding/json.
func AppendJSON(dst []byte, v any) ([]byte, error) { return appendJSON(dst, v, true) }

// Encodable reports whether AppendJSON(nil, v) succeeds, without writing: a tree of maps
// with string keys, lists, strings, booleans, integers and nil always is; any other value
// in it is tried.
func Encodable(v any) bool {
	switch t := v.(type) {
	case nil, bool, string, int64, int:
		return true
	case map[string]any:
		// Most maps of a fieldsV1 are empty leaves: ranging over them costs more than this.
		if len(t) == 0 {
			return true
		}
		for _, x := range t {
			if !Encodable(x) {
				return false
			}
		}
		return true
	case []any:
		for _, x := range t {
			if !Encodable(x) {
				return false
			}
		}
		return true
	}
	_, err := AppendJSON(nil, v)
	return err == nil
}

// AppendJSONUnescaped appends v, a decoded JSON value (or a json.RawMessage in it), as an
// encoding/json.Encoder with SetEscapeHTML(false) writes it, without the Encoder's final
// newline: what ssa-diff's reports print. Values of other types are written by such an
// Encoder.
func AppendJSONUnescaped(dst []byte, v any) ([]byte, error) { return appendJSON(dst, v, false) }

// AppendJSONUnescapedIndent appends v as AppendJSONUnescaped writes it, indented as
// json.Indent(prefix, indent) indents that text (each element on a line of its own,
// starting with prefix and indent once per level, a space after each colon, empty objects
// and arrays as {} and []), in one pass: a report's objects are written indented without
// being read back. A json.RawMessage (a managedFields entry's fieldsV1) is indented from
// its text as it is copied (jsontext.AppendIndent); values other than maps, lists and
// scalars (an invalid json.RawMessage, a float, other types) are written compact and
// indented by jsontext.Indent.
func AppendJSONUnescapedIndent(dst []byte, v any, prefix, indent string) ([]byte, error) {
	w := writer{prefix: prefix, indent: indent}
	return w.appendIndented(dst, v, 0)
}

// writer writes decoded JSON values: the keys of the maps being written are sorted on one
// stack (keys), each map's above its parent's, so that a value's maps take no slice each.
type writer struct {
	escapeHTML     bool
	prefix, indent string // AppendJSONUnescapedIndent's layout
	keys           []string
}

// sortedKeys pushes m's keys onto the stack, sorted, and returns where they start: they
// are w.keys[start:start+len(m)] until w.keys is cut back to start.
func (w *writer) sortedKeys(m map[string]any) int {
	start := len(w.keys)
	for k := range m {
		w.keys = append(w.keys, k)
	}
	slices.Sort(w.keys[start:])
	return start
}

func (w *writer) newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	dst = append(dst, w.prefix...)
	for range depth {
		dst = append(dst, w.indent...)
	}
	return dst
}

func (w *writer) appendIndented(dst []byte, v any, depth int) ([]byte, error) {
	var err error
	switch t := v.(type) {
	case nil, bool, string, int64, int:
		return w.appendJSON(dst, v)
	case map[string]any:
		if len(t) == 0 {
			return append(dst, "{}"...), nil
		}
		start := w.sortedKeys(t)
		dst = append(dst, '{')
		for i := range len(t) {
			k := w.keys[start+i]
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = w.newline(dst, depth+1)
			if dst, err = appendUnescapedString(dst, k); err != nil {
				return nil, err
			}
			dst = append(dst, ':', ' ')
			if dst, err = w.appendIndented(dst, t[k], depth+1); err != nil {
				return nil, err
			}
		}
		w.keys = w.keys[:start]
		return append(w.newline(dst, depth), '}'), nil
	case []any:
		if t == nil {
			return append(dst, "null"...), nil
		}
		if len(t) == 0 {
			return append(dst, "[]"...), nil
		}
		dst = append(dst, '[')
		for i, x := range t {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = w.newline(dst, depth+1)
			if dst, err = w.appendIndented(dst, x, depth+1); err != nil {
				return nil, err
			}
		}
		return append(w.newline(dst, depth), ']'), nil
	case json.RawMessage:
		// What encoding/json writes of it is its text compacted; indented, that is its
		// text indented (json.Indent drops the spaces between tokens as json.Compact
		// does). Invalid text is left to encoding/json below, for its error.
		if t != nil {
			if out, ok := jsontext.AppendIndent(dst, t, w.prefix, w.indent, depth); ok {
				return out, nil
			}
		}
	}
	compact, err := w.appendJSON(nil, v)
	if err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(dst)
	if err := jsontext.Indent(buf, compact, w.prefix+strings.Repeat(w.indent, depth), w.indent); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func appendJSON(dst []byte, v any, escapeHTML bool) ([]byte, error) {
	w := writer{escapeHTML: escapeHTML}
	return w.appendJSON(dst, v)
}

func (w *writer) appendJSON(dst []byte, v any) ([]byte, error) {
	quote := appendJSONString
	if !w.escapeHTML {
		quote = appendUnescapedString
	}
	switch t := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, t), nil
	case string:
		return quote(dst, t)
	case int64:
		return strconv.AppendInt(dst, t, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(t), 10), nil
	case map[string]any:
		if len(t) == 0 {
			return append(dst, "{}"...), nil
		}
		start := w.sortedKeys(t)
		dst = append(dst, '{')
		var err error
		for i := range len(t) {
			k := w.keys[start+i]
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = quote(dst, k); err != nil {
				return nil, err
			}
			dst = append(dst, ':')
			if dst, err = w.appendJSON(dst, t[k]); err != nil {
				return nil, err
			}
		}
		w.keys = w.keys[:start]
		return append(dst, '}'), nil
	case []any:
		if t == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		var err error
		for i, x := range t {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = w.appendJSON(dst, x); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case json.RawMessage:
		if !w.escapeHTML && t != nil {
			// What encoding/json writes of a RawMessage: the text compacted (json.Compact
			// escapes no HTML characters); an invalid one is left to it, for its error.
			buf := bytes.NewBuffer(dst)
			if json.Compact(buf, t) == nil {
				return buf.Bytes(), nil
			}
		}
	}
	if !w.escapeHTML {
		return appendEncoded(dst, v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// appendEncoded appends v as an encoding/json.Encoder with SetEscapeHTML(false) writes it,
// without the final newline.
func appendEncoded(dst []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// appendUnescapedString writes s quoted as an Encoder with SetEscapeHTML(false) does.
// Printable ASCII is written here (only \" and \\ escaped); anything else is left to
// encoding/json.
func appendUnescapedString(dst []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return appendEncoded(dst, s)
		}
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			dst = append(dst, '\\', c)
		} else {
			dst = append(dst, c)
		}
	}
	return append(dst, '"'), nil
}

// AppendStringUnescaped appends s as an encoding/json.Encoder with SetEscapeHTML(false)
// writes a string.
func AppendStringUnescaped(dst []byte, s string) ([]byte, error) {
	return appendUnescapedString(dst, s)
}

// AppendString appends s as encoding/json.Marshal writes a string (HTML characters escaped).
func AppendString(dst []byte, s string) ([]byte, error) { return appendJSONString(dst, s) }

// appendJSONString writes s quoted, as encoding/json writes it. Printable ASCII is written
// by AppendEscapedPrintable, anything else by AppendEscaped.
func appendJSONString(dst []byte, s string) ([]byte, error) {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return append(AppendEscaped(dst, []byte(s)), '"'), nil
		}
	}
	return append(AppendEscapedPrintable(dst, s), '"'), nil
}

// AppendEscaped appends s escaped as encoding/json.Marshal writes it inside a string, without
// the quotes: " and \ with a backslash, control characters as \b \f \n \r \t or \u00XX,
// <, > and & as \u escapes, bytes that are not UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func AppendEscaped(out, s []byte) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= ' ' && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			out = append(out, s[start:i]...)
			switch b {
			case '\\', '"':
				out = append(out, '\\', b)
			case '\b':
				out = append(out, '\\', 'b')
			case '\f':
				out = append(out, '\\', 'f')
			case '\n':
				out = append(out, '\\', 'n')
			case '\r':
				out = append(out, '\\', 'r')
			case '\t':
				out = append(out, '\\', 't')
			default:
				out = append(out, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRune(s[i:])
		if c == utf8.RuneError && size == 1 {
			out = append(out, s[start:i]...)
			out = append(out, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			out = append(out, s[start:i]...)
			out = append(out, '\\', 'u', '2', '0', '2', hex[c&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(out, s[start:]...)
}

// AppendEscapedPrintable appends s, printable ASCII, unquoted, with the escapes
// encoding/json uses (\" \\ and the HTML characters as \u003c \u003e \u0026).
func AppendEscapedPrintable(dst []byte, s string) []byte {
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
	return dst
}

// DecodeJSON decodes a JSON value as encoding/json.Unmarshal into an any does.
// Objects whose values are objects — every fieldsV1 — are read directly, equal short keys
// (".", "f:name") as one string (jsontext.StringCache); anything else is left to
// encoding/json.
func DecodeJSON(data []byte) (any, error) {
	var keys jsontext.StringCache
	d := fieldsDecoder{jsontext.NewScanner(data)}
	d.Strings = &keys
	d.Space()
	if v, ok := d.object(0); ok {
		d.Space()
		if d.AtEnd() {
			return v, nil
		}
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// fieldsDecoder reads the JSON of a field set: objects of objects.
type fieldsDecoder struct {
	jsontext.Scanner
}

// maxFieldsDepth bounds the nesting read directly; deeper input goes to encoding/json.
const maxFieldsDepth = 1000

func (d *fieldsDecoder) object(depth int) (map[string]any, bool) {
	if depth > maxFieldsDepth || d.Peek() != '{' {
		return nil, false
	}
	m := map[string]any{}
	return m, d.Members(m, func(string) (any, bool) { return d.object(depth + 1) })
}

// CanonicalFieldsV1 is fieldsV1 JSON text as encoding/json writes its decoded tree —
// compact, keys sorted, HTML characters escaped, a repeated key's last value kept —
// written from the text without building the tree when it is a field set (objects of
// objects), and copied when the text is that already. It is how readers of this module keep fieldsV1 as
// text, so that text compares equal for equal sets.
func CanonicalFieldsV1(data []byte) ([]byte, error) {
	// Text canonical already (a dump's, the writer's of a custom resource) is copied.
	s := jsontext.NewScanner(data)
	s.Space()
	if text, ok := s.CanonicalSet(0, maxFieldsDepth); ok {
		s.Space()
		if s.AtEnd() {
			return bytes.Clone(text), nil
		}
	}
	d := fieldsDecoder{jsontext.NewScanner(data)}
	d.Space()
	if out, ok := d.canonical(nil, 0); ok {
		d.Space()
		if d.AtEnd() {
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
	if depth > maxFieldsDepth || d.Peek() != '{' {
		return nil, false
	}
	if d.Enter('}') {
		return append(dst, "{}"...), true
	}
	// Values are written past dst's end first, then copied back in key order.
	base := len(dst)
	var members []canonicalMember
	for more := true; more; {
		k, ok := d.Key()
		if !ok {
			return nil, false
		}
		start := len(dst)
		if dst, ok = d.canonical(dst, depth+1); !ok {
			return nil, false
		}
		members = append(members, canonicalMember{k, start, len(dst)})
		if more, ok = d.Next('}'); !ok {
			return nil, false
		}
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

// AppendFloat appends f as encoding/json writes a float64 (as ECMAScript writes numbers):
// plain from 1e-6 to 1e21, else with an exponent of as few digits as it needs (e-9, not
// e-09). f must be finite.
func AppendFloat(dst []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
