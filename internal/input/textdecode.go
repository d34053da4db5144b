package input

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/ssa-diff/ssa-diff/internal/jsontext"
)

// decodeText makes the tree of an object kept as text: what decodeJSON and normalize make
// of it (the same maps, slices, strings, int64, float64, json.Number, bools and nils; of
// duplicate keys the last), without encoding/json's reflection — every prediction decodes
// its live object and manifest from their text, which was a twentieth of a run.
//
// The text was checked when it was read, so decodeText handles only what it meets in
// practice and reports false for the rest, which is then left to encoding/json: anything
// but one object, nesting past maxDepth, bytes that are not UTF-8 and \u escapes of
// surrogates in strings (encoding/json mends both), anything malformed.
func decodeText(text []byte, maxDepth int) (map[string]any, bool) {
	return decodeTextAs(text, maxDepth, false)
}

// decodeTextAs is decodeText; with fieldsV1Text, the fieldsV1 of the managedFields entries
// are left as their JSON text (json.RawMessage), as compactManagedFields would write their
// trees: a fieldsV1 whose text is that already (jsontext.Scanner.CanonicalSet; a dump
// written by kubectl or the API server holds nothing else) is copied, not decoded into maps
// to be encoded again. Any other fieldsV1 is decoded, for compactManagedFields.
func decodeTextAs(text []byte, maxDepth int, fieldsV1Text bool) (map[string]any, bool) {
	var strings jsontext.StringCache
	d := textDecoder{Scanner: jsontext.NewScanner(text), maxDepth: maxDepth}
	d.Strings = &strings
	d.Space()
	if d.Peek() != '{' {
		return nil, false
	}
	var v any
	var ok bool
	if fieldsV1Text {
		v, ok = d.objectAs(1, topLevel)
	} else {
		v, ok = d.value(1)
	}
	if !ok {
		return nil, false
	}
	d.Space()
	if !d.AtEnd() {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

type textDecoder struct {
	jsontext.Scanner
	maxDepth int
}

// role is where an object stands on the way from the top to a managedFields entry's
// fieldsV1 (decodeTextAs).
type role uint8

const (
	otherValue    role = iota
	topLevel           // the object
	metadataValue      // its metadata
	managedList        // metadata.managedFields
	managedEntry       // an item of it
	fieldsV1Value      // an entry's fieldsV1
)

// child is the role of the member key of an object in role r.
func (r role) child(key string) role {
	switch {
	case r == topLevel && key == "metadata":
		return metadataValue
	case r == metadataValue && key == "managedFields":
		return managedList
	case r == managedEntry && key == "fieldsV1":
		return fieldsV1Value
	}
	return otherValue
}

// valueAs is value for a value in role r.
func (d *textDecoder) valueAs(depth int, r role) (any, bool) {
	switch d.Peek() {
	case '{':
		if r == fieldsV1Value {
			if text, ok := d.CanonicalSet(depth, d.maxDepth); ok {
				return json.RawMessage(bytes.Clone(text)), true
			}
			return d.object(depth)
		}
		if r != otherValue {
			return d.objectAs(depth, r)
		}
	case '[':
		if r == managedList {
			return d.entries(depth)
		}
	}
	return d.value(depth)
}

// objectAs is object for an object in role r.
func (d *textDecoder) objectAs(depth int, r role) (any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	m := map[string]any{}
	return m, d.Members(m, func(key string) (any, bool) { return d.valueAs(depth+1, r.child(key)) })
}

// entries is array for the managedFields list: its items are entries.
func (d *textDecoder) entries(depth int) (any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	list := []any{}
	if d.Enter(']') {
		return list, true
	}
	for {
		d.Space()
		v, ok := d.valueAs(depth+1, managedEntry)
		if !ok {
			return nil, false
		}
		list = append(list, v)
		if more, ok := d.Next(']'); !more {
			return list, ok
		}
	}
}

// value reads the value at the read position; depth is its nesting (normalize's: the top
// object is 1).
func (d *textDecoder) value(depth int) (any, bool) {
	switch c := d.Peek(); {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.String()
	case c == 't':
		return true, d.Literal("true")
	case c == 'f':
		return false, d.Literal("false")
	case c == 'n':
		return nil, d.Literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

func (d *textDecoder) object(depth int) (any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	m := map[string]any{}
	return m, d.Members(m, func(string) (any, bool) { return d.value(depth + 1) })
}

func (d *textDecoder) array(depth int) (any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	list := []any{}
	if d.Enter(']') {
		return list, true
	}
	for {
		d.Space()
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		list = append(list, v)
		if more, ok := d.Next(']'); !more {
			return list, ok
		}
	}
}

// number reads a number as normalize leaves it: int64 when ParseInt reads it, else float64
// when ParseFloat does, else its text.
func (d *textDecoder) number() (any, bool) {
	b, ok := d.Number()
	if !ok {
		return nil, false
	}
	// The number's text is made a string to keep only when it is kept as text.
	if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return i, true
	}
	if f, err := strconv.ParseFloat(string(b), 64); err == nil {
		return f, true
	}
	return json.Number(string(b)), true
}
