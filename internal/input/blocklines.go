package input

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// blockLines is the line of each field of a YAML document written in block style — the
// map document.index makes from yaml.v3's nodes (JSON Pointer → absolute line), read from
// the document's lines without parsing it again. It reads the shapes manifests are written
// in: block mappings and sequences (a sequence may sit at its key's indentation), keys and
// scalars on one line (plain, or quoted without a line break), literal and folded block
// scalars, the empty flow collections {} and [], comments and blank lines. On anything
// else it gives up (false) and index parses the document with yaml.v3: flow collections
// with content, anchors, aliases, tags, directives and document markers, explicit keys,
// multi-line plain or quoted scalars, block scalars with an indentation indicator, quoted
// keys with escapes, duplicate keys, an empty sequence item, tabs, carriage returns,
// Unicode line breaks, control characters and invalid UTF-8.
//
// The lines are those yaml.v3 gives its nodes: a key's line for its field, a sequence
// item's first line (the line of its first key, for a mapping) for the item, the first
// key's line for the whole document. FuzzBlockLines holds it to index's yaml.v3 walk on
// every document yaml.v2 (which read the document first) accepts.
func blockLines(raw []byte, firstLine int) (map[string]int, bool) {
	if !plainText(raw) {
		return nil, false
	}
	s := &blockScanner{lines: bytes.Split(raw, []byte("\n")), first: firstLine, out: map[string]int{}}
	if !s.skip() {
		return nil, false
	}
	if s.col == 0 && (bytes.HasPrefix(s.line(), []byte("---")) || bytes.HasPrefix(s.line(), []byte("..."))) {
		return nil, false
	}
	if isItem(s.content()) || !s.mapping("", s.col, 0) || s.i < len(s.lines) {
		return nil, false
	}
	return s.out, true
}

// plainText reports whether raw is valid UTF-8 without tabs, carriage returns, control
// characters, a byte order mark or Unicode line breaks (NEL, LS, PS), which move yaml.v3's
// line count or its columns, nor characters the YAML reader refuses.
func plainText(raw []byte) bool {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError || r == '\u2028' || r == '\u2029' || r == '\ufeff' || !printable(r) {
			return false
		}
		i += n
	}
	return true
}

// printable reports whether the YAML reader takes r, a character of two bytes or more,
// in a document (NEL aside: plainText refuses it).
func printable(r rune) bool {
	return r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff
}

// maxBlockDepth bounds the nesting blockLines reads; deeper documents go to yaml.v3.
const maxBlockDepth = 100

// blockScanner reads a document's lines: i is the line being read, col where its content
// starts (its indentation, or past a sequence item's "- ").
type blockScanner struct {
	lines [][]byte
	i     int
	col   int
	first int
	out   map[string]int
}

func (s *blockScanner) line() []byte    { return s.lines[s.i] }
func (s *blockScanner) content() []byte { return s.lines[s.i][s.col:] }
func (s *blockScanner) lineNo() int     { return s.first + s.i }

// mark gives ptr the current line unless it has one.
func (s *blockScanner) mark(ptr string) {
	if _, ok := s.out[ptr]; !ok {
		s.out[ptr] = s.lineNo()
	}
}

// skip moves to the first line from the current one that has content (not blank, not a
// comment), with col at its indentation; false at the document's end.
func (s *blockScanner) skip() bool {
	for ; s.i < len(s.lines); s.i++ {
		l := s.lines[s.i]
		n := indentOf(l)
		if n < len(l) && l[n] != '#' {
			s.col = n
			return true
		}
	}
	return false
}

// next moves past the current line to the next with content.
func (s *blockScanner) next() bool {
	s.i++
	return s.skip()
}

func indentOf(l []byte) int {
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	return n
}

// isItem reports whether content starts a block sequence item: "-" then a space or nothing.
func isItem(c []byte) bool {
	return len(c) > 0 && c[0] == '-' && (len(c) == 1 || c[1] == ' ')
}

// node reads the mapping or sequence starting at the current line (col its indentation)
// as the value at ptr.
func (s *blockScanner) node(ptr string, depth int) bool {
	if isItem(s.content()) {
		return s.sequence(ptr, s.col, depth)
	}
	return s.mapping(ptr, s.col, depth)
}

// mapping reads the block mapping whose keys are at column ind, starting at the current
// line, as the value at ptr. It stops at the first line with content less indented (or at
// the end), where the current line then is.
func (s *blockScanner) mapping(ptr string, ind, depth int) bool {
	if depth > maxBlockDepth {
		return false
	}
	s.mark(ptr)
	for {
		key, rest, ok := splitKey(s.content())
		if !ok {
			return false
		}
		p := ptr + "/" + escapePointer(key)
		if _, dup := s.out[p]; dup {
			return false
		}
		s.out[p] = s.lineNo()
		if !s.value(p, ind, rest, depth+1) {
			return false
		}
		switch {
		case s.i >= len(s.lines) || s.col < ind:
			return true
		case s.col > ind || isItem(s.content()):
			return false
		}
	}
}

// value reads what follows a key at column ind (rest: the key's line after its colon) as
// the value at ptr, and moves to the next line with content.
func (s *blockScanner) value(ptr string, ind int, rest []byte, depth int) bool {
	rest = trimSpaces(rest)
	if len(rest) > 0 && rest[0] != '#' {
		return s.scalar(ptr, rest, ind)
	}
	if !s.next() {
		return true // null
	}
	switch {
	case s.col > ind:
		return s.node(ptr, depth)
	case s.col == ind && isItem(s.content()):
		// A sequence may be written at its key's indentation.
		return s.sequence(ptr, ind, depth)
	}
	return true // null
}

// sequence reads the block sequence whose dashes are at column ind, starting at the
// current line, as the value at ptr.
func (s *blockScanner) sequence(ptr string, ind, depth int) bool {
	if depth > maxBlockDepth {
		return false
	}
	s.mark(ptr)
	for n := 0; ; n++ {
		q := ptr + "/" + strconv.Itoa(n)
		c := s.content()
		sp := indentOf(c[1:])
		r := c[1+sp:]
		switch {
		case len(r) == 0 || r[0] == '#':
			// The item on the next lines (an empty item: given up, its line unsure).
			if !s.next() || s.col <= ind || !s.node(q, depth+1) {
				return false
			}
		case isItem(r):
			return false // "- - a"
		case isKeyLine(r):
			s.col += 1 + sp
			if !s.mapping(q, s.col, depth+1) {
				return false
			}
		default:
			s.mark(q)
			if !s.scalar(q, r, ind) {
				return false
			}
		}
		switch {
		case s.i >= len(s.lines) || s.col < ind:
			return true
		case s.col > ind:
			return false
		case !isItem(s.content()):
			return true // the next key of a mapping at the same indentation
		}
	}
}

// scalar reads a scalar written on the current line from r (a block scalar: its header,
// then its lines, more indented than ind; or a flow sequence of scalars, whose items get
// the line), the value at ptr, and moves to the next line with content, which
// must not be more indented than ind (a plain scalar continued, or a parse error).
func (s *blockScanner) scalar(ptr string, r []byte, ind int) bool {
	switch r[0] {
	case '|', '>':
		h := r[1:]
		if len(h) > 0 && (h[0] == '-' || h[0] == '+') {
			h = h[1:]
		}
		if !endsLine(h) {
			return false
		}
		for s.i++; s.i < len(s.lines); s.i++ {
			l := s.lines[s.i]
			if n := indentOf(l); n < len(l) && n <= ind {
				break
			}
		}
		return !s.skip() || s.col <= ind
	case '"', '\'':
		end, ok := quoteEnd(r)
		if !ok || !endsLine(r[end:]) {
			return false
		}
	case '{':
		if len(r) < 2 || r[1] != '}' || !endsLine(r[2:]) {
			return false
		}
	case '[':
		n, end, ok := flowItems(r)
		if !ok || !endsLine(r[end:]) {
			return false
		}
		for k := range n {
			s.mark(ptr + "/" + strconv.Itoa(k))
		}
	case '&', '*', '!', '%', '@', '`', '?', ':', ',', ']', '}', '#', '-':
		if r[0] != '-' || isItem(r) {
			return false
		}
		fallthrough
	default:
		for j := 1; j < len(r); j++ {
			if r[j] == '#' && r[j-1] == ' ' {
				break
			}
			if r[j] == ':' && (j+1 == len(r) || r[j+1] == ' ') {
				return false
			}
		}
	}
	return !s.next() || s.col <= ind
}

// flowItems reads the flow sequence r starts with, written on one line, whose items are
// plain scalars or quoted ones: their number and the index past its closing bracket.
func flowItems(r []byte) (n, end int, ok bool) {
	j := 1 + indentOf(r[1:])
	if j < len(r) && r[j] == ']' {
		return 0, j + 1, true
	}
	for j < len(r) {
		switch r[j] {
		case '"', '\'':
			e, closed := quoteEnd(r[j:])
			if !closed {
				return 0, 0, false
			}
			j += e
		default:
			k := j
			for k < len(r) && !bytes.ContainsRune([]byte(",[]{}:#&*!|>'\"%@`?"), rune(r[k])) {
				k++
			}
			if k == j || r[j] == '-' && (k == j+1 || r[j+1] == ' ') {
				return 0, 0, false
			}
			j = k
		}
		n++
		j += indentOf(r[j:])
		if j >= len(r) {
			return 0, 0, false
		}
		switch r[j] {
		case ']':
			return n, j + 1, true
		case ',':
			j++
			j += indentOf(r[j:])
			if j >= len(r) || r[j] == ']' || r[j] == ',' {
				return 0, 0, false
			}
		default:
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// endsLine reports whether b is blank, or blanks then a comment.
func endsLine(b []byte) bool {
	n := indentOf(b)
	return n == len(b) || n > 0 && b[n] == '#'
}

func trimSpaces(b []byte) []byte {
	b = b[indentOf(b):]
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// quoteEnd is the index past the quoted scalar r starts with, closed on the line.
func quoteEnd(r []byte) (int, bool) {
	q := r[0]
	for j := 1; j < len(r); j++ {
		switch {
		case q == '"' && r[j] == '\\':
			j++
		case r[j] == q && q == '\'' && j+1 < len(r) && r[j+1] == '\'':
			j++
		case r[j] == q:
			return j + 1, true
		}
	}
	return 0, false
}

// isKeyLine reports whether c starts with a key and its colon.
func isKeyLine(c []byte) bool {
	_, _, ok := splitKey(c)
	return ok
}

// splitKey reads the key c starts with — plain, or quoted without escapes — and what
// follows its colon.
func splitKey(c []byte) (key string, rest []byte, ok bool) {
	if len(c) == 0 {
		return "", nil, false
	}
	var k []byte
	switch c[0] {
	case '"', '\'':
		end, closed := quoteEnd(c)
		if !closed {
			return "", nil, false
		}
		k = c[1 : end-1]
		if bytes.IndexByte(k, '\\') >= 0 || bytes.IndexByte(k, '\'') >= 0 || bytes.IndexByte(k, '"') >= 0 {
			return "", nil, false
		}
		after := c[end:]
		after = after[indentOf(after):]
		if len(after) == 0 || after[0] != ':' || len(after) > 1 && after[1] != ' ' {
			return "", nil, false
		}
		return string(k), after[1:], true
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		return "", nil, false
	}
	for j := 1; j < len(c); j++ {
		switch {
		case c[j] == '#' && c[j-1] == ' ':
			return "", nil, false
		case c[j] == ':' && (j+1 == len(c) || c[j+1] == ' '):
			k = c[:j]
			for len(k) > 0 && k[len(k)-1] == ' ' {
				k = k[:len(k)-1]
			}
			if len(k) == 0 || len(k) > 1000 || bytes.Equal(k, []byte("<<")) {
				return "", nil, false
			}
			return string(k), c[j+1:], true
		}
	}
	return "", nil, false
}
