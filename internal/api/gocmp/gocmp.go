package gocmp

import (
	"reflect"
	"strings"

	"github.com/google/go-cmp/cmp"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	core133 "github.com/ssa-diff/ssa-diff/internal/api/gocmp/core133"
)

// EphemeralContainer133 is cmp.Diff(old, new) of two ephemeral containers as 1.33's server
// writes it, with spaces marking the lines (Deterministic).
func EphemeralContainer133(old, new api.EphemeralContainer) string {
	var o, n core133.EphemeralContainer
	copyValue(reflect.ValueOf(old), reflect.ValueOf(&o).Elem())
	copyValue(reflect.ValueOf(new), reflect.ValueOf(&n).Elem())
	return Deterministic(cmp.Diff(o, n))
}

// Deterministic is a text cmp.Diff wrote with the non-breaking spaces that mark its lines
// (the two first columns of each) written as spaces; the rest of each line as it is.
func Deterministic(s string) string {
	if !strings.Contains(s, "\u00a0") {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		for _, mark := range [...]string{"\u00a0\u00a0", "-\u00a0", "+\u00a0"} {
			if rest, ok := strings.CutPrefix(l, mark); ok {
				lines[i] = strings.ReplaceAll(mark, "\u00a0", " ") + rest
				break
			}
		}
	}
	return strings.Join(lines, "")
}

// copyValue sets dst, a value of the older release's types, to src, the same value in the
// latest release's: a struct field by field (by name; fields src lacks stay zero, fields
// dst lacks are left out), pointers, lists and maps element by element — nil kept nil, as
// cmp.Diff tells nil from empty — and the rest (strings, numbers, resource.Quantity) as
// they are, converted to dst's named type.
func copyValue(src, dst reflect.Value) {
	switch dst.Kind() {
	case reflect.Struct:
		if src.Type() == dst.Type() {
			dst.Set(src)
			return
		}
		for i := 0; i < dst.NumField(); i++ {
			f := dst.Type().Field(i)
			sf, ok := src.Type().FieldByName(f.Name)
			if !ok || len(sf.Index) != 1 {
				continue
			}
			copyValue(src.Field(sf.Index[0]), dst.Field(i))
		}
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(dst.Type().Elem())
		copyValue(src.Elem(), p.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyValue(src.Index(i), s.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(dst.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			k, v := reflect.New(dst.Type().Key()).Elem(), reflect.New(dst.Type().Elem()).Elem()
			copyValue(it.Key(), k)
			copyValue(it.Value(), v)
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	default:
		dst.Set(src.Convert(dst.Type()))
	}
}
