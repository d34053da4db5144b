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
	if o.set != nil {
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
