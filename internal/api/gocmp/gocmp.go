package gocmp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/google/go-cmp/cmp"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	core132 "github.com/ssa-diff/ssa-diff/internal/api/gocmp/core132"
	core133 "github.com/ssa-diff/ssa-diff/internal/api/gocmp/core133"
)

// EphemeralContainerType names the type of an ephemeral container in a [Print] request: its
// internal type as go-cmp names it.
const EphemeralContainerType = "core.EphemeralContainer"

// EphemeralContainers is cmp.Diff(old, new) of two ephemeral containers as the server of
// Kubernetes 1.<minor> writes it — 1.32's and 1.33's, each with its release's types —,
// with spaces marking the lines (Deterministic). A later minor prints another diff: an
// error.
func EphemeralContainers(minor int, old, new api.EphemeralContainer) (string, error) {
	switch minor {
	case 32:
		return diffAs[core132.EphemeralContainer](old, new), nil
	case 33:
		return diffAs[core133.EphemeralContainer](old, new), nil
	}
	return "", fmt.Errorf("the server of Kubernetes 1.%d does not print go-cmp's diff of an ephemeral container", minor)
}

// diffAs is cmp.Diff of old and new copied into T, an older release's type.
func diffAs[T any](old, new api.EphemeralContainer) string {
	var o, n T
	copyValue(reflect.ValueOf(old), reflect.ValueOf(&o).Elem())
	copyValue(reflect.ValueOf(new), reflect.ValueOf(&n).Elem())
	return Deterministic(cmp.Diff(o, n))
}

// Print is the diff a request names: the server's minor, the values' type (only
// EphemeralContainerType) and the two values as encoding/json writes package internal/api's
// types (Go field names, nil as null, empty as empty: the difference go-cmp prints). A
// value that is not that type's — a field it has not, a wrong JSON type, trailing data — is
// refused, naming the value.
func Print(minor int, typ string, old, new []byte) (string, error) {
	if typ != EphemeralContainerType {
		return "", fmt.Errorf("no go-cmp diff of %q: only of %s", typ, EphemeralContainerType)
	}
	var o, n api.EphemeralContainer
	if err := decodeStrict(old, &o); err != nil {
		return "", fmt.Errorf("the old %s: %w", typ, err)
	}
	if err := decodeStrict(new, &n); err != nil {
		return "", fmt.Errorf("the new %s: %w", typ, err)
	}
	return EphemeralContainers(minor, o, n)
}

// decodeStrict reads one JSON value into out, refusing unknown fields and what follows it.
func decodeStrict(b []byte, out any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(out); err != nil {
		return err
	}
	if err := d.Decode(&json.RawMessage{}); !errors.Is(err, io.EOF) {
		return fmt.Errorf("data after the value")
	}
	return nil
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
