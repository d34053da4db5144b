package jsontext

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Scanner reads the tokens of JSON text in order, checking JSON's grammar as it goes: the
// one reader behind Compact and Indent here, the decoders of package input and of
// fieldsjson. It reads forward only and keeps no tree; its user builds what it needs from
// the tokens, keeps its own nesting limit, and gives the text to encoding/json whenever a
// method reports false (the text is malformed there, or holds what encoding/json mends).
//
// A container is read as Enter, then per member Key (objects only; for arrays Space) and
// the value, then Next until Next reports no more members; Members does all of that for an
// object read into a map. Peek, AtEnd, Space, Key and Next stand where they are called;
// the other methods expect the spaces before their token skipped.
type Scanner struct {
	data []byte
	pos  int
	// Strings, when set, gives the values of short strings and keys read by String, Key
	// and Members: one string for the many equal ones of a document.
	Strings *StringCache
}

// StringCache hands out one string for equal short texts: the keys of a Kubernetes
// object repeat (name, protocol, containerPort in each item), and so do short values (TCP,
// IfNotPresent), each a new allocation otherwise. A slot per hash of the text, whose
// string is given again when it is the text and replaced by a new one when it is not: the
// string given is always the text's, whatever the slot held.
type StringCache struct {
	slots [256]string
}

// maxCachedString bounds the texts a StringCache keeps: longer ones rarely repeat.
const maxCachedString = 32

// get is b as a string, from the cache when its slot holds it.
func (c *StringCache) get(b []byte) string {
	if len(b) == 0 || len(b) > maxCachedString {
		return string(b)
	}
	// Three bytes and the length tell most keys apart, without reading the whole text.
	n := len(b)
	h := uint(n)*0x9e + uint(b[0])*0x3b + uint(b[n/2])*0x1f + uint(b[n-1])
	slot := &c.slots[(h^h>>8)%uint(len(c.slots))]
	if *slot == string(b) {
		return *slot
	}
	s := string(b)
	*slot = s
	return s
}

// NewScanner is a Scanner at the start of data.
func NewScanner(data []byte) Scanner { return Scanner{data: data} }

// Peek is the byte at the read position, 0 at the end of the text.
func (s *Scanner) Peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// AtEnd reports whether all of the text has been read.
func (s *Scanner) AtEnd() bool { return s.pos == len(s.data) }

// Space skips JSON's whitespace: spaces, tabs, line feeds, carriage returns.
func (s *Scanner) Space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// Literal reads word (true, false or null) at the read position.
func (s *Scanner) Literal(word string) bool {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	return true
}

// Number reads a number of JSON's grammar — a sign, an integer part without leading zeros,
// a fraction, an exponent — and gives its text.
func (s *Scanner) Number() ([]byte, bool) {
	start := s.pos
	if s.Peek() == '-' {
		s.pos++
	}
	if s.Peek() == '0' {
		s.pos++
	} else if !s.digits() {
		return nil, false
	}
	if s.Peek() == '.' {
		s.pos++
		if !s.digits() {
			return nil, false
		}
	}
	if c := s.Peek(); c == 'e' || c == 'E' {
		s.pos++
		if c := s.Peek(); c == '+' || c == '-' {
			s.pos++
		}
		if !s.digits() {
			return nil, false
		}
	}
	return s.data[start:s.pos], true
}

// digits reads a run of decimal digits; false when there is none.
func (s *Scanner) digits() bool {
	start := s.pos
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos > start
}

// quoted reads a string as JSON's grammar has it — no control characters, only JSON's
// escapes; any other byte, UTF-8 or not — and gives what stands between its quotes;
// escaped reports a backslash in it, ascii that its other bytes are all ASCII.
func (s *Scanner) quoted() (inner []byte, escaped, ascii, ok bool) {
	if s.Peek() != '"' {
		return nil, false, false, false
	}
	start := s.pos + 1
	var high byte // every unescaped byte or-ed, for ascii
	for i := start; i < len(s.data); {
		c := s.data[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return s.data[start:i], escaped, high < utf8.RuneSelf, true
		case c < 0x20:
			return nil, false, false, false
		case c == '\\':
			if i+1 >= len(s.data) {
				return nil, false, false, false
			}
			escaped = true
			switch s.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.data) {
					return nil, false, false, false
				}
				for _, h := range s.data[i+2 : i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return nil, false, false, false
					}
				}
				i += 6
			default:
				return nil, false, false, false
			}
		default:
			high |= c
			i++
		}
	}
	return nil, false, false, false
}

// String reads a string and gives its value; false also for one that encoding/json would
// mend rather than read as it is: bytes that are not UTF-8, \u escapes of surrogates.
func (s *Scanner) String() (string, bool) {
	inner, escaped, ascii, ok := s.quoted()
	if !ok {
		return "", false
	}
	return stringOf(inner, escaped, ascii, s.Strings)
}

// stringOf is the value of a string whose inner text quoted read, from cache when set.
func stringOf(inner []byte, escaped, ascii bool, cache *StringCache) (string, bool) {
	if escaped {
		// Most escaped strings are short keys of keyed list items: unescaped on the stack.
		var stack [64]byte
		if inner = unescape(stack[:0], inner); inner == nil {
			return "", false
		}
	}
	if !ascii && !utf8.Valid(inner) {
		return "", false
	}
	if cache != nil {
		return cache.get(inner), true
	}
	return string(inner), true
}

// unescape appends to buf the bytes inner (as quoted read it) stands for; nil when it
// escapes a surrogate. What \u escapes write is UTF-8; the other bytes are as they were.
func unescape(buf, inner []byte) []byte {
	for i := 0; i < len(inner); {
		c := inner[i]
		if c != '\\' {
			buf = append(buf, c)
			i++
			continue
		}
		e := inner[i+1]
		i += 2
		switch e {
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
			r, _ := strconv.ParseUint(string(inner[i:i+4]), 16, 16)
			if utf16.IsSurrogate(rune(r)) {
				return nil
			}
			i += 4
			buf = utf8.AppendRune(buf, rune(r))
		default: // " \ /
			buf = append(buf, e)
		}
	}
	return buf
}

// Enter reads the opening bracket of an object or an array and the spaces after it, and
// reports whether closing follows at once (then read too): an empty container.
func (s *Scanner) Enter(closing byte) (empty bool) {
	s.pos++
	s.Space()
	if s.Peek() == closing {
		s.pos++
		return true
	}
	return false
}

// Key reads an object member's key, with the spaces before it, its colon and the spaces
// around that, and gives the key's value as String does.
func (s *Scanner) Key() (string, bool) {
	s.Space()
	k, ok := s.String()
	return k, ok && s.colon()
}

// KeyIn is Key for a Scanner of text's bytes: a key without escapes is given as a part of
// text, not a copy.
func (s *Scanner) KeyIn(text string) (string, bool) {
	s.Space()
	at := s.pos + 1
	inner, escaped, ascii, ok := s.quoted()
	if !ok {
		return "", false
	}
	var k string
	if !escaped && (ascii || utf8.Valid(inner)) {
		k = text[at : at+len(inner)]
	} else if k, ok = stringOf(inner, escaped, ascii, s.Strings); !ok {
		return "", false
	}
	return k, s.colon()
}

// colon reads the spaces, the colon and the spaces between a key and its value.
func (s *Scanner) colon() bool {
	s.Space()
	if s.Peek() != ':' {
		return false
	}
	s.pos++
	s.Space()
	return true
}

// Next reads what follows a member of a container, with the spaces before it: a comma
// (more members follow) or the closing bracket (the container ends); ok false for anything
// else. It leaves the spaces after a comma, which Key skips and an array's reader skips
// with Space.
func (s *Scanner) Next(closing byte) (more, ok bool) {
	s.Space()
	if s.pos < len(s.data) {
		if c := s.data[s.pos]; c == ',' || c == closing {
			s.pos++
			return c == ',', true
		}
	}
	return false, false
}

// Members reads an object into m, each member's value read by value given its key (at the
// read position, spaces skipped), the last of repeated keys kept as in a decoded map; false
// where Key, value or Next is.
func (s *Scanner) Members(m map[string]any, value func(key string) (any, bool)) bool {
	if s.Enter('}') {
		return true
	}
	for more := true; more; {
		k, ok := s.Key()
		if !ok {
			return false
		}
		v, ok := value(k)
		if !ok {
			return false
		}
		m[k] = v
		if more, ok = s.Next('}'); !ok {
			return false
		}
	}
	return true
}

// CanonicalSet reads, at the read position, an object of objects — a field set, as a
// managedFields entry's fieldsV1 holds it — whose text is already what encoding/json
// writes of its decoded tree: compact, each object's keys in increasing byte order (none
// twice), of printable ASCII without the HTML characters <, > and &, escaping only " and \.
// It gives that text, a part of the Scanner's. It reports false, the read position where
// it was, for anything else, and when an object nests past maxDepth, the first being at
// depth: such text is to be decoded.
func (s *Scanner) CanonicalSet(depth, maxDepth int) ([]byte, bool) {
	start := s.pos
	if !s.canonicalSet(depth, maxDepth) {
		s.pos = start
		return nil, false
	}
	return s.data[start:s.pos], true
}

func (s *Scanner) canonicalSet(depth, maxDepth int) bool {
	if depth > maxDepth || s.Peek() != '{' {
		return false
	}
	s.pos++
	if s.Peek() == '}' {
		s.pos++
		return true
	}
	var prev []byte
	for first := true; ; first = false {
		key, ok := s.canonicalKey()
		if !ok || !first && compareEscaped(prev, key) >= 0 || s.Peek() != ':' {
			return false
		}
		prev = key
		s.pos++
		if !s.canonicalSet(depth+1, maxDepth) {
			return false
		}
		switch s.Peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return true
		default:
			return false
		}
	}
}

// canonicalKey reads a string as encoding/json writes a key of printable ASCII without
// HTML characters (only " and \ escaped) and gives what stands between its quotes.
func (s *Scanner) canonicalKey() ([]byte, bool) {
	if s.Peek() != '"' {
		return nil, false
	}
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			s.pos = i + 1
			return s.data[start:i], true
		case c == '\\':
			if i+1 >= len(s.data) || s.data[i+1] != '"' && s.data[i+1] != '\\' {
				return nil, false
			}
			i++
		case c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&':
			return nil, false
		}
	}
	return nil, false
}

// compareEscaped compares two keys canonicalKey read as their values compare (byte order):
// a backslash stands for the byte after it.
func compareEscaped(a, b []byte) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		if x == '\\' {
			i++
			x = a[i]
		}
		if y == '\\' {
			j++
			y = b[j]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
		i++
		j++
	}
	switch {
	case i < len(a):
		return 1
	case j < len(b):
		return -1
	}
	return 0
}
