package fromunstructured

import (
	"encoding/json"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Object reads the members of a decoded object into the fields of a struct, each method
// one member by its JSON name. A member absent or null leaves the field as it is (the
// struct starts zero); a member of a type the field does not take as the converter does
// marks the object failed, and the methods then do nothing more.
type Object struct {
	m      map[string]any
	failed bool
}

// Open starts reading v, which must be an object (a nil map is an object without members,
// as the converter reads it); false otherwise.
func Open(v any) (Object, bool) {
	m, ok := v.(map[string]any)
	return Object{m: m}, ok
}

// OK reports whether every member read so far converted.
func (o *Object) OK() bool { return !o.failed }

// Fail marks the object failed: a member did not convert.
func (o *Object) Fail() { o.failed = true }

// Value gives the member key when it is present and not null and the object has not
// failed.
func (o *Object) Value(key string) (any, bool) {
	if o.failed {
		return nil, false
	}
	v := o.m[key]
	return v, v != nil
}

// check marks the object failed when ok is false.
func (o *Object) check(ok bool) {
	if !ok {
		o.failed = true
	}
}

// String reads a string member into a field of a string type.
func String[T ~string](o *Object, key string, dst *T) {
	if v, ok := o.Value(key); ok {
		s, ok := v.(string)
		*dst = T(s)
		o.check(ok)
	}
}

// StringPtr reads a string member into a pointer field.
func StringPtr[T ~string](o *Object, key string, dst **T) {
	if v, ok := o.Value(key); ok {
		s, ok := v.(string)
		t := T(s)
		*dst = &t
		o.check(ok)
	}
}

// Int32 reads an integer member into an int32 field, as the converter converts an int64
// (the low 32 bits).
func (o *Object) Int32(key string, dst *int32) {
	if v, ok := o.Value(key); ok {
		n, ok := v.(int64)
		*dst = int32(n)
		o.check(ok)
	}
}

// Int32Ptr reads an integer member into an *int32 field.
func (o *Object) Int32Ptr(key string, dst **int32) {
	if v, ok := o.Value(key); ok {
		n, ok := v.(int64)
		m := int32(n)
		*dst = &m
		o.check(ok)
	}
}

// Int64 reads an integer member into an int64 field.
func (o *Object) Int64(key string, dst *int64) {
	if v, ok := o.Value(key); ok {
		var ok bool
		*dst, ok = v.(int64)
		o.check(ok)
	}
}

// Int64Ptr reads an integer member into an *int64 field.
func (o *Object) Int64Ptr(key string, dst **int64) {
	if v, ok := o.Value(key); ok {
		n, ok := v.(int64)
		*dst = &n
		o.check(ok)
	}
}

// BoolPtr reads a boolean member into a *bool field.
func (o *Object) BoolPtr(key string, dst **bool) {
	if v, ok := o.Value(key); ok {
		b, ok := v.(bool)
		*dst = &b
		o.check(ok)
	}
}

// Time reads a time written as a string into a metav1.Time field.
func (o *Object) Time(key string, dst *metav1.Time) {
	if v, ok := o.Value(key); ok {
		var ok bool
		*dst, ok = timeOf(v)
		o.check(ok)
	}
}

// TimePtr reads a time written as a string into a *metav1.Time field.
func (o *Object) TimePtr(key string, dst **metav1.Time) {
	if v, ok := o.Value(key); ok {
		t, ok := timeOf(v)
		*dst = &t
		o.check(ok)
	}
}

// QuantityPtr reads a quantity written as a string into a *resource.Quantity field.
func (o *Object) QuantityPtr(key string, dst **resource.Quantity) {
	if v, ok := o.Value(key); ok {
		q, ok := quantityOf(v)
		*dst = &q
		o.check(ok)
	}
}

// StringMap reads an object of strings into a map[string]string field.
func (o *Object) StringMap(key string, dst *map[string]string) {
	if v, ok := o.Value(key); ok {
		var ok bool
		*dst, ok = stringMap(v)
		o.check(ok)
	}
}

// StringList reads a list of strings into a []string field.
func (o *Object) StringList(key string, dst *[]string) {
	if v, ok := o.Value(key); ok {
		var ok bool
		*dst, ok = stringList(v)
		o.check(ok)
	}
}

// Struct reads an object member into a struct field with read, which reads the
// member's own members.
func Struct[T any](o *Object, key string, dst *T, read func(*Object, *T)) {
	if v, ok := o.Value(key); ok {
		o.check(readStruct(v, dst, read))
	}
}

// StructPtr reads an object member into a pointer to a struct.
func StructPtr[T any](o *Object, key string, dst **T, read func(*Object, *T)) {
	if v, ok := o.Value(key); ok {
		t := new(T)
		*dst = t
		o.check(readStruct(v, t, read))
	}
}

// List reads a list of objects into a slice of structs, each with read; a null element
// is a zero struct.
func List[T any](o *Object, key string, dst *[]T, read func(*Object, *T)) {
	v, ok := o.Value(key)
	if !ok {
		return
	}
	l, ok := v.([]any)
	if !ok {
		o.Fail()
		return
	}
	if l == nil {
		*dst = nil
		return
	}
	out := make([]T, len(l))
	for i, e := range l {
		if e != nil && !readStruct(e, &out[i], read) {
			o.Fail()
			return
		}
	}
	*dst = out
}

func readStruct[T any](v any, dst *T, read func(*Object, *T)) bool {
	sub, ok := Open(v)
	if !ok {
		return false
	}
	read(&sub, dst)
	return sub.OK()
}

// timeOf is a time written as a string, as metav1.Time's UnmarshalJSON reads it.
func timeOf(v any) (metav1.Time, bool) {
	s, ok := v.(string)
	if !ok {
		return metav1.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return metav1.Time{}, false
	}
	return metav1.Time{Time: t.Local()}, true
}

// quantityOf is a quantity written as a string of printable ASCII that JSON does not
// escape, as resource.Quantity's UnmarshalJSON reads the string's JSON; anything else is
// left to the converter.
func quantityOf(v any) (resource.Quantity, bool) {
	s, ok := v.(string)
	if !ok {
		return resource.Quantity{}, false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return resource.Quantity{}, false
		}
	}
	q, err := resource.ParseQuantity(strings.TrimSpace(s))
	return q, err == nil
}

func stringMap(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if m == nil {
		return nil, true
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		if e == nil {
			out[k] = ""
			continue
		}
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

func stringList(v any) ([]string, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	if l == nil {
		return nil, true
	}
	out := make([]string, len(l))
	for i, e := range l {
		if e == nil {
			continue
		}
		if out[i], ok = e.(string); !ok {
			return nil, false
		}
	}
	return out, true
}

// marshalled is v's JSON as the converter writes it for a type with its own JSON form.
func marshalled(v any) ([]byte, bool) {
	data, err := json.Marshal(v)
	return data, err == nil
}
