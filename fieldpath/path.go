package fieldpath

import (
	"strconv"
	"strings"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// PathString prints a path exactly as the API server prints it in conflicts (rules.md conflict.path-text):
// fields as .name (unquoted), keyed items as [k1=v1,k2="v2"] with keys sorted, set items as
// [="v"], positions as [3].
func PathString(p smdpath.Path) string {
	n := 0
	for _, pe := range p {
		if pe.FieldName == nil {
			n += 8
			continue
		}
		n += 1 + len(*pe.FieldName)
	}
	b := make([]byte, 0, n)
	for _, pe := range p {
		b = appendPathElement(b, pe)
	}
	return string(b)
}

// appendPathElement appends pe as structured-merge-diff's PathElement.String prints it,
// into one buffer for the whole path rather than a string per element: field names,
// positions and keys or set values that are strings or integers directly, anything else
// (a float, a boolean, null, a list or map value) by PathElement.String itself.
func appendPathElement(b []byte, pe smdpath.PathElement) []byte {
	switch {
	case pe.FieldName != nil:
		return append(append(b, '.'), *pe.FieldName...)
	case pe.Key != nil:
		mark := len(b)
		b = append(b, '[')
		for i, k := range *pe.Key {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(append(b, k.Name...), '=')
			var ok bool
			if b, ok = appendKeyValue(b, k.Value); !ok {
				return append(b[:mark], pe.String()...)
			}
		}
		return append(b, ']')
	case pe.Value != nil:
		mark := len(b)
		b, ok := appendKeyValue(append(b, "[="...), *pe.Value)
		if !ok {
			return append(b[:mark], pe.String()...)
		}
		return append(b, ']')
	case pe.Index != nil:
		return append(strconv.AppendInt(append(b, '['), int64(*pe.Index), 10), ']')
	}
	return append(b, pe.String()...)
}

// appendKeyValue appends v as value.ToString prints a string (quoted as %q quotes) or an
// integer; ok is false for any other value, which the caller prints by PathElement.String.
func appendKeyValue(b []byte, v value.Value) ([]byte, bool) {
	switch {
	case v.IsNull() || v.IsFloat():
		return b, false
	case v.IsInt():
		return strconv.AppendInt(b, v.AsInt(), 10), true
	case v.IsString():
		return strconv.AppendQuote(b, v.AsString()), true
	}
	return b, false
}

// JSONPointer turns a path into an RFC 6901 JSON Pointer into obj, resolving keyed and set
// items to their positions in obj. It reports false when an item is not in obj.
func JSONPointer(p smdpath.Path, obj any) (string, bool) {
	var b strings.Builder
	cur := obj
	for _, pe := range p {
		switch {
		case pe.FieldName != nil:
			b.WriteByte('/')
			b.WriteString(escapePointer(*pe.FieldName))
			m, _ := cur.(map[string]any)
			cur = m[*pe.FieldName]
		case pe.Index != nil:
			b.WriteByte('/')
			b.WriteString(strconv.Itoa(*pe.Index))
			l, _ := cur.([]any)
			if *pe.Index < 0 || *pe.Index >= len(l) {
				return b.String(), false
			}
			cur = l[*pe.Index]
		default:
			l, _ := cur.([]any)
			i := indexOfItem(l, pe)
			if i < 0 {
				return b.String(), false
			}
			b.WriteByte('/')
			b.WriteString(strconv.Itoa(i))
			cur = l[i]
		}
	}
	return b.String(), true
}

func indexOfItem(l []any, pe smdpath.PathElement) int {
	for i, item := range l {
		if ItemMatches(item, pe) {
			return i
		}
	}
	return -1
}

// ItemMatches reports whether a list item is the one a key or set element names. A key
// field the item leaves out stands for its schema default and is matched by the other keys.
func ItemMatches(item any, pe smdpath.PathElement) bool {
	if pe.Value != nil {
		return value.Equals(*pe.Value, value.NewValueInterface(item))
	}
	m, ok := item.(map[string]any)
	if !ok || pe.Key == nil {
		return false
	}
	for _, f := range *pe.Key {
		v, present := m[f.Name]
		if !present {
			continue
		}
		if !value.Equals(f.Value, value.NewValueInterface(v)) {
			return false
		}
	}
	return true
}

// ValueAt finds the value at a path in an unstructured object (maps, lists and scalars as
// JSON decodes them). It reports false when the path leads nowhere.
func ValueAt(obj any, p smdpath.Path) (any, bool) {
	cur := obj
	for _, pe := range p {
		switch {
		case pe.FieldName != nil:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[*pe.FieldName]; !ok {
				return nil, false
			}
		case pe.Index != nil:
			l, ok := cur.([]any)
			if !ok || *pe.Index < 0 || *pe.Index >= len(l) {
				return nil, false
			}
			cur = l[*pe.Index]
		default:
			l, ok := cur.([]any)
			if !ok {
				return nil, false
			}
			i := indexOfItem(l, pe)
			if i < 0 {
				return nil, false
			}
			cur = l[i]
		}
	}
	return cur, true
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
