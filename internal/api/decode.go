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

// mirrorPrefix is the import path prefix of the generated mirror types, whose fields carry
// `ext` tags; other struct types (apimachinery's ObjectMeta, Time, Quantity …) decode from
// their JSON as the server decodes them.
const mirrorPrefix = "github.com/ssa-diff/ssa-diff/internal/api/"

// Decode converts obj, an object at its group's served version as decoded JSON (objects as
// map[string]any, arrays as []any, numbers as int64, float64 or json.Number), into out, a
// pointer to the kind's internal type. Fields out's type does not declare are ignored (the
// engine has checked the object against its schema); a value of the wrong JSON type is an
// error naming its path.
func Decode(obj map[string]any, out any) error {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("decode: want a non-nil pointer, got %T", out)
	}
	d := decoder{}
	if obj["apiVersion"] == "events.k8s.io/v1" && obj["kind"] == "Event" {
		obj = eventAsCoreV1(obj)
	}
	if err := d.value(obj, v.Elem()); err != nil {
		return err
	}
	return convert(obj, out)
}

type decoder struct {
	path []string
}

func (d *decoder) errorf(format string, args ...any) error {
	p := strings.Join(d.path, "")
	if p == "" {
		p = "."
	}
	return fmt.Errorf("%s: %s", p, fmt.Sprintf(format, args...))
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	byteSlice       = reflect.TypeFor[[]byte]()
	// Conversion to the internal version leaves the kind and apiVersion of objects empty.
	typeMeta = reflect.TypeFor[metav1.TypeMeta]()
	// objectMeta decodes through objectMeta: its managedFields hold most of its text.
	objectMeta = reflect.TypeFor[metav1.ObjectMeta]()
)

// value decodes src into dst, which holds the zero value of its type.
func (d *decoder) value(src any, dst reflect.Value) error {
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
func (d *decoder) fields(m map[string]any, dst reflect.Value) error {
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
func (d *decoder) objectMeta(src any, dst reflect.Value) error {
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
			meta.ManagedFields, ok = d.managedFields(v)
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

// managedFields decodes the entries of metadata.managedFields; false when one is not as the
// engine makes them.
func (d *decoder) managedFields(v any) ([]metav1.ManagedFieldsEntry, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	entries := make([]metav1.ManagedFieldsEntry, len(list))
	for i, item := range list {
		e, ok := item.(map[string]any)
		if !ok {
			return nil, false
		}
		for k, v := range e {
			if v == nil {
				continue
			}
			var ok bool
			switch k {
			case "manager":
				entries[i].Manager, ok = v.(string)
			case "operation":
				var op string
				op, ok = v.(string)
				entries[i].Operation = metav1.ManagedFieldsOperationType(op)
			case "apiVersion":
				entries[i].APIVersion, ok = v.(string)
			case "fieldsType":
				entries[i].FieldsType, ok = v.(string)
			case "subresource":
				entries[i].Subresource, ok = v.(string)
			case "time":
				var s string
				// "" and "null" parse as the zero time here but fail as JSON: left to viaJSON.
				if s, ok = v.(string); ok && s != "" && s != "null" {
					var t metav1.Time
					ok = t.UnmarshalQueryParameter(s) == nil
					entries[i].Time = &t
				} else {
					ok = false
				}
			case "fieldsV1":
				raw, isText := v.(json.RawMessage)
				if !isText {
					b, err := json.Marshal(v)
					if err != nil {
						return nil, false
					}
					raw = b
				}
				//lint:ignore SA1019 the text is handed over as it is: SetRawBytes and NewFieldsV1 copy it, a copy per entry on the hot path
				entries[i].FieldsV1, ok = &metav1.FieldsV1{Raw: raw}, true
			}
			if !ok {
				return nil, false
			}
		}
	}
	return entries, true
}

// stringMap is a JSON object of strings as a Go map; false when a value is no string.
func stringMap(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

// stringList is a JSON array of strings as a Go slice; false when an item is no string.
func stringList(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, len(list))
	for i, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// viaJSON decodes src through its JSON text, for types that decode themselves
// (Quantity, Time, IntOrString …) and apimachinery's structs.
func (d *decoder) viaJSON(src any, dst reflect.Value) error {
	b, err := json.Marshal(src)
	if err != nil {
		return d.errorf("%v", err)
	}
	if err := json.Unmarshal(b, dst.Addr().Interface()); err != nil {
		return d.errorf("%v", err)
	}
	return nil
}

func (d *decoder) integer(src any) (int64, error) {
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

func number(src any) (float64, error) {
	switch n := src.(type) {
	case float64:
		return n, nil
	case int64:
		return float64(n), nil
	case int:
		return float64(n), nil
	case json.Number:
		return n.Float64()
	}
	return 0, fmt.Errorf("want a number, got %s", jsonType(src))
}

func mirrored(t reflect.Type) bool {
	return strings.HasPrefix(t.PkgPath(), mirrorPrefix)
}

func jsonType(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, int, float64, json.Number:
		return "a number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// New returns a new, zero object of the internal type of a built-in kind, given the group,
// version and kind it is served and decoded at ("apps", "v1", "Deployment"); nil when the
// kind has no internal type here.
func New(group, version, kind string) any {
	return newInternal(group, version, kind)
}
