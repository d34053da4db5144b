package input

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// This file splits a JSON stream into its values, and a value that holds a list of
// objects — a List's "items" array, or an array at the top — into its items as well, so
// that a cluster dump of thousands of objects is never one buffer and one decode.
//
// The scanner counts brackets outside strings, as it always has: that is where a value
// ends, how deeply it nests, and on which line each byte is. It also follows the keys of a
// top-level object; when the value of a key "items" is an array, each element of the array
// is kept as its own bytes (an item), bounded by the document limit on its own, and handed
// to the decoding pool at once, while the scan goes on. The rest of the value (the
// "shell": the List's apiVersion, kind, metadata, with an empty items array) and the bytes
// between the items (the "gaps": blanks and commas) are kept too, within the document
// limit (the gaps only while the whole value is). Only when the value has ended is it known to be a List (kubectl prints "kind"
// after "items"): if it is not, or if anything in it is not valid JSON, the parser puts
// the value back together and reads it as one document, exactly as before.

// rawList is a JSON value whose items array was read item by item.
type rawList struct {
	base  string // JSON Pointer of the items array in the value: "/items", or "" for an array
	depth int    // nesting of the items array itself: 2 under a List, 1 at the top

	shell      []byte // the value without the array's content
	cut        int    // offset in shell where the array's content was
	open       int    // line of the array's '['
	close      int    // line of the array's ']' (0: not reached)
	gaps       []byte // the bytes between the items, in order
	items      []*jsonItem
	tail       [][]byte // the array's bytes from the first item not kept apart
	total      int64    // bytes of the whole value
	dropped    int      // items past the item bound, not kept apart
	droppedAt  int      // line of the first of them
	itemsKeys  int      // keys "items" in the top-level object
	escapedKey bool     // a top-level key with an escape: it could be "items" in disguise
	truncated  bool     // the input ended inside the value
	end        int      // line of the value's last byte

	gapErr    string // the first misplaced comma or bracket between items (JSON scanner wording)
	gapLine   int
	gapBefore int // index of the item the bad gap precedes

	wg sync.WaitGroup // items being decoded
}

// jsonItem is one item of a rawList: its bytes and, once decoded, its value.
type jsonItem struct {
	line     int    // where it starts
	data     []byte // nil when oversize
	gapOff   int    // len(rawList.gaps) where it starts
	oversize bool

	// Set by decoding.
	value    any
	err      error // not valid JSON
	errLine  int
	depthErr *depthError
	doc      *document
	warnings []string
	warned   bool // the warnings went to an object

	// Set instead when the item is deferred (see deferred.go): its compact text (data
	// is then that text and the line ends of the item's bytes) and identity.
	text []byte
	head *objectHead
}

// itemState is where the scanner is between the items of an array.
type itemState uint8

const (
	afterOpen  itemState = iota // after '['
	afterItem                   // after an item
	afterComma                  // after ','
)

type sink uint8

const (
	toNone sink = iota
	toShell
	toGap
	toItem
	toTail
)

// jsonSplitter is the scanner's state; it lives for one stream.
type jsonSplitter struct {
	lim     Limits
	emitDoc func(rawDoc) bool
	decode  func(*rawList, *jsonItem) // starts decoding a kept item
	stopped bool                      // the parser wants no more documents
	line    int

	// The value being read.
	inValue           bool
	startLine         int
	depth             int
	inString, escaped bool
	oversize, tooDeep bool
	deepLine          int
	buf               []byte // the value's bytes; of a List, its shell
	total             int64  // all the value's bytes
	sink              sink
	from              int // start of the block's bytes not yet given to the sink

	// Keys of a top-level object.
	top        byte // '{' or '['
	capturing  bool // reading a string of the top-level object
	keyLen     int
	key        [6]byte
	keyEscaped bool
	awaitItems bool // after `"items":`
	keys       keyFlags

	// The items array.
	list       *rawList
	itemsDepth int // depth inside the array while reading it, else 0
	state      itemState
	item       *jsonItem // being read
	itemKind   byte      // '{' (a map or list), '"' (a string) or 0 (another scalar)
	keep       bool      // the item's bytes are kept
	arena      []byte    // item bytes are carved from it
	itemStart  int       // of the current item in arena
}

// splitJSON reads a stream of JSON objects and arrays and calls emit with each. It finds
// where a value ends by counting brackets outside strings, so it holds one value at a time,
// and it checks the size and nesting limits before anything decodes the value. The items
// of a top-level object's "items" array, or of a top-level array, are kept one by one and
// passed to decode (when not nil) as soon as each ends; the value then reaches emit as a
// rawList. Something other than an object or array between values ends the stream with an
// error: a JSON stream cannot be resynchronised.
func splitJSON(r *bufio.Reader, lim Limits, emit func(rawDoc) bool, decode func(*rawList, *jsonItem)) error {
	s := &jsonSplitter{lim: lim, emitDoc: emit, decode: decode, line: 1}
	for {
		if r.Buffered() == 0 {
			if _, err := r.Peek(1); err != nil {
				return s.end(err)
			}
		}
		block, _ := r.Peek(r.Buffered())
		n, garbage := s.feed(block)
		r.Discard(n)
		if garbage {
			rest, _ := r.ReadSlice('\n')
			if j := bytes.IndexByte(rest, '\n'); j >= 0 {
				rest = rest[:j]
			}
			s.emit(rawDoc{data: append([]byte(nil), rest...), firstLine: s.line,
				err: fmt.Errorf("invalid JSON: expected an object or an array, found %q", truncate(string(rest), 40))})
			return nil
		}
		if s.stopped {
			return nil
		}
	}
}

func (s *jsonSplitter) emit(d rawDoc) {
	if !s.stopped && !s.emitDoc(d) {
		s.stopped = true
	}
}

// end handles the reader's error (io.EOF at the end).
func (s *jsonSplitter) end(err error) error {
	if s.inValue {
		if err == io.EOF {
			s.finish(true) // an unterminated value: decoding it says what is missing
			return nil
		}
		if s.oversize || s.tooDeep {
			s.finish(false)
		}
		s.emit(rawDoc{firstLine: s.startLine, err: err})
		return err
	}
	if err == io.EOF {
		return nil
	}
	s.emit(rawDoc{firstLine: s.line, err: err})
	return err
}

// Byte classes: bytes a string goes on with, and bytes that mean nothing to the scanner
// outside strings (other than at the level of an items array).
var strPlain, outPlain [256]bool

func init() {
	for c := 0; c < 256; c++ {
		strPlain[c] = c != '"' && c != '\\' && c != '\n'
		switch c {
		case '"', '{', '}', '[', ']', ',', ':', '\n':
		default:
			outPlain[c] = true
		}
	}
}

// eightSpaces is eight bytes of spaces read as one little-endian word.
const eightSpaces = 0x2020202020202020

// scalarByte tells whether c may go on a scalar (a number, true, false, null) outside strings.
func scalarByte(c byte) bool {
	return outPlain[c] && !isSpace(c)
}

// feed scans a block of the stream. It returns how much of the block it consumed and
// whether it met something that is not a JSON value (at the offset returned).
func (s *jsonSplitter) feed(b []byte) (int, bool) {
	s.from = 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !s.inValue {
			switch {
			case c == '\n':
				s.line++
				continue
			case isSpace(c):
				continue
			case c == '{' || c == '[':
				s.begin(c)
				s.from = i
			default:
				return i, true
			}
		}
		if s.inString {
			if s.escaped {
				s.escaped = false // (an escaped line end is not counted, as it never was)
				if s.capturing {
					s.capture(b[i : i+1])
				}
				continue
			}
			switch c {
			case '\\':
				s.escaped = true
				if s.capturing {
					s.keyEscaped = true
				}
				continue
			case '"':
				s.inString = false
				s.capturing = false
				if s.item != nil && s.itemKind == '"' && s.depth == s.itemsDepth {
					s.endItem(b, i+1)
				}
				continue
			case '\n':
				s.line++
				continue
			}
			j := i + 1
			for j < len(b) && strPlain[b[j]] {
				j++
			}
			if s.capturing {
				s.capture(b[i:j])
			}
			i = j - 1
			continue
		}
		atItems := s.itemsDepth > 0 && s.depth == s.itemsDepth
		if atItems && s.item != nil && s.itemKind == 0 && !scalarByte(c) {
			s.endItem(b, i) // a scalar item ends before this byte
		}
		if s.awaitItems && !isSpace(c) && c != '[' {
			s.awaitItems = false
		}
		switch c {
		case '"':
			if atItems && s.item == nil {
				s.startItem(b, i, '"')
			}
			s.inString = true
			if s.depth == 1 && s.top == '{' {
				s.capturing, s.keyLen, s.keyEscaped = true, 0, false
			}
		case '{', '[':
			if atItems && s.item == nil {
				s.startItem(b, i, '{')
			}
			s.depth++
			if s.depth > s.lim.MaxDepth && !s.tooDeep {
				s.tooDeep, s.deepLine = true, s.line
				s.drop()
			}
			switch {
			case s.depth == 1 && c == '[':
				s.enterItems(b, i+1, "")
			case s.awaitItems && s.depth == 2 && c == '[' && s.list == nil:
				s.enterItems(b, i+1, "/items")
			}
			s.awaitItems = false
		case '}', ']':
			if atItems && s.item == nil {
				s.leaveItems(b, i, c)
			}
			s.depth--
			if s.item != nil && s.itemKind == '{' && s.depth == s.itemsDepth {
				s.endItem(b, i+1)
			}
			if s.depth == 0 {
				s.flush(b, i+1)
				s.finish(false)
				if s.stopped {
					return i + 1, false
				}
			}
		case ',':
			if atItems && s.item == nil {
				if s.state != afterItem {
					s.badGap("invalid character ',' " + s.expected())
				}
				s.state = afterComma
			}
		case ':':
			if atItems && s.item == nil {
				s.badGap(fmt.Sprintf("invalid character ':' %s", s.expected()))
			}
			if s.depth == 1 && s.top == '{' {
				// The string before was a key.
				if s.keyEscaped {
					s.keys.escapedKey = true
				}
				if s.keyLen == 5 && string(s.key[:5]) == "items" {
					s.keys.itemsKeys++
					s.awaitItems = true
				}
			}
		case '\n':
			s.line++
		default:
			if atItems && s.item == nil && scalarByte(c) {
				s.startItem(b, i, 0)
				continue
			}
			if !atItems {
				j := i + 1
				// An indented dump is mostly runs of spaces: eight at a time.
				for j+8 <= len(b) && binary.LittleEndian.Uint64(b[j:]) == eightSpaces {
					j += 8
				}
				for j < len(b) && outPlain[b[j]] && (!s.awaitItems || isSpace(b[j])) {
					j++
				}
				i = j - 1
			}
		}
	}
	if s.inValue {
		s.flush(b, len(b))
	}
	return len(b), false
}

func (s *jsonSplitter) capture(p []byte) {
	for _, c := range p {
		if s.keyLen < len(s.key) {
			s.key[s.keyLen] = c
		}
		s.keyLen++
	}
}

// begin starts a value.
func (s *jsonSplitter) begin(c byte) {
	s.inValue, s.startLine, s.depth, s.top = true, s.line, 0, c
	s.buf, s.total, s.sink = nil, 0, toShell
	s.oversize, s.tooDeep = false, false
	s.capturing, s.awaitItems = false, false
	s.keys = keyFlags{}
	s.list, s.itemsDepth, s.item = nil, 0, nil
}

// keyFlags are the escapes and "items" keys of the top-level object.
type keyFlags struct {
	escapedKey bool
	itemsKeys  int
}

// flush gives b[s.from:end] to the sink.
func (s *jsonSplitter) flush(b []byte, end int) {
	data := b[s.from:end]
	s.from = end
	if len(data) == 0 {
		return
	}
	s.total += int64(len(data))
	if s.oversize || s.tooDeep {
		return
	}
	switch s.sink {
	case toShell:
		if int64(len(s.buf))+int64(len(data)) > s.lim.MaxDocumentBytes {
			s.oversize = true
			s.drop()
			return
		}
		s.buf = appendCapped(s.buf, data, s.lim.MaxDocumentBytes)
	case toGap:
		// The gaps are needed only to read the value whole, within the document limit.
		if s.total <= s.lim.MaxDocumentBytes {
			s.list.gaps = appendCapped(s.list.gaps, data, s.lim.MaxDocumentBytes)
		} else {
			s.list.gaps = nil
		}
	case toItem:
		s.itemAppend(data)
	case toTail:
		// In pieces, not one growing buffer: most of such tails are dropped at the limit.
		l := s.list
		switch n := len(l.tail); {
		case s.total > s.lim.MaxDocumentBytes:
			l.tail = nil
		case n > 0 && cap(l.tail[n-1])-len(l.tail[n-1]) >= len(data):
			l.tail[n-1] = append(l.tail[n-1], data...)
		default:
			c := make([]byte, 0, max(len(data), minArena))
			l.tail = append(l.tail, append(c, data...))
		}
	}
}

// drop forgets the value's bytes: it is too large or too deep.
func (s *jsonSplitter) drop() {
	s.buf = nil
	if s.list != nil {
		s.list.items, s.list.gaps = nil, nil
	}
	s.keep = false
}

// enterItems starts reading the items of the array that opened just before at.
func (s *jsonSplitter) enterItems(b []byte, at int, base string) {
	s.flush(b, at)
	s.list = &rawList{base: base, depth: s.depth, open: s.line, cut: len(s.buf)}
	s.itemsDepth, s.state, s.sink = s.depth, afterOpen, toGap
}

// leaveItems ends the items array at b[i] (its ']', or a '}' in the wrong place).
func (s *jsonSplitter) leaveItems(b []byte, i int, c byte) {
	if c == '}' || s.state == afterComma {
		s.badGap(fmt.Sprintf("invalid character %s %s", quoteChar(c), s.expected()))
	}
	s.flush(b, i)
	s.list.close = s.line
	s.itemsDepth, s.sink = 0, toShell
}

// expected is what encoding/json says the array expects, in its messages.
func (s *jsonSplitter) expected() string {
	if s.state == afterItem {
		return "after array element"
	}
	return "looking for beginning of value"
}

func (s *jsonSplitter) badGap(msg string) {
	if l := s.list; l.gapErr == "" {
		l.gapErr, l.gapLine, l.gapBefore = msg, s.line, len(l.items)+l.dropped
	}
}

// startItem starts an item at b[i]; kind is '{' for a map or list, '"' for a string, 0
// for another scalar.
func (s *jsonSplitter) startItem(b []byte, i int, kind byte) {
	if s.state == afterItem {
		s.badGap(fmt.Sprintf("invalid character %s %s", quoteChar(b[i]), s.expected()))
	}
	s.flush(b, i)
	l := s.list
	it := &jsonItem{line: s.line, gapOff: len(l.gaps)}
	s.item, s.itemKind = it, kind
	// At most MaxObjects+1 items are kept apart: the rest of the array (items and gaps) is
	// kept as it is, the tail, while the whole value is within the document limit, so that
	// it can still be read whole; past the limit it is not kept at all.
	s.keep = !s.oversize && !s.tooDeep && len(l.items) <= s.lim.MaxObjects && l.dropped == 0
	if !s.keep {
		if !s.oversize && !s.tooDeep {
			if l.dropped == 0 {
				l.droppedAt = s.line
			}
			l.dropped++
		}
		s.sink = toTail
		return
	}
	l.items = append(l.items, it)
	s.sink, s.itemStart = toItem, len(s.arena)
}

// endItem ends the current item before b[end].
func (s *jsonSplitter) endItem(b []byte, end int) {
	s.flush(b, end)
	it := s.item
	s.item, s.sink, s.state = nil, toGap, afterItem
	if !s.keep {
		s.sink = toTail
		return
	}
	if !it.oversize {
		it.data = s.arena[s.itemStart:len(s.arena):len(s.arena)]
		if s.decode != nil {
			s.decode(s.list, it)
		}
	}
}

// Item bytes are carved from arenas, so that a dump of thousands of items costs few
// allocations; an arena grows with the items, up to maxArena unless an item is larger.
const (
	minArena = 64 << 10
	maxArena = 4 << 20
)

func (s *jsonSplitter) itemAppend(data []byte) {
	it := s.item
	if it.oversize {
		return
	}
	n := len(s.arena) - s.itemStart + len(data)
	if int64(n) > s.lim.MaxDocumentBytes {
		it.oversize = true
		s.arena = s.arena[:s.itemStart]
		return
	}
	if len(s.arena)+len(data) > cap(s.arena) {
		size := 2 * cap(s.arena)
		if size < minArena {
			size = minArena
		}
		if size > maxArena {
			size = maxArena
		}
		if size < 2*n {
			size = 2 * n
		}
		if int64(size) > s.lim.MaxDocumentBytes && int64(n) <= s.lim.MaxDocumentBytes {
			size = int(s.lim.MaxDocumentBytes)
		}
		na := make([]byte, 0, size)
		na = append(na, s.arena[s.itemStart:]...)
		s.arena, s.itemStart = na, 0
	}
	s.arena = append(s.arena, data...)
}

// finish emits the value read; eof says the input ended inside it.
func (s *jsonSplitter) finish(eof bool) {
	switch {
	case s.tooDeep:
		s.emit(rawDoc{firstLine: s.startLine, errLine: s.deepLine, err: depthLimitError(s.lim.MaxDepth)})
	case s.oversize:
		s.emit(rawDoc{firstLine: s.startLine, err: &LimitError{What: "the document is larger than", Max: s.lim.MaxDocumentBytes, Unit: "bytes", Option: "max-document-bytes"}})
	case s.list != nil:
		l := s.list
		if eof {
			l.truncated = true
			if s.item != nil {
				s.endItemAtEOF()
			}
		}
		l.shell, l.total, l.end = s.buf, s.total, s.line
		l.itemsKeys, l.escapedKey = s.keys.itemsKeys, s.keys.escapedKey
		s.emit(rawDoc{firstLine: s.startLine, list: l})
	default:
		s.emit(rawDoc{data: s.buf, firstLine: s.startLine})
	}
	s.inValue, s.inString, s.escaped = false, false, false
	s.buf, s.list, s.item, s.itemsDepth = nil, nil, nil, 0
}

// endItemAtEOF keeps the bytes of an item the input ended in, for reading the value whole
// (which says what is missing); it is not decoded.
func (s *jsonSplitter) endItemAtEOF() {
	it := s.item
	s.item = nil
	if s.keep && !it.oversize {
		it.data = s.arena[s.itemStart:len(s.arena):len(s.arena)]
	}
}

// quoteChar formats c as encoding/json's messages do.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	q := strconv.Quote(string(c))
	return "'" + q[1:len(q)-1] + "'"
}
