package validation

import (
	"reflect"
	"strings"
)

// keepEmpty adds to m, the JSON of v (a served object, as encoding/json writes it), the
// empty lists and maps that omitempty dropped: the server's validators see an empty list
// where the request sent one, and print it as [] (not null), so ssa-diff's side must get it
// too. It walks v's struct fields by their JSON tags beside m's members.
func keepEmpty(v reflect.Value, m any) any {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return m
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		obj, ok := m.(map[string]any)
		if !ok {
			return m
		}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			fv := v.Field(i)
			if f.Anonymous && name == "" || strings.Contains(opts, "inline") {
				keepEmpty(fv, obj)
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, marshals := fv.Interface().(interface{ MarshalJSON() ([]byte, error) }); marshals {
				continue
			}
			member, present := obj[name]
			switch {
			case present:
				obj[name] = keepEmpty(fv, member)
			case fv.Kind() == reflect.Slice && !fv.IsNil() && fv.Len() == 0 && fv.Type().Elem().Kind() != reflect.Uint8:
				obj[name] = []any{}
			case fv.Kind() == reflect.Map && !fv.IsNil() && fv.Len() == 0:
				obj[name] = map[string]any{}
			}
		}
		return obj
	case reflect.Slice:
		list, ok := m.([]any)
		if !ok || v.Type().Elem().Kind() == reflect.Uint8 {
			return m
		}
		for i := range list {
			if i < v.Len() {
				list[i] = keepEmpty(v.Index(i), list[i])
			}
		}
		return list
	case reflect.Map:
		obj, ok := m.(map[string]any)
		if !ok || v.Type().Key().Kind() != reflect.String {
			return m
		}
		for k, member := range obj {
			if e := v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())); e.IsValid() {
				obj[k] = keepEmpty(e, member)
			}
		}
		return obj
	}
	return m
}
