package input

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file reads a stream of documents without holding more than one document in memory:
// the YAML splitter and the JSON scanner (jsonsplit.go) hand each document to the parser as
// soon as it ends, and stop keeping bytes of a document once it is larger than the limit.

// budgetReader counts the bytes a Loader reads and fails once they exceed its limit.
type budgetReader struct {
	r io.Reader
	l *Loader
}

func (b *budgetReader) Read(p []byte) (int, error) {
	max := b.l.limits.MaxInputBytes
	remaining := max - b.l.read
	if remaining < 0 {
		remaining = 0
	}
	if int64(len(p)) > remaining+1 {
		p = p[:remaining+1] // one byte more tells whether the input goes on
	}
	n, err := b.r.Read(p)
	b.l.read += int64(n)
	if b.l.read > max {
		over := int(b.l.read - max)
		b.l.read = max
		return n - over, b.l.inputLimitError()
	}
	return n, err
}

// utf16Reader decodes UTF-16 (after its byte-order mark) to UTF-8, as the YAML decoder
// kubectl uses does; Windows PowerShell writes redirected output as UTF-16.
type utf16Reader struct {
	r       *bufio.Reader
	big     bool
	pending []byte
	err     error
}

func (u *utf16Reader) unit() (uint16, error) {
	a, err := u.r.ReadByte()
	if err != nil {
		return 0, err
	}
	b, err := u.r.ReadByte()
	if err != nil {
		if err == io.EOF {
			return utf8.RuneError, nil // an odd trailing byte
		}
		return 0, err
	}
	if u.big {
		return uint16(a)<<8 | uint16(b), nil
	}
	return uint16(b)<<8 | uint16(a), nil
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(u.pending) > 0 {
			c := copy(p[n:], u.pending)
			u.pending = u.pending[c:]
			n += c
			continue
		}
		if u.err != nil {
			break
		}
		c, err := u.unit()
		if err != nil {
			u.err = err
			break
		}
		r := rune(c)
		if utf16.IsSurrogate(r) {
			c2, err := u.unit()
			if err != nil {
				u.err = err
				r = utf8.RuneError
			} else if r2 := utf16.DecodeRune(r, rune(c2)); r2 != utf8.RuneError {
				r = r2
			} else {
				r = utf8.RuneError
			}
		}
		u.pending = utf8.AppendRune(u.pending[:0], r)
	}
	if n > 0 {
		return n, nil
	}
	return 0, u.err
}

// rawDoc is one document of a stream: its bytes, or why it was not kept.
type rawDoc struct {
	data      []byte
	firstLine int // line of data[0]
	err       error
	errLine   int      // the line err is about, when not firstLine
	list      *rawList // a JSON value read item by item (see jsonsplit.go); data is nil
}

const sniffBytes = 4096

// isJSONStream tells, as kubectl does, whether a stream is JSON: its first non-blank
// character (within the first 4 KiB) opens an object or an array.
func isJSONStream(r *bufio.Reader) bool {
	head, _ := r.Peek(sniffBytes)
	first := firstNonSpace(head)
	return first == '{' || first == '['
}

func firstNonSpace(data []byte) byte {
	for _, c := range data {
		if !isSpace(c) {
			return c
		}
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// splitYAML reads a YAML stream and calls emit with each document, split at lines that
// start with "---" as kubectl's YAML reader splits them: only blanks or a comment may follow
// the separator. Documents holding nothing but blanks and comments are skipped. A document
// larger than maxDoc is reported and skipped, its bytes not kept. The error is the reader's
// (io.EOF excluded).
func splitYAML(r *bufio.Reader, maxDoc int64, emitDoc func(rawDoc) bool) error {
	stopped := false // the parser wants no more documents
	emit := func(d rawDoc) {
		if !stopped && !emitDoc(d) {
			stopped = true
		}
	}
	var buf []byte
	start, line := 1, 1 // the line buf starts at; the line being read
	var pending error   // a bad separator: the document it opens is reported, not read
	oversize := false
	flush := func() {
		switch {
		case pending != nil:
			emit(rawDoc{data: bytes.Clone(buf), firstLine: start - 1, err: pending})
		case oversize:
			emit(rawDoc{firstLine: start, err: &LimitError{What: "the document is larger than", Max: maxDoc, Unit: "bytes", Option: "max-document-bytes"}})
		case !blankYAML(buf):
			// A copy of its size: a document's text is kept for its field lines, and the
			// buffer has room to grow (a repository's documents are small, the buffer a
			// few kilobytes), which would be kept with it.
			emit(rawDoc{data: bytes.Clone(buf), firstLine: start})
		}
		buf, pending, oversize = buf[:0], nil, false
		if cap(buf) > reuseYAMLBuffer {
			buf = nil
		}
	}
	keep := func(chunk []byte) {
		if oversize {
			return
		}
		if int64(len(buf))+int64(len(chunk)) > maxDoc {
			oversize, buf = true, nil
			return
		}
		buf = appendCapped(buf, chunk, maxDoc)
	}
	for {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			if bytes.HasPrefix(chunk, []byte("---")) {
				flush()
				if stopped {
					return nil
				}
				sep := append([]byte(nil), chunk...)
				for err == bufio.ErrBufferFull { // a separator line longer than the buffer
					chunk, err = r.ReadSlice('\n')
					if len(sep) < 256 {
						sep = append(sep, chunk...)
					}
				}
				if rest := strings.TrimSpace(string(sep[3:])); rest != "" && rest[0] != '#' {
					pending = fmt.Errorf("invalid YAML document separator: %q", truncate(strings.TrimSpace(string(sep)), 80))
				}
				line++
				start = line
			} else {
				keep(chunk)
				for err == bufio.ErrBufferFull {
					chunk, err = r.ReadSlice('\n')
					keep(chunk)
				}
				if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
					line++
				}
			}
		}
		if err != nil {
			if err == io.EOF {
				flush()
				return nil
			}
			if oversize {
				flush()
			}
			if !blankYAML(buf) || pending != nil {
				// The document was cut short: report why rather than parse a fragment.
				emit(rawDoc{firstLine: start, err: err})
			} else {
				emit(rawDoc{firstLine: line, err: err})
			}
			return err
		}
	}
}

// reuseYAMLBuffer is the largest buffer splitYAML keeps for the next document.
const reuseYAMLBuffer = 1 << 20

// blankYAML reports whether a chunk has only blank lines and comments.
func blankYAML(chunk []byte) bool {
	_, content := blankLines(chunk)
	return !content
}

// appendCapped appends data to buf, growing it by doubling but never past max bytes of
// capacity, so that a document at the limit costs the limit and not a quarter more.
func appendCapped(buf, data []byte, max int64) []byte {
	need := len(buf) + len(data)
	if need > cap(buf) {
		c := 2 * cap(buf)
		if c < 4096 {
			c = 4096
		}
		for c < need {
			c *= 2
		}
		if int64(c) > max {
			c = int(max)
		}
		if c < need {
			c = need
		}
		nb := make([]byte, len(buf), c)
		copy(nb, buf)
		buf = nb
	}
	return append(buf, data...)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// checkText finds what the YAML reader refuses: bytes that are not UTF-8 and characters
// YAML does not allow (NUL and other control characters). It returns the line (1-based,
// relative to data) and a message, or 0.
func checkText(data []byte) (int, string) {
	line := 1
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				line++
			case c == '\t' || c == '\r' || (c >= 0x20 && c <= 0x7e):
			case c == 0:
				return line, "a NUL byte: this is binary data, not text (or UTF-16 without a byte-order mark)"
			default:
				return line, fmt.Sprintf("the control character %U is not allowed in YAML", rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return line, fmt.Sprintf("the byte 0x%02x is not UTF-8: the file must be UTF-8 text (convert it, e.g. iconv -f LATIN1 -t UTF-8)", c)
		}
		switch {
		case r == 0x85, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		default:
			return line, fmt.Sprintf("the control character %U is not allowed in YAML", r)
		}
		i += size
	}
	return 0, ""
}

func depthLimitError(max int) error {
	return &LimitError{What: "maps and lists nest deeper than", Max: int64(max), Unit: "levels", Option: "max-depth"}
}
