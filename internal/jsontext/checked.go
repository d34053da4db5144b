package jsontext

import (
	"bytes"
	"encoding/json"
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
}

// manyKeys is the number of keys past which an object's keys go into a set rather than
// being compared one by one.
const manyKeys = 16

// Compact appends src to dst as the package's Compact does and fails when it would; when
// it did not hand the text to encoding/json it also reports the Checks of src.
func (c *Compactor) Compact(dst *bytes.Buffer, src []byte) (Checks, error) {
	w := walker{Scanner: NewScanner(src), out: dst.AvailableBuffer(), check: c}
	c.keys, c.found = c.keys[:0], Checks{Known: true, UTF8: true, UniqueKeys: true}
	ok := w.whole()
	clear(c.keys[:cap(c.keys)]) // they point into src
	if ok {
		dst.Write(w.out)
		return c.found, nil
	}
	return Checks{}, json.Compact(dst, src)
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
