package jsontext

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// Checks are what a Compactor finds out about valid JSON text while compacting it.
type Checks struct {
	// Known reports that the checks below were made: false when the text went to
	// encoding/json (it is not valid JSON, or nests past what the walker goes).
	Known bool
	// UTF8 reports that every string of the text is UTF-8.
	UTF8 bool
	// UniqueKeys reports that no object of the text has a key twice, keys compared as
	// encoding/json decodes them: escapes resolved, bytes that are not UTF-8 read as
	// U+FFFD.
	UniqueKeys bool
}

// A Compactor compacts JSON text as Compact does and, in the same pass, checks what a
// reader of the text warns about: strings that are not UTF-8 and keys set twice in an
// object. Its zero value is ready for use; it keeps its buffers from one text to the next,
// so one Compactor serves one goroutine for many texts.
type Compactor struct {
	keys  [][]byte              // the keys of the open objects, innermost last
	sets  []map[string]struct{} // reused for objects of many keys
	found Checks                // of the text being compacted
	spans []span                // where the values of shallow members are, in start order
}

// span is where a member's value is in the compact text.
type span struct{ start, end int }

// spanDepth is the deepest nesting of an object whose members' values a Compactor
// locates: the top-level value (0) and the values one level below it (1).
const spanDepth = 1

// maxPooledSet is the most keys a set may have held to be reused.
const maxPooledSet = 256

// manyKeys is the number of keys past which an object's keys go into a set rather than
// being compared one by one.
const manyKeys = 16

// Compact appends src to dst as the package's Compact does and fails when it would; when
// it did not hand the text to encoding/json it also reports the Checks of src.
func (c *Compactor) Compact(dst *bytes.Buffer, src []byte) (Checks, error) {
	w := walker{Scanner: NewScanner(src), out: dst.AvailableBuffer(), check: c}
	c.keys, c.found, c.spans = c.keys[:0], Checks{Known: true, UTF8: true, UniqueKeys: true}, c.spans[:0]
	ok := w.whole()
	clear(c.keys[:cap(c.keys)]) // they point into src
	if ok {
		dst.Write(w.out)
		return c.found, nil
	}
	c.spans = c.spans[:0]
	return Checks{}, json.Compact(dst, src)
}

// MemberEnd locates, in the text the last Compact appended (offsets from where it began),
// the value that starts at start of a member of an object at the top of the text or one
// level below it (the top-level object's, and those of the objects that are its members'
// values): it gives the offset just past the value, and false when no such value starts
// there (or the text went to encoding/json). A reader of the compact text skips such a
// value without reading it.
func (c *Compactor) MemberEnd(start int) (int, bool) {
	i, found := slices.BinarySearchFunc(c.spans, start, func(s span, start int) int { return cmp.Compare(s.start, start) })
	if !found {
		return 0, false
	}
	return c.spans[i].end, true
}

// objectKeys tracks the keys of one object as the walker reads them.
type objectKeys struct {
	first int                 // index in Compactor.keys of the object's first key
	set   map[string]struct{} // the keys, once there are many
}

func (c *Compactor) open() objectKeys { return objectKeys{first: len(c.keys)} }

// close forgets the object's keys.
func (c *Compactor) close(o *objectKeys) {
	c.keys = c.keys[:o.first]
	if o.set != nil && len(o.set) <= maxPooledSet {
		// Clearing costs what the map has grown to: a set that grew for one object of
		// many keys is not kept for the next ones.
		clear(o.set)
		c.sets = append(c.sets, o.set)
	}
}

// key records a key of the object, its text as quoted read it, and reports whether the
// object had it already.
func (c *Compactor) key(o *objectKeys, inner []byte, escaped, ascii bool) bool {
	key := inner
	if escaped || !ascii {
		key = decodedKey(inner, escaped)
	}
	if o.set != nil {
		_, seen := o.set[string(key)]
		o.set[string(key)] = struct{}{}
		return seen
	}
	for _, k := range c.keys[o.first:] {
		if bytes.Equal(k, key) {
			return true
		}
	}
	c.keys = append(c.keys, key)
	if len(c.keys)-o.first > manyKeys {
		if n := len(c.sets); n > 0 {
			o.set, c.sets = c.sets[n-1], c.sets[:n-1]
		} else {
			o.set = make(map[string]struct{}, 4*manyKeys)
		}
		for _, k := range c.keys[o.first:] {
			o.set[string(k)] = struct{}{}
		}
		c.keys = c.keys[:o.first]
	}
	return false
}

// decodedKey is the value of a key with escapes or bytes beyond ASCII, as encoding/json
// decodes it.
func decodedKey(inner []byte, escaped bool) []byte {
	if utf8.Valid(inner) {
		if !escaped {
			return inner
		}
		if k := unescape(make([]byte, 0, len(inner)), inner); k != nil {
			return k
		}
	}
	// Surrogate escapes and bytes that are not UTF-8: encoding/json writes U+FFFD for them.
	quotedKey := make([]byte, 0, len(inner)+2)
	quotedKey = append(append(append(quotedKey, '"'), inner...), '"')
	var s string
	if json.Unmarshal(quotedKey, &s) != nil {
		return inner // not reached: quoted read a valid string
	}
	return []byte(s)
}

// checkedKey copies an object's key as string does and records it among the object's
// keys, noting one the object had already.
func (w *walker) checkedKey(keys *objectKeys) bool {
	start := w.pos
	inner, escaped, ascii, ok := w.quoted()
	if !ok {
		return false
	}
	w.out = append(w.out, w.data[start:w.pos]...)
	if !ascii && !utf8.Valid(inner) {
		w.check.found.UTF8 = false
	}
	if w.check.key(keys, inner, escaped, ascii) {
		w.check.found.UniqueKeys = false
	}
	return true
}

// checkedContainer is container for a Compactor (compact layout only): it also records
// each object's keys, noting one set twice, and where the values of the members of the
// shallow objects (depth up to spanDepth) are. Kept apart from container, so that Compact
// and Indent do not pay for the checks.
func (w *walker) checkedContainer(depth int) bool {
	if depth >= maxDepth {
		return false
	}
	open := w.Peek()
	closing := byte(']')
	if open == '{' {
		closing = '}'
	}
	w.out = append(w.out, open)
	if w.Enter(closing) {
		w.out = append(w.out, closing)
		return true
	}
	object := open == '{'
	var keys objectKeys
	if object {
		keys = w.check.open() // closed when the object ends; a failed walk starts over
	}
	spanned := object && depth <= spanDepth
	for {
		w.Space()
		if object {
			if !w.checkedKey(&keys) || !w.colon() {
				return false
			}
			w.out = append(w.out, ':')
		}
		if spanned {
			i := len(w.check.spans)
			w.check.spans = append(w.check.spans, span{start: len(w.out)})
			if !w.value(depth + 1) {
				return false
			}
			w.check.spans[i].end = len(w.out)
		} else if !w.value(depth + 1) {
			return false
		}
		more, ok := w.Next(closing)
		switch {
		case !ok:
			return false
		case more:
			w.out = append(w.out, ',')
		default:
			w.out = append(w.out, closing)
			if object {
				w.check.close(&keys)
			}
			return true
		}
	}
}
