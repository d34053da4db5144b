package input

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
)

// blockJSON writes the JSON text of a YAML document written in block style — the bytes
// the strict YAML 1.1 tree gives through jsonable and json.Marshal (keys sorted, strings
// escaped for HTML, numbers as encoding/json writes them) — without building that tree.
// It reads the shapes manifests are written in, as blockLines does: a block mapping at the
// top, block mappings and sequences (a sequence may sit at its key's indentation), keys
// that are plain or quoted on one line, scalars that are plain or quoted on one line,
// literal block scalars (|, |- and |+) without an indentation indicator, flow sequences of
// plain or quoted scalars on one line, the empty flow mapping {}, comments and blank lines.
//
// Plain scalars are resolved as the YAML 1.1 decoder resolves them: null (~, null, empty),
// booleans (y, yes, on, off and their capitalised forms), integers in every base the
// decoder reads (0x, 0o, a leading 0, underscores), floats; a plain key resolves the same
// way and becomes a string as jsonable makes it (an integer in decimal, a boolean as true
// or false).
//
// On anything else it declines (false) and the document takes yaml.v2's parse: flow
// mappings with content, flow sequences inside flow sequences, anchors, aliases, tags, merge keys, directives and document
// markers, explicit keys, multi-line plain or quoted scalars, folded block scalars, quoted
// scalars with an unknown or invalid escape, a null, float or unsigned key, a float that
// is not finite, binary integers the decoder reads only by its fallback, a literal block
// scalar without content or with a line of spaces longer than its indentation, two keys of one
// mapping that become the same JSON string (a duplicate, or keys like on and "true": the
// strict parse reports them), tabs, carriage returns, control characters, Unicode line
// breaks and invalid UTF-8, nesting past maxBlockDepth, a key longer than the YAML
// scanner's 1,024 characters. Declining is always safe: FuzzBlockJSON holds every answer
// to the strict parse's.
//
// The JSON is written to dst[:0] (the caller's buffer, reused from document to document;
// nil to allocate one) and may be longer than the returned slice's length, as append makes
// it: a caller that keeps the text copies it.
func blockJSON(raw, dst []byte) ([]byte, bool) {
	if !plainText(raw) {
		return nil, false
	}
	if dst == nil {
		dst = make([]byte, 0, len(raw)+len(raw)/4)
	}
	w := &jsonBlockWriter{lines: bytes.Split(raw, []byte("\n")), out: dst[:0], ents: make([]jsonEntry, 0, 16)}
	for _, l := range w.lines {
		if bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) {
			return nil, false // document markers (and lines that could be read as one)
		}
	}
	if !w.skip() || isItem(w.content()) || !w.mapping(w.col, 0) || w.i < len(w.lines) {
		return nil, false
	}
	return w.out, true
}

// jsonBlockWriter reads a document's lines as blockScanner does (i the line being read,
// col where its content starts) and writes its JSON to out.
type jsonBlockWriter struct {
	lines [][]byte
	i     int
	col   int
	out   []byte
	ents  []jsonEntry // the entries of the mappings being written, innermost last
	tmp   []byte      // a mapping's entries while they are put in order
	order []jsonEntry
}

// jsonEntry is a mapping's entry written to out[start:end] ("key":value), its key as JSON
// compares it.
type jsonEntry struct {
	key        []byte
	start, end int
}

func (w *jsonBlockWriter) content() []byte { return w.lines[w.i][w.col:] }

// skip moves to the first line from the current one with content; false at the end.
func (w *jsonBlockWriter) skip() bool {
	for ; w.i < len(w.lines); w.i++ {
		l := w.lines[w.i]
		n := indentOf(l)
		if n < len(l) && l[n] != '#' {
			w.col = n
			return true
		}
	}
	return false
}

func (w *jsonBlockWriter) next() bool {
	w.i++
	return w.skip()
}

// node writes the mapping or sequence starting at the current line.
func (w *jsonBlockWriter) node(depth int) bool {
	if isItem(w.content()) {
		return w.sequence(w.col, depth)
	}
	return w.mapping(w.col, depth)
}

// mapping writes the block mapping whose keys are at column ind, starting at the current
// line; it stops at the first line with content less indented, or at the end.
func (w *jsonBlockWriter) mapping(ind, depth int) bool {
	if depth > maxBlockDepth {
		return false
	}
	start, base := len(w.out), len(w.ents)
	w.out = append(w.out, '{')
	for {
		key, rest, ok := jsonKeyOf(w.content())
		if !ok {
			return false
		}
		if len(w.ents) > base {
			w.out = append(w.out, ',')
		}
		es := len(w.out)
		w.out = appendJSONString(w.out, key)
		w.out = append(w.out, ':')
		if !w.value(ind, rest, depth+1) {
			return false
		}
		w.ents = append(w.ents, jsonEntry{key: key, start: es, end: len(w.out)})
		if w.i >= len(w.lines) || w.col < ind {
			break
		}
		if w.col > ind || isItem(w.content()) {
			return false
		}
	}
	ok := w.order1(start, base)
	w.ents = w.ents[:base]
	w.out = append(w.out, '}')
	return ok
}

// order1 puts the entries of the mapping written from out[start] (its '{') in the order
// of their keys, as encoding/json writes a map; false when two keys are the same.
func (w *jsonBlockWriter) order1(start, base int) bool {
	ents := w.ents[base:]
	sorted := true
	for k := 1; k < len(ents); k++ {
		switch c := bytes.Compare(ents[k-1].key, ents[k].key); {
		case c == 0:
			return false
		case c > 0:
			sorted = false
		}
	}
	if sorted {
		return true
	}
	w.order = append(w.order[:0], ents...)
	slices.SortFunc(w.order, func(a, b jsonEntry) int { return bytes.Compare(a.key, b.key) })
	for k := 1; k < len(w.order); k++ {
		if bytes.Equal(w.order[k-1].key, w.order[k].key) {
			return false
		}
	}
	w.tmp = append(w.tmp[:0], w.out[start:]...)
	w.out = w.out[:start+1]
	for k, e := range w.order {
		if k > 0 {
			w.out = append(w.out, ',')
		}
		w.out = append(w.out, w.tmp[e.start-start:e.end-start]...)
	}
	return true
}

// value writes what follows a key at column ind (rest: its line after the colon) and
// moves to the next line with content.
func (w *jsonBlockWriter) value(ind int, rest []byte, depth int) bool {
	rest = trimSpaces(rest)
	if len(rest) > 0 && rest[0] != '#' {
		return w.scalar(rest, ind)
	}
	if !w.next() {
		w.out = append(w.out, "null"...)
		return true
	}
	switch {
	case w.col > ind:
		return w.node(depth)
	case w.col == ind && isItem(w.content()):
		return w.sequence(ind, depth)
	}
	w.out = append(w.out, "null"...)
	return true
}

// sequence writes the block sequence whose dashes are at column ind.
func (w *jsonBlockWriter) sequence(ind, depth int) bool {
	if depth > maxBlockDepth {
		return false
	}
	w.out = append(w.out, '[')
	for n := 0; ; n++ {
		if n > 0 {
			w.out = append(w.out, ',')
		}
		c := w.content()
		sp := indentOf(c[1:])
		r := c[1+sp:]
		switch {
		case len(r) == 0 || r[0] == '#':
			if !w.next() || w.col <= ind || !w.node(depth+1) {
				return false
			}
		case isItem(r):
			return false
		case isJSONKeyLine(r):
			w.col += 1 + sp
			if !w.mapping(w.col, depth+1) {
				return false
			}
		default:
			if !w.scalar(trimSpaces(r), ind) {
				return false
			}
		}
		switch {
		case w.i >= len(w.lines) || w.col < ind:
		case w.col > ind:
			return false
		case !isItem(w.content()):
		default:
			continue
		}
		w.out = append(w.out, ']')
		return true
	}
}

// scalar writes the scalar written on the current line from r (no leading or trailing
// spaces), whose node is at column ind, and moves to the next line with content, which
// must not be more indented than ind.
func (w *jsonBlockWriter) scalar(r []byte, ind int) bool {
	switch r[0] {
	case '|':
		return w.literal(r[1:], ind)
	case '"', '\'':
		end, ok := quoteEnd(r)
		if !ok || !endsLine(r[end:]) {
			return false
		}
		s, ok := unquote(r[:end])
		if !ok {
			return false
		}
		w.out = appendJSONString(w.out, s)
	case '{':
		end := 1 + indentOf(r[1:])
		if end == len(r) || r[end] != '}' || !endsLine(r[end+1:]) {
			return false
		}
		w.out = append(w.out, "{}"...)
	case '[':
		if !w.flowSequence(r) {
			return false
		}
	case '>', '&', '*', '!', '%', '@', '`', '?', ':', ',', ']', '}', '#', '-':
		if r[0] != '-' || isItem(r) {
			return false
		}
		fallthrough
	default:
		end := len(r)
		for j := 1; j < len(r); j++ {
			if r[j] == '#' && r[j-1] == ' ' {
				end = j
				break
			}
			if r[j] == ':' && (j+1 == len(r) || r[j+1] == ' ') {
				return false
			}
		}
		var ok bool
		if w.out, ok = appendPlainValue(w.out, trimSpaces(r[:end])); !ok {
			return false
		}
	}
	return !w.next() || w.col <= ind
}

// flowSequence writes the flow sequence r holds, closed on its line and followed by
// nothing but a comment: its items plain (none of the characters that mean something in a
// flow collection, nor a comment's #, nor a dash that starts a block item) or quoted on
// the line, resolved as any scalar; no empty item, no comma after the last.
func (w *jsonBlockWriter) flowSequence(r []byte) bool {
	w.out = append(w.out, '[')
	j := 1 + indentOf(r[1:])
	if j < len(r) && r[j] == ']' {
		w.out = append(w.out, ']')
		return endsLine(r[j+1:])
	}
	for n := 0; j < len(r); n++ {
		if n > 0 {
			w.out = append(w.out, ',')
		}
		switch r[j] {
		case '"', '\'':
			e, closed := quoteEnd(r[j:])
			if !closed {
				return false
			}
			s, ok := unquote(r[j : j+e])
			if !ok {
				return false
			}
			w.out = appendJSONString(w.out, s)
			j += e
		default:
			k := j
			for k < len(r) && !flowSpecial[r[k]] {
				k++
			}
			if k == j || r[j] == '-' && (k == j+1 || r[j+1] == ' ') {
				return false
			}
			var ok bool
			if w.out, ok = appendPlainValue(w.out, trimSpaces(r[j:k])); !ok {
				return false
			}
			j = k
		}
		j += indentOf(r[j:])
		if j >= len(r) {
			return false
		}
		switch r[j] {
		case ']':
			w.out = append(w.out, ']')
			return endsLine(r[j+1:])
		case ',':
			j++
			j += indentOf(r[j:])
			if j >= len(r) || r[j] == ']' || r[j] == ',' {
				return false
			}
		default:
			return false
		}
	}
	return false
}

// flowSpecial are the bytes a plain item of a flow sequence may not hold: flowItems' set.
var flowSpecial = [256]bool{',': true, '[': true, ']': true, '{': true, '}': true, ':': true, '#': true,
	'&': true, '*': true, '!': true, '|': true, '>': true, '\'': true, '"': true, '%': true, '@': true, '`': true, '?': true}

// literal writes a literal block scalar whose header follows the '|' in h, its node at
// column ind, from the lines that follow.
func (w *jsonBlockWriter) literal(h []byte, ind int) bool {
	keep, strip := false, false
	if len(h) > 0 && (h[0] == '-' || h[0] == '+') {
		keep, strip = h[0] == '+', h[0] == '-'
		h = h[1:]
	}
	if !endsLine(h) {
		return false // an indentation indicator, or a comment without a space before it
	}
	// The indentation is the first line's with content; lines of spaces before it
	// may not be longer.
	k, n, blank := w.i+1, 0, 0
	for ; k < len(w.lines); k++ {
		l := w.lines[k]
		if m := indentOf(l); m < len(l) {
			n = m
			break
		}
		blank = max(blank, len(l))
	}
	if n <= ind || blank > n {
		return false // no content, or less indented than the lines of spaces before it
	}
	w.out = append(w.out, '"')
	breaks := 0 // line breaks not yet written
	k = w.i + 1
	for ; k < len(w.lines); k++ {
		l := w.lines[k]
		m := indentOf(l)
		if m == len(l) {
			if m > n {
				return false // spaces that are content
			}
			if k < len(w.lines)-1 {
				breaks++
			}
			continue
		}
		if m < n {
			break
		}
		for ; breaks > 0; breaks-- {
			w.out = append(w.out, '\\', 'n')
		}
		w.out = fieldsjson.AppendEscaped(w.out, l[n:])
		if k < len(w.lines)-1 {
			breaks = 1 // the content line's own break; the empty lines after it add theirs
		}
	}
	switch {
	case strip:
	case keep:
		for ; breaks > 0; breaks-- {
			w.out = append(w.out, '\\', 'n')
		}
	case breaks > 0:
		w.out = append(w.out, '\\', 'n')
	}
	w.out = append(w.out, '"')
	w.i = k
	return !w.skip() || w.col <= ind
}

// jsonKeyOf reads the key c starts with — plain, or quoted — as the string jsonable makes
// of it, and what follows its colon.
func jsonKeyOf(c []byte) (key, rest []byte, ok bool) {
	if len(c) == 0 {
		return nil, nil, false
	}
	switch c[0] {
	case '"', '\'':
		end, closed := quoteEnd(c)
		if !closed || end > maxSimpleKey {
			return nil, nil, false
		}
		after := c[end:]
		after = after[indentOf(after):]
		if len(after) == 0 || after[0] != ':' || len(after) > 1 && after[1] != ' ' {
			return nil, nil, false
		}
		k, ok := unquote(c[:end])
		return k, after[1:], ok
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		return nil, nil, false
	}
	for j := 1; j < len(c) && j <= maxSimpleKey; j++ {
		switch {
		case c[j] == '#' && c[j-1] == ' ':
			return nil, nil, false
		case c[j] == ':' && (j+1 == len(c) || c[j+1] == ' '):
			k := trimSpaces(c[:j])
			if len(k) == 0 {
				return nil, nil, false
			}
			k, ok := plainKey(k)
			return k, c[j+1:], ok
		}
	}
	return nil, nil, false
}

// isJSONKeyLine reports whether c starts with a key jsonKeyOf reads, and its colon.
func isJSONKeyLine(c []byte) bool {
	_, _, ok := jsonKeyOf(c)
	return ok
}

// maxSimpleKey is shorter than the longest key the YAML scanner reads without '?' (1,024
// characters).
const maxSimpleKey = 1000

// plainKey is the JSON key of a plain scalar key: strings as written, integers in
// decimal, booleans as true and false; false for others (null and floats, which are
// refused or written differently, unsigned integers, which jsonable refuses; merge keys).
func plainKey(k []byte) ([]byte, bool) {
	if bytes.Equal(k, []byte("<<")) {
		return nil, false
	}
	switch v := resolvePlain(k); v.kind {
	case plainString:
		return k, true
	case plainBool:
		if v.b {
			return []byte("true"), true
		}
		return []byte("false"), true
	case plainInt:
		return strconv.AppendInt(nil, v.i, 10), true
	}
	return nil, false
}

// appendPlainValue writes the JSON of a plain scalar value.
func appendPlainValue(out, s []byte) ([]byte, bool) {
	switch v := resolvePlain(s); v.kind {
	case plainString:
		return appendJSONString(out, s), true
	case plainNull:
		return append(out, "null"...), true
	case plainBool:
		return strconv.AppendBool(out, v.b), true
	case plainInt:
		return strconv.AppendInt(out, v.i, 10), true
	case plainUint:
		return strconv.AppendUint(out, v.u, 10), true
	case plainFloat:
		if math.IsInf(v.f, 0) || math.IsNaN(v.f) {
			return out, false // json.Marshal refuses them: the slow path says what happens
		}
		return fieldsjson.AppendFloat(out, v.f), true
	}
	return out, false
}

type plainKind int

const (
	plainUnsure plainKind = iota // not resolved with certainty: decline
	plainString
	plainNull
	plainBool
	plainInt
	plainUint
	plainFloat
)

type plainValue struct {
	kind plainKind
	b    bool
	i    int64
	u    uint64
	f    float64
}

// resolvePlain resolves a plain scalar as the YAML 1.1 decoder does when it decodes into
// an interface: by its first character, a table of words, then integers (base prefixes and
// underscores allowed), unsigned integers and floats. A timestamp stays a string there,
// as does anything none of these parse. What the decoder reads only through its fallback
// for binary integers is left unsure.
func resolvePlain(s []byte) plainValue {
	if len(s) == 0 {
		return plainValue{kind: plainNull}
	}
	switch string(s) {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return plainValue{kind: plainBool, b: true}
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return plainValue{kind: plainBool, b: false}
	case "~", "null", "Null", "NULL":
		return plainValue{kind: plainNull}
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<":
		return plainValue{} // not finite, or a merge
	}
	switch c := s[0]; {
	case c == '.':
		if f, err := strconv.ParseFloat(string(s), 64); err == nil {
			return plainValue{kind: plainFloat, f: f}
		}
		return plainValue{kind: plainString}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
	default:
		return plainValue{kind: plainString}
	}
	if i, ok := smallDecimal(s); ok {
		return plainValue{kind: plainInt, i: i}
	}
	if !numberText(s) {
		// No integer in any base nor float has these characters (250m, 64Mi, 25%,
		// 1.2.3): the decoder's parsers all fail and leave a string.
		return plainValue{kind: plainString}
	}
	plain := string(s)
	if bytes.IndexByte(s, '_') >= 0 {
		plain = string(bytes.ReplaceAll(s, []byte("_"), nil))
	}
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return plainValue{kind: plainInt, i: i}
	}
	if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return plainValue{kind: plainUint, u: u}
	}
	if yamlFloat(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return plainValue{kind: plainFloat, f: f}
		}
	}
	if len(plain) >= 2 && plain[:2] == "0b" || len(plain) >= 3 && plain[:3] == "-0b" {
		return plainValue{}
	}
	return plainValue{kind: plainString}
}

// numberText reports whether s could be read by the decoder's integer or float parsers,
// or by its fallback for binary integers: only digits, hexadecimal letters, base prefixes'
// letters, signs, points and underscores — and anything that starts like a binary integer.
func numberText(s []byte) bool {
	if bytes.HasPrefix(s, []byte("0b")) || bytes.HasPrefix(s, []byte("-0b")) {
		return true
	}
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c == 'x', c == 'X', c == 'o', c == 'O', c == '+', c == '-', c == '.', c == '_':
		default:
			return false
		}
	}
	return true
}

// smallDecimal reads s when it is a decimal integer of at most 18 digits without a
// leading zero (or 0 itself), optionally signed: what ParseInt reads the same in any base.
func smallDecimal(s []byte) (int64, bool) {
	neg := false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// yamlFloat reports whether s is a float as the decoder's pattern has it:
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func yamlFloat(s string) bool {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return false
		}
		i = j
	} else {
		j := digits(i)
		if j == i {
			return false
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i = digits(i + 1)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		j := digits(i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// unquote is the value of a quoted scalar q written on one line (quotes included): for a
// single-quoted one, two quotes in a row are one; a double-quoted one has the YAML escapes. False for an
// escape the YAML scanner refuses.
func unquote(q []byte) ([]byte, bool) {
	s := q[1 : len(q)-1]
	if q[0] == '\'' {
		if bytes.IndexByte(s, '\'') < 0 {
			return s, true
		}
		return bytes.ReplaceAll(s, []byte("''"), []byte("'")), true
	}
	if bytes.IndexByte(s, '\\') < 0 {
		return s, true
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i == len(s) {
			return nil, false
		}
		size := 0
		switch s[i] {
		case '0':
			out = append(out, 0)
		case 'a':
			out = append(out, '\a')
		case 'b':
			out = append(out, '\b')
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'v':
			out = append(out, '\v')
		case 'f':
			out = append(out, '\f')
		case 'r':
			out = append(out, '\r')
		case 'e':
			out = append(out, 0x1b)
		case ' ', '"', '\'', '\\':
			out = append(out, s[i])
		case 'N':
			out = utf8.AppendRune(out, 0x85)
		case '_':
			out = utf8.AppendRune(out, 0xa0)
		case 'L':
			out = utf8.AppendRune(out, 0x2028)
		case 'P':
			out = utf8.AppendRune(out, 0x2029)
		case 'x':
			size = 2
		case 'u':
			size = 4
		case 'U':
			size = 8
		default:
			return nil, false
		}
		if size == 0 {
			continue
		}
		if i+1+size > len(s) {
			return nil, false
		}
		v, err := strconv.ParseUint(string(s[i+1:i+1+size]), 16, 32)
		if err != nil || v >= 0xd800 && v <= 0xdfff || v > 0x10ffff {
			return nil, false
		}
		out = utf8.AppendRune(out, rune(v))
		i += size
	}
	return out, true
}

// appendJSONString writes s as a JSON string, as encoding/json does (HTML escaped).
func appendJSONString(out, s []byte) []byte {
	out = append(out, '"')
	out = fieldsjson.AppendEscaped(out, s)
	return append(out, '"')
}
