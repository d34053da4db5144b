package resource

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Declarative validation runs on the served (v1) types, so the items it reports as
// repeated print as their v1 JSON: the served field names, in the types' order, and empty
// optional fields left out. served renders an internal value so, from the `ext` tags of the
// internal mirror; required lists the v1 fields that are printed even when empty.
var required = map[string]bool{
	"DeviceRequest.name": true, "ExactDeviceRequest.deviceClassName": true,
	"DeviceSubRequest.name": true, "DeviceSubRequest.deviceClassName": true,
	"CELDeviceSelector.expression": true, "DeviceDerivedAttribute.name": true, "DeviceDerivedAttribute.expression": true,
	"ResourceClaimConsumerReference.resource": true, "ResourceClaimConsumerReference.name": true, "ResourceClaimConsumerReference.uid": true,
	"AllocatedDeviceStatus.driver": true, "AllocatedDeviceStatus.pool": true, "AllocatedDeviceStatus.device": true,
	"AllocatedDeviceStatus.conditions": true,
	"CounterSet.name":                  true, "Counter.value": true, "DeviceCounterConsumption.counterSet": true,
}

const mirrorPkg = "github.com/ssa-diff/ssa-diff/internal/api/resource"

// served is v as the server prints a v1 value.
func served(v any) json.RawMessage {
	var b bytes.Buffer
	writeServed(&b, reflect.ValueOf(v))
	return b.Bytes()
}

func writeServed(b *bytes.Buffer, v reflect.Value) {
	switch {
	case v.Kind() == reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		writeServed(b, v.Elem())
	case v.Kind() == reflect.Struct && v.Type().PkgPath() == mirrorPkg:
		b.WriteByte('{')
		first := true
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("ext"), ",")
			if name == "" || name == "-" {
				continue
			}
			f := v.Field(i)
			if !required[t.Name()+"."+name] && isEmpty(f) {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			k, _ := json.Marshal(name)
			b.Write(k)
			b.WriteByte(':')
			writeServed(b, f)
		}
		b.WriteByte('}')
	case v.Kind() == reflect.Map && v.Type().Key().Kind() == reflect.String:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(k.String())
			b.Write(name)
			b.WriteByte(':')
			writeServed(b, v.MapIndex(k))
		}
		b.WriteByte('}')
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() != reflect.Uint8:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			writeServed(b, v.Index(i))
		}
		b.WriteByte(']')
	default:
		out, err := json.Marshal(v.Interface())
		if err != nil {
			out = []byte("null")
		}
		b.Write(out)
	}
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// unique reports, beta, the items of a list that repeat an earlier one (by match), each
// printed as its v1 JSON.
func unique[T any](items []T, fldPath *field.Path, match func(a, b *T) bool) field.ErrorList {
	var errs field.ErrorList
	for j := range items {
		for i := 0; i < j; i++ {
			if match(&items[i], &items[j]) {
				var v any = served(items[j])
				if s, ok := any(items[j]).(string); ok {
					v = s
				}
				errs = append(errs, field.Duplicate(fldPath.Index(j), v).MarkBeta())
				break
			}
		}
	}
	return errs
}
