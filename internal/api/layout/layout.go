// Package layout prints internal API values as an older release's server prints them.
//
// A validation error's value is printed as encoding/json writes the server's internal Go
// type (`spec.template: Invalid value: {"labels":…,"Spec":{"Volumes":null,…}}`), so the
// text follows the fields that type has in the server's release, in their order. Package
// internal/api mirrors the latest release's types; Value writes one of their values with
// the fields a given older release's type has: fields it has not left out, fields it
// places elsewhere moved back (1.36 keeps a pod's hostNetwork in its security context), in
// its order. The layouts are generated from each release's k8s.io/kubernetes pkg/apis (./gen).
package layout

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// apiPackage prefixes the import paths of the internal API packages.
const apiPackage = "github.com/ssa-diff/ssa-diff/internal/api/"

// Knows reports whether the layouts of Kubernetes 1.<minor> are generated: the mirrored
// release's (package internal/api's own) or one of the releases the table holds.
func Knows(minor int) bool {
	if minor == mirroredMinor {
		return true
	}
	_, ok := layouts()[minor]
	return ok
}

// Value is v, a value of internal API types of the mirrored release (or one holding them:
// a pointer, a list, a map), as the server of the given minor prints it; v itself when
// that minor lays the types out alike or v holds none of them. Before 1.34 every value but
// a number, a bool or a string is printed in Go syntax (gosyntax.go).
func Value(minor int, v any) any {
	if minor == mirroredMinor {
		return v
	}
	if _, ok := v.(field.OmitValueType); ok {
		return v // never printed
	}
	fields := layouts()[minor]
	if printsGoSyntax(minor) {
		switch v.(type) {
		case int64, int32, float64, float32, bool, string:
			return v // printed alike
		}
		return goSyntax{v: v, fields: fields}
	}
	if fields == nil || !holdsAPIType(reflect.TypeOf(v)) {
		return v
	}
	return printed{v: v, fields: fields}
}

// holdsAPIType reports whether values of t are, or hold, structs of internal API types.
func holdsAPIType(t reflect.Type) bool {
	for t != nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			return strings.HasPrefix(t.PkgPath(), apiPackage)
		default:
			return false
		}
	}
	return false
}

// printed is a value encoded with a release's layouts.
type printed struct {
	v      any
	fields map[string][]string
}

// MarshalJSON writes the value as encoding/json writes the release's types.
func (p printed) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := p.write(&b, reflect.ValueOf(p.v), reflect.Value{}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// write encodes v; parent is the struct holding it as a field (invalid elsewhere), where a
// field the release's type has and the latest's has not is found.
func (p printed) write(b *bytes.Buffer, v reflect.Value, parent reflect.Value) error {
	if !v.IsValid() {
		b.WriteString("null")
		return nil
	}
	t := v.Type()
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		v.CanAddr() && (reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)) {
		return p.plain(b, v)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return p.write(b, v.Elem(), parent)
	case reflect.Struct:
		if !strings.HasPrefix(t.PkgPath(), apiPackage) {
			return p.plain(b, v)
		}
		b.WriteByte('{')
		first := true
		if err := p.members(b, v, parent, &first); err != nil {
			return err
		}
		b.WriteByte('}')
		return nil
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return p.plain(b, v)
		}
		fallthrough
	case reflect.Array:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := p.write(b, v.Index(i), reflect.Value{}); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		if t.Key().Kind() != reflect.String {
			return p.plain(b, v)
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, err := json.Marshal(k.String())
			if err != nil {
				return err
			}
			b.Write(kb)
			b.WriteByte(':')
			if err := p.write(b, v.MapIndex(k), reflect.Value{}); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	}
	return p.plain(b, v)
}

// plain encodes v as encoding/json does: a value holding no internal API struct.
func (p printed) plain(b *bytes.Buffer, v reflect.Value) error {
	var x any
	if v.CanAddr() {
		x = v.Addr().Interface()
	} else {
		x = v.Interface()
	}
	jb, err := json.Marshal(x)
	if err != nil {
		return err
	}
	b.Write(jb)
	return nil
}

// members writes the members of struct v in the release's order (the type's own when the
// release lays it out as the latest does), an embedded struct's promoted into v's.
func (p printed) members(b *bytes.Buffer, v, parent reflect.Value, first *bool) error {
	t := v.Type()
	names, ok := p.fields[t.PkgPath()[len(apiPackage):]+"."+t.Name()]
	if !ok {
		names = make([]string, t.NumField())
		for i := range names {
			names[i] = t.Field(i).Name
		}
	}
	for _, name := range names {
		sf, ok := t.FieldByName(name)
		var fv reflect.Value
		switch {
		case ok && len(sf.Index) == 1:
			fv = v.FieldByIndex(sf.Index)
		case parent.IsValid():
			// The release keeps the field here; the latest, in the struct holding this one.
			psf, pok := parent.Type().FieldByName(name)
			if !pok || len(psf.Index) != 1 {
				sf = reflect.StructField{Name: name}
				break
			}
			sf, fv = reflect.StructField{Name: name, Tag: psf.Tag, Type: psf.Type}, parent.FieldByIndex(psf.Index)
		default:
			// A field the latest release has not: its values are never set (the
			// release's alpha features, or a field renamed since): null.
			sf = reflect.StructField{Name: name}
		}
		if sf.PkgPath != "" && !sf.Anonymous {
			continue // unexported
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		jname, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous && jname == "" && fv.IsValid() {
			ev := fv
			if ev.Kind() == reflect.Pointer {
				if ev.IsNil() {
					continue
				}
				ev = ev.Elem()
			}
			if ev.Kind() == reflect.Struct && !strings.HasPrefix(ev.Type().PkgPath(), apiPackage) {
				if err := p.splice(b, ev, first); err != nil {
					return err
				}
				continue
			}
			if ev.Kind() == reflect.Struct {
				if err := p.members(b, ev, v, first); err != nil {
					return err
				}
				continue
			}
		}
		if jname == "" {
			jname = name
		}
		if strings.Contains(","+opts+",", ",omitempty,") && isEmpty(fv) {
			continue
		}
		if !*first {
			b.WriteByte(',')
		}
		*first = false
		kb, err := json.Marshal(jname)
		if err != nil {
			return err
		}
		b.Write(kb)
		b.WriteByte(':')
		if err := p.write(b, fv, v); err != nil {
			return err
		}
	}
	return nil
}

// splice writes the members of an embedded struct of another package (metav1.ObjectMeta)
// as encoding/json promotes them: its own encoding's members, in order.
func (p printed) splice(b *bytes.Buffer, v reflect.Value, first *bool) error {
	var raw bytes.Buffer
	if err := p.plain(&raw, v); err != nil {
		return err
	}
	inner := bytes.TrimSpace(raw.Bytes())
	if len(inner) < 2 || inner[0] != '{' {
		return nil
	}
	inner = bytes.TrimSpace(inner[1 : len(inner)-1])
	if len(inner) == 0 {
		return nil
	}
	if !*first {
		b.WriteByte(',')
	}
	*first = false
	b.Write(inner)
	return nil
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	if !v.IsValid() {
		return true
	}
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
