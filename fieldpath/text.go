package fieldpath

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Text is how a release of structured-merge-diff writes fieldsV1: the JSON text of the key
// (k:) and value (v:) path elements, and of the object holding them. The field sets are
// the same whichever the text; what a server stores, prints and compares is the text.
type Text uint8

const (
	// TextJSONIter is structured-merge-diff v4 and v6 (Kubernetes 1.32 to 1.37), which
	// write with json-iterator as encoding/json does: inside k: and v: elements &, <, >,
	// U+2028 and U+2029 are escaped (\u0026 …), an invalid UTF-8 byte is \ufffd, a backspace
	// and a form feed \u0008 and \u000c, and a small number's exponent has two digits
	// (1e-07).
	TextJSONIter Text = iota
	// TextJSONv2 is structured-merge-diff v7 (Kubernetes 1.38), which writes with
	// encoding/json v2: those characters as they are, an invalid UTF-8 byte as U+FFFD itself,
	// \b and \f, and an exponent without a leading zero (1e-7). Field names (f:) and
	// indexes (i:) are written alike by both.
	TextJSONv2
)

// String names the text by the structured-merge-diff versions that write it.
func (t Text) String() string {
	switch t {
	case TextJSONIter:
		return "structured-merge-diff v4/v6"
	case TextJSONv2:
		return "structured-merge-diff v7"
	}
	return fmt.Sprintf("Text(%d)", uint8(t))
}

// SerializePathElement is the text of pe as t writes it (a key of fieldsV1, unquoted).
func SerializePathElement(pe smdpath.PathElement, t Text) (string, error) {
	if t != TextJSONv2 {
		return smdpath.SerializePathElement(pe)
	}
	b, err := appendElementV2(nil, pe)
	return string(b), err
}

// appendElementV2 appends pe's text as structured-merge-diff v7 writes it.
func appendElementV2(dst []byte, pe smdpath.PathElement) ([]byte, error) {
	switch {
	case pe.FieldName != nil:
		return append(append(dst, 'f', ':'), *pe.FieldName...), nil
	case pe.Key != nil:
		dst = append(dst, 'k', ':', '{')
		for i, f := range *pe.Key {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendStringV2(dst, f.Name)
			dst = append(dst, ':')
			var err error
			if dst, err = appendValueV2(dst, f.Value, 0, true); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case pe.Value != nil:
		return appendValueV2(append(dst, 'v', ':'), *pe.Value, 0, false)
	case pe.Index != nil:
		return strconv.AppendInt(append(dst, 'i', ':'), int64(*pe.Index), 10), nil
	}
	return nil, errors.New("invalid PathElement")
}

// maxValueDepth bounds a value's nesting (encoding/json v2 refuses deeper).
const maxValueDepth = 10000

// appendValueV2 appends v's JSON as encoding/json v2 writes it, a map's keys in byte order.
// Two keys of a map written alike (an invalid byte replaced) are refused unless dupOK (a
// key element's values: structured-merge-diff v7 allows them there, not in a value element).
func appendValueV2(dst []byte, v value.Value, depth int, dupOK bool) ([]byte, error) {
	if depth > maxValueDepth {
		return nil, errors.New("exceeded max depth")
	}
	switch {
	case v == nil || v.IsNull():
		return append(dst, "null"...), nil
	case v.IsFloat():
		f := v.AsFloat()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("unsupported value: %v", f)
		}
		return fieldsjson.AppendFloat(dst, f), nil
	case v.IsInt():
		return strconv.AppendInt(dst, v.AsInt(), 10), nil
	case v.IsString():
		return appendStringV2(dst, v.AsString()), nil
	case v.IsBool():
		return strconv.AppendBool(dst, v.AsBool()), nil
	case v.IsList():
		l := v.AsList()
		dst = append(dst, '[')
		for i := 0; i < l.Length(); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValueV2(dst, l.At(i), depth+1, dupOK); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case v.IsMap():
		m := v.AsMap()
		keys := make([]string, 0, m.Length())
		m.Iterate(func(k string, _ value.Value) bool {
			keys = append(keys, k)
			return true
		})
		slices.Sort(keys)
		dst = append(dst, '{')
		var seen map[string]bool // the names written, once one may be another's (U+FFFD)
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			at := len(dst)
			dst = appendStringV2(dst, k)
			if !dupOK && (seen != nil || !utf8.ValidString(k) || strings.Contains(k, "\uFFFD")) {
				if seen == nil {
					seen = make(map[string]bool, len(keys))
					for _, prev := range keys[:i] {
						seen[string(appendStringV2(nil, prev))] = true
					}
				}
				if name := string(dst[at:]); seen[name] {
					return nil, fmt.Errorf("duplicate object member name %s", name)
				} else {
					seen[name] = true
				}
			}
			dst = append(dst, ':')
			item, _ := m.Get(k)
			var err error
			if dst, err = appendValueV2(dst, item, depth+1, dupOK); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	}
	return nil, errors.New("cannot marshal unknown value type to json")
}

var replacementChar = []byte("\uFFFD")

const hexDigits = "0123456789abcdef"

// appendStringV2 writes s quoted as encoding/json v2 writes it by default: only quotes,
// backslashes and control characters escaped (\b \t \n \f \r, else \u00XX), an invalid
// UTF-8 byte replaced by U+FFFD.
func appendStringV2(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

// setToFieldsV1V2 writes s's fieldsV1 in the server's layout as structured-merge-diff v7
// does: members and children in element order, a child that is also a member opening
// with ".":{} unless its set is empty (then it is written {}, as a member alone).
func setToFieldsV1V2(s *smdpath.Set) ([]byte, error) {
	return appendSetV2(make([]byte, 0, 256), s, false, 0)
}

func appendSetV2(dst []byte, s *smdpath.Set, self bool, depth int) ([]byte, error) {
	if depth > maxCanonicalDepth {
		return nil, errors.New("exceeded max depth")
	}
	dst = append(dst, '{')
	first := true
	if self && !s.Empty() {
		dst = append(dst, `".":{}`...)
		first = false
	}
	var members []smdpath.PathElement
	s.Members.Iterate(func(pe smdpath.PathElement) { members = append(members, pe) })
	var children []smdpath.PathElement
	s.Children.Iterate(func(pe smdpath.PathElement) { children = append(children, pe) })
	var err error
	var texts [][]byte
	invalid := false
	key := func(pe smdpath.PathElement) {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		var text []byte
		if text, err = appendElementV2(nil, pe); err == nil {
			dst = append(appendStringV2(dst, string(text)), ':')
			texts = append(texts, text)
			// An invalid byte (of a name, or replaced inside a value) may make two
			// elements one text.
			invalid = invalid || !utf8.Valid(text) || bytes.Contains(text, replacementChar)
		}
	}
	child := func(pe smdpath.PathElement, self bool) {
		key(pe)
		if err != nil {
			return
		}
		c, _ := s.Children.Get(pe)
		if c == nil {
			c = smdpath.NewSet()
		}
		dst, err = appendSetV2(dst, c, self, depth+1)
	}
	mi, ci := 0, 0
	for err == nil && (mi < len(members) || ci < len(children)) {
		switch {
		case ci == len(children) || mi < len(members) && members[mi].Less(children[ci]):
			key(members[mi])
			dst = append(dst, "{}"...)
			mi++
		case mi == len(members) || children[ci].Less(members[mi]):
			child(children[ci], false)
			ci++
		default: // the same element: a member and a child
			child(children[ci], true)
			mi++
			ci++
		}
	}
	if err != nil {
		return nil, err
	}
	if invalid {
		// Distinct elements are written alike only when an invalid byte is replaced:
		// encoding/json v2 refuses the object.
		seen := make(map[string]bool, len(texts))
		for _, t := range texts {
			name := string(appendStringV2(nil, string(t)))
			if seen[name] {
				return nil, fmt.Errorf("duplicate object member name %s", name)
			}
			seen[name] = true
		}
	}
	return append(dst, '}'), nil
}
