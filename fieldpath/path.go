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
	var b strings.Builder
	b.Grow(n)
	for _, pe := range p {
		writePathElement(&b, pe)
	}
	return b.String()
}

// writePathElement writes pe as structured-merge-diff's PathElement.String prints it,
// into one builder for the whole path rather than a string per element: field names,
// positions and keys or set values that are strings or integers directly, anything else
// (a float, a boolean, null, a list or map value) by PathElement.String itself.
func writePathElement(b *strings.Builder, pe smdpath.PathElement) {
	var scratch [64]byte
	switch {
	case pe.FieldName != nil:
		b.WriteByte('.')
		b.WriteString(*pe.FieldName)
	case pe.Key != nil:
		// Written only when every value is a string or an integer.
		for _, k := range *pe.Key {
			if !plainKeyValue(k.Value) {
				b.WriteString(pe.String())
				return
			}
		}
		b.WriteByte('[')
		for i, k := range *pe.Key {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(k.Name)
			b.WriteByte('=')
			b.Write(appendKeyValue(scratch[:0], k.Value))
		}
		b.WriteByte(']')
	case pe.Value != nil && plainKeyValue(*pe.Value):
		b.WriteString("[=")
		b.Write(appendKeyValue(scratch[:0], *pe.Value))
		b.WriteByte(']')
	case pe.Index != nil && pe.Value == nil:
		b.WriteByte('[')
		b.Write(strconv.AppendInt(scratch[:0], int64(*pe.Index), 10))
		b.WriteByte(']')
	default:
		b.WriteString(pe.String())
	}
}

// plainKeyValue reports whether v is a string or an integer, which appendKeyValue writes
// as value.ToString prints it.
func plainKeyValue(v value.Value) bool {
	return !v.IsNull() && !v.IsFloat() && (v.IsInt() || v.IsString())
}

// appendKeyValue appends v, a string or an integer (plainKeyValue), as value.ToString
// prints it: a string quoted as %q quotes it, an integer in decimal.
func appendKeyValue(b []byte, v value.Value) []byte {
	if v.IsInt() {
		return strconv.AppendInt(b, v.AsInt(), 10)
	}
	return strconv.AppendQuote(b, v.AsString())
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
		return equalsItem(*pe.Value, item)
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
		if !equalsItem(f.Value, v) {
			return false
		}
	}
	return true
}

// equalsItem is value.Equals(want, value.NewValueInterface(v)) without boxing v when it is
// a string or an int64 that want is too (the key fields of most lists: names, ports):
// Equals compares those as the same Go values.
func equalsItem(want value.Value, v any) bool {
	switch x := v.(type) {
	case string:
		if want.IsString() && !want.IsFloat() && !want.IsInt() {
			return want.AsString() == x
		}
	case int64:
		if want.IsInt() && !want.IsFloat() {
			return want.AsInt() == x
		}
	}
	return value.Equals(want, value.NewValueInterface(v))
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
