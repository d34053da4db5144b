package output

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
)

// This file writes decoded objects as YAML without the YAML library's event machinery, byte
// for byte as yamlv2.Marshal(asYAMLTree(obj)) writes them (the plain case of renderYAML). The
// library's emitter is a state machine over a column, an indentation stack and two flags
// (the last thing written was whitespace; only indentation is on the line so far); the
// emitter here keeps the same three pieces of state and drives them straight from the tree,
// since the shape of a decoded object fixes which states occur: block mappings and block
// sequences, "{}" and "[]" for empty ones, scalars that are keys or values.
//
// A scalar's style is the library's choice: a string that would read back as something else
// (null, a boolean, a number, a timestamp, a base-60 float) is double-quoted, one with a line
// feed is a literal block, and the rest are plain unless their characters forbid it (then
// single-quoted, or double-quoted when even that is not allowed). Plain, single- and
// double-quoted values are folded at a space once past column 80, as the library folds them.
// Whatever is outside what is reproduced here - a value of another type, a string of invalid
// UTF-8 or with a line break other than LF, a key over 128 bytes or with a line break - makes
// emitYAML report false, and the caller takes the library's path for the whole object.

// yamlWidth is the column past which the YAML library folds a scalar at a space.
const yamlWidth = 80

// yamlIndent is the library's indentation step.
const yamlIndent = 2

// yamlMaxSimpleKey is the longest key (in bytes) the library writes as "key: value".
const yamlMaxSimpleKey = 128

// scalarStyle is how a string is written.
type scalarStyle int

const (
	stylePlain scalarStyle = iota
	styleSingle
	styleDouble
	styleLiteral
)

// yamlEmitter holds the output and the state the YAML library's emitter keeps while writing.
type yamlEmitter struct {
	buf        []byte
	column     int         // characters written since the last line break
	whitespace bool        // the last thing written is whitespace (or nothing yet)
	indention  bool        // nothing but indentation is on the current line
	ok         bool        // false once something was met that is not reproduced here
	keys       []string    // the keys of the mappings being written, outermost first
	sorter     naturalKeys // the keys being sorted
}

// emitYAML writes obj (not nil) as yamlv2.Marshal(asYAMLTree(obj)) does; false when obj holds
// anything this emitter does not reproduce (the output is then to be made by that path).
func emitYAML(obj map[string]any) (string, bool) { return emitYAMLSized(obj, 4096) }

// emitYAMLSized is emitYAML with a first buffer of size bytes, for small objects.
func emitYAMLSized(obj map[string]any, size int) (string, bool) {
	e := &yamlEmitter{buf: make([]byte, 0, size), keys: make([]string, 0, 8), whitespace: true, indention: true, ok: true}
	e.mapping(obj, -1)
	if !e.ok {
		return "", false
	}
	// The document ends on a fresh line.
	e.writeIndent(0)
	return string(e.buf), true
}

// newline ends the line.
func (e *yamlEmitter) newline() {
	e.buf = append(e.buf, '\n')
	e.column = 0
}

// writeIndent starts a line at the indentation given, unless the current line holds only
// indentation that reaches it.
func (e *yamlEmitter) writeIndent(indent int) {
	if indent < 0 {
		indent = 0
	}
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.newline()
	}
	for e.column < indent {
		e.buf = append(e.buf, ' ')
		e.column++
	}
	e.whitespace = true
	e.indention = true
}

// indicator writes an ASCII indicator, after a space when needWhitespace and the last thing
// written is not whitespace.
func (e *yamlEmitter) indicator(s string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.buf = append(e.buf, ' ')
		e.column++
	}
	e.buf = append(e.buf, s...)
	e.column += len(s)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

// char writes the character of s at i and returns the index after it.
func (e *yamlEmitter) char(s string, i int) int {
	w := utf8Width(s[i])
	e.buf = append(e.buf, s[i:i+w]...)
	e.column++
	return i + w
}

// utf8Width is the length of the UTF-8 sequence that begins with b.
func utf8Width(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	default:
		return 4
	}
}

// innerIndent is the indentation the library gives a node nested in one at indent.
func innerIndent(indent int) int {
	if indent < 0 {
		return 0
	}
	return indent + yamlIndent
}

// node writes a value of a mapping (inMapping) or of a sequence; indent is the container's.
func (e *yamlEmitter) node(v any, indent int, inMapping bool) {
	if !e.ok {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		e.mapping(t, indent)
	case []any:
		e.sequence(t, indent, inMapping)
	case json.RawMessage:
		// JSON text kept undecoded (the fieldsV1 of managedFields entries): written as its
		// decoded value, which is what the YAML library's JSON round trip prints.
		v, err := fieldsjson.DecodeJSON(t)
		if err != nil {
			e.ok = false
			return
		}
		e.node(v, indent, inMapping)
	case string:
		if !plainString(t) {
			e.ok = false
			return
		}
		e.str(t, indent, false)
	case int64:
		e.beginPlainScalar()
		n := len(e.buf)
		e.buf = strconv.AppendInt(e.buf, t, 10)
		e.endPlainScalar(len(e.buf) - n)
	case bool:
		e.beginPlainScalar()
		if t {
			e.buf = append(e.buf, "true"...)
			e.endPlainScalar(4)
		} else {
			e.buf = append(e.buf, "false"...)
			e.endPlainScalar(5)
		}
	case nil:
		e.beginPlainScalar()
		e.buf = append(e.buf, "null"...)
		e.endPlainScalar(4)
	case float64:
		s, ok := yamlFloat(t)
		if !ok {
			e.ok = false
			return
		}
		e.beginPlainScalar()
		e.buf = append(e.buf, s...)
		e.endPlainScalar(len(s))
	default:
		e.ok = false
	}
}

// beginPlainScalar and endPlainScalar surround a number, boolean or null written to buf:
// plain, ASCII, with no spaces to fold at.
func (e *yamlEmitter) beginPlainScalar() {
	if !e.whitespace {
		e.buf = append(e.buf, ' ')
		e.column++
	}
}

func (e *yamlEmitter) endPlainScalar(n int) {
	e.column += n
	e.whitespace = false
	e.indention = false
}

// yamlFloat is how the library writes a float64 after asYAMLTree turned it into what the
// JSON round trip reads back; false when that is not a number.
func yamlFloat(f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false // they take the round trip
	}
	switch x := asYAMLTree(f).(type) {
	case int:
		return strconv.AppendInt(nil, int64(x), 10), true
	case int64:
		return strconv.AppendInt(nil, x, 10), true
	case uint64:
		return strconv.AppendUint(nil, x, 10), true
	case float64:
		s := strconv.AppendFloat(nil, x, 'g', -1, 64)
		switch string(s) {
		case "+Inf", "-Inf", "NaN":
			return nil, false
		}
		return s, true
	}
	return nil, false
}

// mapping writes a mapping nested in a node at indent (-1 for the document).
func (e *yamlEmitter) mapping(m map[string]any, indent int) {
	if len(m) == 0 {
		e.indicator("{", true, true, false)
		e.indicator("}", false, false, false)
		return
	}
	// The keys go on a stack shared by the nested mappings (keys stays valid when a nested
	// mapping's keys make the stack grow elsewhere).
	start := len(e.keys)
	defer func() { e.keys = e.keys[:start] }()
	for k := range m {
		if !plainString(k) || len(k) > yamlMaxSimpleKey || strings.IndexByte(k, '\n') >= 0 {
			e.ok = false
			return
		}
		e.keys = append(e.keys, k)
	}
	keys := e.keys[start:]
	// The order of asYAMLTree: bytes, then (stably) the YAML library's natural order.
	sort.Strings(keys)
	e.sorter = keys
	sort.Stable(&e.sorter)
	e.sorter = nil
	inner := innerIndent(indent)
	for _, k := range keys {
		e.writeIndent(inner)
		e.str(k, inner, true)
		e.indicator(":", false, false, false)
		e.node(m[k], inner, true)
		if !e.ok {
			return
		}
	}
}

// sequence writes a sequence nested in a node at indent; in a mapping it is not indented.
func (e *yamlEmitter) sequence(l []any, indent int, inMapping bool) {
	if len(l) == 0 {
		e.indicator("[", true, true, false)
		e.indicator("]", false, false, false)
		return
	}
	inner := indent
	if indent < 0 {
		inner = 0
	} else if !(inMapping && !e.indention) {
		inner = indent + yamlIndent
	}
	for _, x := range l {
		e.writeIndent(inner)
		e.indicator("-", true, false, true)
		e.node(x, inner, false)
		if !e.ok {
			return
		}
	}
}

// str writes a string (plainString) nested in a node at indent, as a key or a value.
func (e *yamlEmitter) str(s string, indent int, key bool) {
	a := analyzeScalar(s)
	if key && (a.multiline || len(s) > yamlMaxSimpleKey) {
		e.ok = false
		return
	}
	var style scalarStyle
	switch {
	case strings.IndexByte(s, '\n') >= 0:
		style = styleLiteral
	case yamlPlainIsString(s) && !isBase60Float(s):
		style = stylePlain
	default:
		style = styleDouble
	}
	if style == stylePlain && (!a.plainAllowed || s == "" && key) {
		style = styleSingle
	}
	if style == styleSingle && !a.singleAllowed {
		style = styleDouble
	}
	if style == styleLiteral && (!a.blockAllowed || key) {
		style = styleDouble
	}
	// A scalar's own indentation, where its folded lines begin.
	at := yamlIndent
	if indent >= 0 {
		at = indent + yamlIndent
	}
	breaks := !key
	switch style {
	case stylePlain:
		e.writePlain(s, at, breaks)
	case styleSingle:
		e.writeSingle(s, at, breaks)
	case styleDouble:
		e.writeDouble(s, at, breaks)
	case styleLiteral:
		e.writeLiteral(s, at)
	}
}

// scalarAnalysis is what the characters of a string allow (in block context).
type scalarAnalysis struct {
	multiline     bool // a line break (LF or CR) is in it
	plainAllowed  bool
	singleAllowed bool
	blockAllowed  bool
}

// analyzeScalar looks at a string (plainString) as the YAML library does before choosing a
// style for it.
func analyzeScalar(s string) scalarAnalysis {
	if s == "" {
		return scalarAnalysis{plainAllowed: true, singleAllowed: true}
	}
	var (
		indicators                               bool
		lineBreaks, special                      bool
		leadingSpace, leadingBreak               bool
		trailingSpace, trailingBreak             bool
		breakSpace, spaceBreak                   bool
		precededByWhitespace, prevSpace, prevBrk bool
	)
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		indicators = true
	}
	precededByWhitespace = true
	for i, w := 0, 0; i < len(s); i += w {
		c := s[i]
		w = utf8Width(c)
		followedByWhitespace := i+w >= len(s) || s[i+w] == ' ' || s[i+w] == '\t'
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				indicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					indicators = true
				}
			}
		} else {
			switch c {
			case ':':
				if followedByWhitespace {
					indicators = true
				}
			case '#':
				if precededByWhitespace {
					indicators = true
				}
			}
		}
		if !yamlPrintable(s, i) {
			special = true
		}
		switch {
		case c == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i+w == len(s) {
				trailingSpace = true
			}
			if prevBrk {
				breakSpace = true
			}
			prevSpace, prevBrk = true, false
		case c == '\n' || c == '\r':
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == len(s) {
				trailingBreak = true
			}
			if prevSpace {
				spaceBreak = true
			}
			prevSpace, prevBrk = false, true
		default:
			prevSpace, prevBrk = false, false
		}
		precededByWhitespace = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0
	}
	a := scalarAnalysis{multiline: lineBreaks, plainAllowed: true, singleAllowed: true, blockAllowed: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || indicators {
		a.plainAllowed = false
	}
	if trailingSpace {
		a.blockAllowed = false
	}
	if breakSpace {
		a.plainAllowed, a.singleAllowed = false, false
	}
	if spaceBreak || special {
		a.plainAllowed, a.singleAllowed, a.blockAllowed = false, false, false
	}
	return a
}

// yamlPrintable reports whether the character of s at i is one YAML may hold unescaped (s
// is valid UTF-8 without a byte-order mark).
func yamlPrintable(s string, i int) bool {
	c := s[i]
	switch {
	case c == '\n' || c >= 0x20 && c <= 0x7E:
		return true
	case c == 0xC2:
		return s[i+1] >= 0xA0
	case c > 0xC2 && c < 0xED, c == 0xEE:
		return true
	case c == 0xED:
		return s[i+1] < 0xA0
	case c == 0xEF:
		return !(s[i+1] == 0xBF && (s[i+2] == 0xBE || s[i+2] == 0xBF))
	}
	return false
}

// writePlain writes a plain scalar, folded at a space past the width when breaks.
func (e *yamlEmitter) writePlain(s string, indent int, breaks bool) {
	if !e.whitespace {
		e.buf = append(e.buf, ' ')
		e.column++
	}
	if !e.mayFold(s, breaks) {
		e.buf = append(e.buf, s...)
		e.column += utf8.RuneCountInString(s)
		e.whitespace = false
		e.indention = false
		return
	}
	spaces := false
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			if breaks && !spaces && e.column > yamlWidth && i+1 < len(s) && s[i+1] != ' ' {
				e.writeIndent(indent)
				i++
			} else {
				i = e.char(s, i)
			}
			spaces = true
			continue
		}
		i = e.char(s, i)
		e.indention = false
		spaces = false
	}
	e.whitespace = false
	e.indention = false
}

// mayFold reports whether s, written from the current column on, may be folded: it can be
// only at a space past the width (the column only grows by a character at most per byte).
func (e *yamlEmitter) mayFold(s string, breaks bool) bool {
	return breaks && e.column+len(s) > yamlWidth+1 && strings.IndexByte(s, ' ') >= 0
}

// writeSingle writes a single-quoted scalar (it has no line breaks).
func (e *yamlEmitter) writeSingle(s string, indent int, breaks bool) {
	e.indicator("'", true, false, false)
	spaces := false
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			if breaks && !spaces && e.column > yamlWidth && i > 0 && i < len(s)-1 && s[i+1] != ' ' {
				e.writeIndent(indent)
				i++
			} else {
				i = e.char(s, i)
			}
			spaces = true
			continue
		}
		if s[i] == '\'' {
			e.buf = append(e.buf, '\'')
			e.column++
		}
		i = e.char(s, i)
		e.indention = false
		spaces = false
	}
	e.indicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeDouble writes a double-quoted scalar, escaping what YAML may not hold as it is.
func (e *yamlEmitter) writeDouble(s string, indent int, breaks bool) {
	e.indicator(`"`, true, false, false)
	if !e.mayFold(s, breaks) && !needsEscape(s) {
		e.buf = append(e.buf, s...)
		e.column += len(s)
		e.indicator(`"`, false, false, false)
		return
	}
	spaces := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case !yamlPrintable(s, i) || c == '\n' || c == '\r' || c == '"' || c == '\\':
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w
			e.escape(r)
			spaces = false
		case c == ' ':
			if breaks && !spaces && e.column > yamlWidth && i > 0 && i < len(s)-1 {
				e.writeIndent(indent)
				if s[i+1] == ' ' {
					e.buf = append(e.buf, '\\')
					e.column++
				}
				i++
			} else {
				i = e.char(s, i)
			}
			spaces = true
		default:
			i = e.char(s, i)
			spaces = false
		}
	}
	e.indicator(`"`, false, false, false)
	e.whitespace = false
	e.indention = false
}

// needsEscape reports whether s is not all printable ASCII other than '"' and '\\'.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7F || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// escape writes the escape sequence of r in a double-quoted scalar.
func (e *yamlEmitter) escape(r rune) {
	var short byte
	switch r {
	case 0x00:
		short = '0'
	case 0x07:
		short = 'a'
	case 0x08:
		short = 'b'
	case 0x09:
		short = 't'
	case 0x0A:
		short = 'n'
	case 0x0B:
		short = 'v'
	case 0x0C:
		short = 'f'
	case 0x0D:
		short = 'r'
	case 0x1B:
		short = 'e'
	case '"':
		short = '"'
	case '\\':
		short = '\\'
	case 0x85:
		short = 'N'
	case 0xA0:
		short = '_'
	case 0x2028:
		short = 'L'
	case 0x2029:
		short = 'P'
	}
	if short != 0 {
		e.buf = append(e.buf, '\\', short)
		e.column += 2
		return
	}
	letter, digits := byte('U'), 8
	if r <= 0xFF {
		letter, digits = 'x', 2
	} else if r <= 0xFFFF {
		letter, digits = 'u', 4
	}
	e.buf = append(e.buf, '\\', letter)
	for k := (digits - 1) * 4; k >= 0; k -= 4 {
		e.buf = append(e.buf, "0123456789ABCDEF"[(r>>uint(k))&0xF])
	}
	e.column += 2 + digits
}

// writeLiteral writes a literal block scalar (its only line breaks are LFs).
func (e *yamlEmitter) writeLiteral(s string, indent int) {
	e.indicator("|", true, false, false)
	if s[0] == ' ' || s[0] == '\n' {
		e.indicator(strconv.Itoa(yamlIndent), false, false, false)
	}
	// Chomping: "-" without a final line break, "+" with more than one (or only one).
	switch n := len(s); {
	case s[n-1] != '\n':
		e.indicator("-", false, false, false)
	case n == 1 || s[n-2] == '\n':
		e.indicator("+", false, false, false)
	}
	e.newline()
	e.indention = true
	e.whitespace = true
	lineStart := true
	for i := 0; i < len(s); {
		if s[i] == '\n' {
			e.newline()
			i++
			e.indention = true
			lineStart = true
			continue
		}
		if lineStart {
			e.writeIndent(indent)
		}
		i = e.char(s, i)
		e.indention = false
		lineStart = false
	}
}

// plainString reports whether a string is one renderYAML writes with the YAML library
// directly (see plainValue).
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return utf8.ValidString(s[i:]) && !strings.ContainsAny(s[i:], "\u0085\u2028\u2029\ufeff")
		}
	}
	return true
}

// yamlPlainIsString reports whether the YAML library reads s, written plain, back as a string
// (not null, a boolean, a number, a timestamp or the merge key).
func yamlPlainIsString(s string) bool {
	if s == "" {
		return false // null
	}
	switch c := s[0]; {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return !yamlReserved(s) && !yamlNumberOrTime(s)
	case c == '.':
		if yamlReserved(s) {
			return false
		}
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		return !yamlReserved(s)
	}
	// "<<" is in the library's table too, but its first character is not one it looks up.
	return true
}

// yamlReserved reports whether s is one of the words the YAML library reads as null, a
// boolean or a special float.
func yamlReserved(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
		"~", "null", "Null", "NULL",
		".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
		"+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return true
	}
	return false
}

// yamlNumberOrTime reports whether s (beginning with a sign or a digit) reads as a
// timestamp, an integer or a float in the YAML library.
func yamlNumberOrTime(s string) bool {
	if yamlTimestamp(s) {
		return true
	}
	plain := strings.ReplaceAll(s, "_", "")
	if !numberCandidate(plain) {
		return false
	}
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if yamlStyleFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0b"); ok {
		if _, err := strconv.ParseInt(rest, 2, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(rest, 2, 64); err == nil {
			return true
		}
	} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if _, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return true
		}
	}
	return false
}

// numberCandidate reports whether plain (s without underscores) may parse in one of the ways
// yamlNumberOrTime tries; when not, all of them fail and need not be tried. An integer of
// any base is a sign and then digits, hexadecimal digits and the base letters x, o (b is a
// hexadecimal digit); a float is what yamlStyleFloat accepts; and "0b" may be followed by a
// signed binary number.
func numberCandidate(plain string) bool {
	body := plain
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	integer := true
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'x' || c == 'X' || c == 'o' || c == 'O') {
			integer = false
			break
		}
	}
	return integer || yamlStyleFloat(plain) || strings.HasPrefix(plain, "0b")
}

// yamlTimestampLayouts are the timestamp forms the YAML library reads plain scalars as.
var yamlTimestampLayouts = [...]string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// yamlTimestamp reports whether s reads as a timestamp: four digits, a dash, then one of the
// library's layouts.
func yamlTimestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range yamlTimestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// yamlStyleFloat reports whether s is [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?.
func yamlStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isBase60Float reports whether s is a YAML 1.1 base-60 float,
// [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?, which the library quotes.
func isBase60Float(s string) bool {
	if s == "" || strings.IndexByte(s, ':') < 0 {
		return false
	}
	i := 0
	if s[i] == '+' || s[i] == '-' {
		i++
	}
	if i == len(s) || s[i] < '0' || s[i] > '9' {
		return false
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
		i++
	}
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		n := 0
		for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
			n++
		}
		if n == 0 || n > 2 || n == 2 && s[i] > '5' {
			return false
		}
		i += n
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
			i++
		}
	}
	return i == len(s)
}

// naturalKeys orders keys by naturalLess, answering as it does without decoding runes into
// a slice.
type naturalKeys []string

func (k *naturalKeys) Len() int           { return len(*k) }
func (k *naturalKeys) Swap(i, j int)      { (*k)[i], (*k)[j] = (*k)[j], (*k)[i] }
func (k *naturalKeys) Less(i, j int) bool { return naturalLessString((*k)[i], (*k)[j]) }

// naturalLessString is naturalLess on the strings directly.
func naturalLessString(a, b string) bool {
	i := 0 // the prefix before i is the same in both, so the byte offsets agree
	for i < len(a) && i < len(b) {
		if a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf {
			if a[i] == b[i] {
				i++
				continue
			}
		}
		ra, wa := utf8.DecodeRuneInString(a[i:])
		rb, wb := utf8.DecodeRuneInString(b[i:])
		if ra == rb {
			if wa != wb {
				// An invalid byte and U+FFFD: equal as runes, of different lengths.
				return naturalLess(a, b)
			}
			i += wa
			continue
		}
		al, bl := isLetter(ra), isLetter(rb)
		if al && bl {
			return ra < rb
		}
		if al || bl {
			return bl
		}
		start := i
		for start > 0 && a[start-1] >= '0' && a[start-1] <= '9' {
			start--
		}
		an, ae := digitRunString(a, start)
		bn, be := digitRunString(b, start)
		if an != bn {
			return an < bn
		}
		if ae != be {
			return ae < be
		}
		return ra < rb
	}
	// One is a prefix of the other: fewer bytes is fewer runes.
	return len(a)-i < len(b)-i
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

// digitRunString is digitRun on a string: the number its digits from start write
// (saturating) and where they end.
func digitRunString(s string, start int) (uint64, int) {
	var n uint64
	end := start
	for ; end < len(s) && s[end] >= '0' && s[end] <= '9'; end++ {
		if d := uint64(s[end] - '0'); n <= (math.MaxUint64-d)/10 {
			n = n*10 + d
		} else {
			n = math.MaxUint64
		}
	}
	return n, end
}
