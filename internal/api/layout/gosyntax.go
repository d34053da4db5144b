package layout

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Kubernetes 1.33 and older (k8s.io/apimachinery before v0.34) print a validation error's
// value that is not a number, a bool or a string (a pointer followed first; nil is "null")
// by its String method when it has one, else as fmt's %#v writes it: Go syntax
// (`spec.template: Invalid value: core.PodTemplateSpec{ObjectMeta:v1.ObjectMeta{…}, …}`,
// `[]string{"a", "b"}`). From 1.34 the value is JSON (layout's printed). goSyntaxBefore is
// the first minor printing JSON.
const goSyntaxBefore = 34

// printsGoSyntax reports whether the server of minor prints values in Go syntax.
func printsGoSyntax(minor int) bool { return minor < goSyntaxBefore }

// errNotJSON makes the field error of the latest k8s.io/apimachinery fall back to the
// value's String method, which writes the Go syntax.
var errNotJSON = errors.New("printed in Go syntax")

// goSyntax is a value as an older server's field error prints it.
type goSyntax struct {
	v      any
	fields map[string][]string
}

// MarshalJSON fails: the field error then prints String.
func (g goSyntax) MarshalJSON() ([]byte, error) { return nil, errNotJSON }

// String writes the value as the release's field error does.
func (g goSyntax) String() string {
	v := reflect.ValueOf(g.v)
	// No value, or a nil pointer, is the string "null", quoted as strings are.
	if !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return strconv.Quote("null")
	}
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	switch x := v.Interface().(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprint(x)
	case string:
		return strconv.Quote(x)
	case fmt.Stringer:
		return x.String()
	}
	var b bytes.Buffer
	g.write(&b, v, reflect.Value{}, true)
	// fmt writes the addresses of this process for the pointers of the values of other
	// packages (an owner reference's controller): the stand-in, as for the others.
	return StandInAddresses(b.String())
}

// addressRE is AddressRE with the pointer's type in group 1.
var addressRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\(\*[^()]+\))\(0x[0-9a-f]+\)`) })

// PointerStandIn is written where %#v writes the address a pointer holds: the address is
// the server's process's, unknowable; comparisons with a recorded answer take any address
// for it (AddressRE).
const PointerStandIn = "0xc000000000"

// AddressRE matches what %#v writes for a non-nil pointer nested in a printed value, the
// address in group 1.
const AddressRE = `\(\*[^()]+\)\((0x[0-9a-f]+)\)`

// StandInAddresses is a message a server printed with PointerStandIn for each address
// AddressRE finds in it: a recorded answer as ssa-diff can give it.
func StandInAddresses(msg string) string {
	return addressRE().ReplaceAllString(msg, "$1("+PointerStandIn+")")
}

// write writes v as %#v does; top is the value itself (fmt writes a pointer to a struct
// there as &T{…}, below as an address).
func (g goSyntax) write(b *bytes.Buffer, v reflect.Value, parent reflect.Value, top bool) {
	if !v.IsValid() {
		b.WriteString("<nil>")
		return
	}
	t := v.Type()
	if t.Implements(goStringerType) {
		if (t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface) || !v.IsNil() {
			b.WriteString(v.Interface().(fmt.GoStringer).GoString())
			return
		}
	}
	switch t.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString(t.String() + "(nil)")
			return
		}
		g.write(b, v.Elem(), parent, false)
	case reflect.Pointer:
		switch {
		case v.IsNil():
			b.WriteString("(" + t.String() + ")(nil)")
		case top && t.Elem().Kind() == reflect.Struct:
			b.WriteByte('&')
			g.write(b, v.Elem(), parent, false)
		default:
			b.WriteString("(" + t.String() + ")(" + PointerStandIn + ")")
		}
	case reflect.Struct:
		if !strings.HasPrefix(t.PkgPath(), apiPackage) {
			fmt.Fprintf(b, "%#v", v.Interface())
			return
		}
		b.WriteString(typeName(t) + "{")
		first := true
		g.members(b, v, parent, &first)
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && v.CanInterface() {
			// Bytes: fmt's own form ([]byte{0x6e, 0x6f}).
			fmt.Fprintf(b, "%#v", v.Interface())
			return
		}
		if t.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString(typeName(t) + "(nil)")
			return
		}
		b.WriteString(typeName(t) + "{")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			g.write(b, v.Index(i), reflect.Value{}, false)
		}
		b.WriteByte('}')
	case reflect.Map:
		if v.IsNil() {
			b.WriteString(typeName(t) + "(nil)")
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i].Interface()) < fmt.Sprint(keys[j].Interface()) })
		b.WriteString(typeName(t) + "{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			g.write(b, k, reflect.Value{}, false)
			b.WriteByte(':')
			g.write(b, v.MapIndex(k), reflect.Value{}, false)
		}
		b.WriteByte('}')
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	default:
		fmt.Fprintf(b, "%#v", v.Interface())
	}
}

// members writes the fields of struct v in the release's order, as %#v does: Name:value,
// an embedded struct under its type's name.
func (g goSyntax) members(b *bytes.Buffer, v, parent reflect.Value, first *bool) {
	t := v.Type()
	names, ok := g.fields[t.PkgPath()[len(apiPackage):]+"."+t.Name()]
	if !ok {
		names = make([]string, t.NumField())
		for i := range names {
			names[i] = t.Field(i).Name
		}
	}
	for _, name := range names {
		if !*first {
			b.WriteString(", ")
		}
		*first = false
		b.WriteString(name + ":")
		sf, ok := t.FieldByName(name)
		switch {
		case ok && len(sf.Index) == 1:
			g.write(b, v.FieldByIndex(sf.Index), v, false)
		case parent.IsValid():
			// The release keeps the field here; the latest, in the struct holding this one.
			if psf, pok := parent.Type().FieldByName(name); pok && len(psf.Index) == 1 {
				g.write(b, parent.FieldByIndex(psf.Index), v, false)
			} else {
				b.WriteString("<nil>")
			}
		default:
			// A field the latest release has not: never set; its type is not known here.
			b.WriteString("<nil>")
		}
	}
}

// typeName is the name %#v gives t: the package's name, not its path.
func typeName(t reflect.Type) string { return t.String() }

var goStringerType = reflect.TypeFor[fmt.GoStringer]()
