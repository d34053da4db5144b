package api

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// reflectDecoder is Decode as it was before plans (decode.go): every type worked out by
// reflection at every value. TestDecodeMatchesReflection and FuzzDecode hold Decode to it.
type reflectDecoder struct {
	path []string
}

func (d *reflectDecoder) d() *decoder { return &decoder{} }

func (d *reflectDecoder) errorf(format string, args ...any) error {
	p := strings.Join(d.path, "")
	if p == "" {
		p = "."
	}
	return fmt.Errorf("%s: %s", p, fmt.Sprintf(format, args...))
}

// decodeByReflection is Decode through reflectDecoder.
func decodeByReflection(obj map[string]any, out any) error {
	v := reflect.ValueOf(out)
	d := reflectDecoder{}
	if obj["apiVersion"] == "events.k8s.io/v1" && obj["kind"] == "Event" {
		obj = eventAsCoreV1(obj)
	}
	if err := d.value(obj, v.Elem()); err != nil {
		return err
	}
	return convert(obj, out)
}

// value decodes src into dst, which holds the zero value of its type.
func (d *reflectDecoder) value(src any, dst reflect.Value) error {
	if src == nil {
		return nil // null leaves the zero value, as encoding/json does
	}
	t := dst.Type()
	if t == typeMeta {
		return nil
	}
	if t == objectMeta {
		return d.objectMeta(src, dst)
	}
	if t.Kind() != reflect.Pointer && !mirrored(t) && reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return d.viaJSON(src, dst)
	}
	switch t.Kind() {
	case reflect.Pointer:
		elem := reflect.New(t.Elem())
		if err := d.value(src, elem.Elem()); err != nil {
			return err
		}
		dst.Set(elem)
		return nil
	case reflect.Struct:
		if !mirrored(t) {
			return d.viaJSON(src, dst)
		}
		m, ok := src.(map[string]any)
		if !ok {
			return d.errorf("want an object, got %s", jsonType(src))
		}
		return d.fields(m, dst)
	case reflect.Slice:
		if t == byteSlice || t.Elem().Kind() == reflect.Uint8 {
			s, ok := src.(string)
			if !ok {
				return d.errorf("want a base64 string, got %s", jsonType(src))
			}
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return d.errorf("%v", err)
			}
			dst.SetBytes(b)
			return nil
		}
		list, ok := src.([]any)
		if !ok {
			return d.errorf("want an array, got %s", jsonType(src))
		}
		out := reflect.MakeSlice(t, len(list), len(list))
		for i, item := range list {
			d.path = append(d.path, "["+strconv.Itoa(i)+"]")
			err := d.value(item, out.Index(i))
			d.path = d.path[:len(d.path)-1]
			if err != nil {
				return err
			}
		}
		dst.Set(out)
		return nil
	case reflect.Map:
		m, ok := src.(map[string]any)
		if !ok {
			return d.errorf("want an object, got %s", jsonType(src))
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for k, item := range m {
			key := reflect.New(t.Key()).Elem()
			if key.Kind() != reflect.String {
				return d.errorf("map keys of %s are not strings", t)
			}
			key.SetString(k)
			val := reflect.New(t.Elem()).Elem()
			d.path = append(d.path, "."+k)
			err := d.value(item, val)
			d.path = d.path[:len(d.path)-1]
			if err != nil {
				return err
			}
			out.SetMapIndex(key, val)
		}
		dst.Set(out)
		return nil
	case reflect.String:
		s, ok := src.(string)
		if !ok {
			return d.errorf("want a string, got %s", jsonType(src))
		}
		dst.SetString(s)
		return nil
	case reflect.Bool:
		b, ok := src.(bool)
		if !ok {
			return d.errorf("want a boolean, got %s", jsonType(src))
		}
		dst.SetBool(b)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := d.integer(src)
		if err != nil {
			return err
		}
		if dst.OverflowInt(n) {
			return d.errorf("%d overflows %s", n, t)
		}
		dst.SetInt(n)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := d.integer(src)
		if err != nil {
			return err
		}
		if n < 0 || dst.OverflowUint(uint64(n)) {
			return d.errorf("%d overflows %s", n, t)
		}
		dst.SetUint(uint64(n))
		return nil
	case reflect.Float32, reflect.Float64:
		f, err := number(src)
		if err != nil {
			return d.errorf("%v", err)
		}
		dst.SetFloat(f)
		return nil
	case reflect.Interface:
		dst.Set(reflect.ValueOf(src))
		return nil
	}
	return d.errorf("cannot decode into %s", t)
}

// fields decodes the members of a JSON object into a mirror struct by the fields' ext tags.
func (d *reflectDecoder) fields(m map[string]any, dst reflect.Value) error {
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("ext")
		switch name {
		case "-", "":
			continue
		case ",inline":
			if err := d.value(m, dst.Field(i)); err != nil {
				return err
			}
			continue
		}
		v, ok := m[name]
		if !ok {
			continue
		}
		d.path = append(d.path, "."+name)
		err := d.value(v, dst.Field(i))
		d.path = d.path[:len(d.path)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// objectMeta decodes an object's metadata as viaJSON does, without its JSON text for what
// is most of it: the strings, string maps and lists, and the managedFields entries (their
// fieldsV1 kept as the text the engine holds, json.RawMessage, or made from a tree). What
// is left (times, owner references, other keys) goes through viaJSON, and so does anything
// of an unexpected type, whole, for encoding/json's errors.
func (d *reflectDecoder) objectMeta(src any, dst reflect.Value) error {
	m, ok := src.(map[string]any)
	if !ok {
		return d.viaJSON(src, dst)
	}
	meta := dst.Addr().Interface().(*metav1.ObjectMeta)
	rest := make(map[string]any, 4)
	for k, v := range m {
		if v == nil {
			continue // null leaves the zero value
		}
		var ok bool
		switch k {
		case "name":
			meta.Name, ok = v.(string)
		case "generateName":
			meta.GenerateName, ok = v.(string)
		case "namespace":
			meta.Namespace, ok = v.(string)
		case "uid":
			var uid string
			uid, ok = v.(string)
			meta.UID = types.UID(uid)
		case "resourceVersion":
			meta.ResourceVersion, ok = v.(string)
		case "generation":
			var err error
			meta.Generation, err = d.integer(v)
			ok = err == nil
		case "labels":
			meta.Labels, ok = stringMap(v)
		case "annotations":
			meta.Annotations, ok = stringMap(v)
		case "finalizers":
			meta.Finalizers, ok = stringList(v)
		case "managedFields":
			meta.ManagedFields, ok = d.d().managedFields(v, false)
		default:
			rest[k], ok = v, true
		}
		if !ok {
			*meta = metav1.ObjectMeta{}
			return d.viaJSON(src, dst)
		}
	}
	if len(rest) == 0 {
		return nil
	}
	return d.viaJSON(rest, dst)
}

// viaJSON decodes src through its JSON text, for types that decode themselves
// (Quantity, Time, IntOrString …) and apimachinery's structs.
func (d *reflectDecoder) viaJSON(src any, dst reflect.Value) error {
	b, err := json.Marshal(src)
	if err != nil {
		return d.errorf("%v", err)
	}
	if err := json.Unmarshal(b, dst.Addr().Interface()); err != nil {
		return d.errorf("%v", err)
	}
	return nil
}

func (d *reflectDecoder) integer(src any) (int64, error) {
	switch n := src.(type) {
	case int64:
		return n, nil
	case int:
		return int64(n), nil
	case float64:
		if n != math.Trunc(n) || n < math.MinInt64 || n >= math.MaxInt64 {
			return 0, d.errorf("want an integer, got %v", n)
		}
		return int64(n), nil
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			return 0, d.errorf("want an integer, got %s", n)
		}
		return i, nil
	}
	return 0, d.errorf("want a number, got %s", jsonType(src))
}
