package defaults

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Formats of metav1.Time and metav1.MicroTime on the wire.
const (
	timeFormat      = time.RFC3339
	microTimeFormat = "2006-01-02T15:04:05.000000Z07:00"
)

// PathError is an error at a field of an object. Path is in the dotted form
// of the catalog (".spec.template.spec.containers[0].image").
type PathError struct {
	Path string
	Err  error
	// fields and owner are what the API server's JSON decoder names when it refuses the
	// value (Refusal): the JSON names of the struct fields from the root to it, innermost
	// first as the stack unwinds (an embedded struct by its Go name; no list index, no map
	// key), and the Go name of the struct whose field holds it (an embedded struct's
	// field: the struct embedding it).
	fields []string
	owner  string
	// bodyFirst, when set, is the refusal a request body's decoder meets first, another
	// value's (withBodyFirst).
	bodyFirst *PathError
}

func (e *PathError) Error() string {
	if e.Path == "" {
		return e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

func (e *PathError) Unwrap() error { return e.Err }

// prefix prepends a path segment to a PathError as the stack unwinds.
func prefix(err error, seg string) error {
	if pe, ok := err.(*PathError); ok {
		pe.Path = seg + pe.Path
		return pe
	}
	return &PathError{Path: seg, Err: err}
}

// prefixField is prefix for a struct field of JSON name name, keeping what the JSON
// decoder names.
func prefixField(err error, name string) error {
	pe, ok := prefix(err, "."+name).(*PathError)
	if !ok {
		return err
	}
	pe.fields = append(pe.fields, name)
	return pe
}

// owned records, on an error from the fields of struct td (embedded ones included), td as
// the struct holding the value, unless a struct inside it holds it.
func owned(err error, td *typeDef) error {
	if pe, ok := err.(*PathError); ok && pe.owner == "" {
		pe.owner = structName(td)
	}
	return err
}

// embedded records, on an error from the fields of embedded struct td, the Go name of the
// field embedding it: the JSON decoder names it in its field path.
func embedded(err error, td *typeDef) error {
	if pe, ok := err.(*PathError); ok {
		pe.fields = append(pe.fields, structName(td))
	}
	return err
}

// structName is goName of a struct's typeDef.
func structName(td *typeDef) string {
	name := td.name()
	return name[strings.LastIndexByte(name, '.')+1:]
}

// encoded is the result of round-tripping one value through its Go type.
type encoded struct {
	value any  // the JSON-like value json.Marshal would write
	empty bool // the Go value is "empty" in the omitempty sense
	zero  bool // the Go value is its type's zero value (omitzero)
	// same says value is the value encoded itself, as given (a scalar kept, a map or list
	// rewritten in place): a struct rewritten in place need not store it again. False
	// says nothing.
	same bool
}

// roundTrip decodes v into the Go type t the way the API server's
// unstructured converter does, then encodes it the way encoding/json and the
// protobuf storage round trip do. v is not modified.
func roundTrip(t int, v any) (encoded, error) { return transcode(t, v, false) }

// roundTripInPlace is roundTrip writing the encoding over v's own maps and lists, which
// only the caller holds (a tree roundTrip made, changed since): the second pass of
// Default allocates no tree again. On an error, v is left partly rewritten.
func roundTripInPlace(t int, v any) (encoded, error) { return transcode(t, v, true) }

// transcode is roundTrip; inPlace writes the result over v's maps and lists.
func transcode(t int, v any, inPlace bool) (encoded, error) {
	td := &generatedTypes[t]
	switch td.kind {
	case kindString:
		switch x := v.(type) {
		case nil:
			return encoded{value: "", empty: true, zero: true}, nil
		case string:
			// v itself, not x boxed again: the same value without an allocation.
			return encoded{value: v, empty: x == "", zero: x == "", same: true}, nil
		}
		return encoded{}, fmt.Errorf("expected a string, got %s", describe(v))
	case kindBool:
		switch x := v.(type) {
		case nil:
			return encoded{value: false, empty: true, zero: true}, nil
		case bool:
			return encoded{value: x, empty: !x, zero: !x, same: true}, nil
		}
		return encoded{}, fmt.Errorf("expected a boolean, got %s", describe(v))
	case kindInt, kindUint:
		if v == nil {
			return encoded{value: int64(0), empty: true, zero: true}, nil
		}
		n, ok := unstructured.Int(v)
		if !ok || (td.kind == kindUint && n < 0) {
			return encoded{}, fmt.Errorf("expected an integer, got %s", describe(v))
		}
		if _, same := v.(int64); same {
			return encoded{value: v, empty: n == 0, zero: n == 0, same: true}, nil
		}
		return encoded{value: n, empty: n == 0, zero: n == 0}, nil
	case kindFloat:
		// The Go value is a float64; encoding/json writes a whole one without a
		// fraction ("0", not "0.0"), which decodes as an integer.
		var f float64
		switch x := v.(type) {
		case nil:
		case float64:
			f = x
		default:
			n, ok := unstructured.Int(v)
			if !ok {
				return encoded{}, fmt.Errorf("expected a number, got %s", describe(v))
			}
			f = float64(n)
		}
		return encoded{value: decodedFloat(f), empty: f == 0, zero: f == 0}, nil
	case kindBytes:
		switch x := v.(type) {
		case nil:
			return encoded{value: nil, empty: true, zero: true}, nil
		case string:
			b, err := base64.StdEncoding.DecodeString(x)
			if err != nil {
				r := refused(fmt.Errorf("illegal base64 data: %w", err), x, bytesDecoding)
				r.bytes = true
				return encoded{}, r
			}
			return encoded{value: base64.StdEncoding.EncodeToString(b), empty: len(b) == 0}, nil
		}
		return encoded{}, fmt.Errorf("expected base64 data, got %s", describe(v))
	case kindPointer:
		if v == nil {
			return encoded{value: nil, empty: true, zero: true}, nil
		}
		e, err := transcode(td.elem, v, inPlace)
		return encoded{value: e.value, same: e.same}, err
	case kindSlice:
		switch x := v.(type) {
		case nil:
			return encoded{value: nil, empty: true, zero: true}, nil
		case []any:
			if len(x) == 0 {
				// Storage keeps no empty lists: protobuf decodes them as nil.
				return encoded{value: nil, empty: true, zero: true}, nil
			}
			out := x
			if !inPlace {
				out = make([]any, len(x))
			}
			for i, item := range x {
				e, err := transcode(td.elem, item, inPlace)
				if err != nil {
					return encoded{}, prefix(err, "["+strconv.Itoa(i)+"]")
				}
				out[i] = e.value
			}
			return encoded{value: out, same: inPlace}, nil
		}
		return encoded{}, fmt.Errorf("expected a list, got %s", describe(v))
	case kindMap:
		switch x := v.(type) {
		case nil:
			return encoded{value: nil, empty: true, zero: true}, nil
		case map[string]any:
			if len(x) == 0 {
				// Storage keeps no empty maps: protobuf decodes them as nil.
				return encoded{value: nil, empty: true, zero: true}, nil
			}
			out := x
			if !inPlace {
				out = make(map[string]any, len(x))
			}
			for k, item := range x {
				e, err := mapValue(td.elem, item, inPlace)
				if err != nil {
					k, err = firstMapError(td.elem, x, k, err)
					return encoded{}, prefix(err, "["+strconv.Quote(k)+"]")
				}
				out[k] = e.value
			}
			return encoded{value: out, same: inPlace}, nil
		}
		return encoded{}, fmt.Errorf("expected a map, got %s", describe(v))
	case kindStruct:
		var in map[string]any
		switch x := v.(type) {
		case nil:
		case map[string]any:
			in = x
		default:
			return encoded{}, fmt.Errorf("expected an object, got %s", describe(v))
		}
		if inPlace && in != nil {
			n := len(in)
			zero, present, err := encodeFields(td, in, in, true)
			if err == nil && present < n {
				dropUnknown(td, in)
			}
			return encoded{value: in, zero: zero, same: true}, err
		}
		out := make(map[string]any, len(in))
		zero, _, err := encodeFields(td, in, out, false)
		return encoded{value: out, zero: zero}, err
	case kindQuantity:
		if v == nil {
			return encoded{value: "0", zero: true}, nil
		}
		s, err := CanonicalQuantity(v)
		if err != nil {
			return encoded{}, refused(err, v, func(b []byte) error { return new(resource.Quantity).UnmarshalJSON(b) })
		}
		if x, ok := v.(string); ok && x == s {
			return encoded{value: v, same: true}, err
		}
		return encoded{value: s}, err
	case kindIntOrString:
		switch v.(type) {
		case nil:
			return encoded{value: int64(0), zero: true}, nil
		case string:
			return encoded{value: v, same: true}, nil
		}
		n, ok := unstructured.Int(v)
		if !ok || n < math.MinInt32 || n > math.MaxInt32 {
			// intstr.IntOrString decodes anything but a string as an int32.
			return encoded{}, refused(fmt.Errorf("expected an int32 or a string, got %s", describe(v)), v,
				func(b []byte) error { var i int32; return json.Unmarshal(b, &i) })
		}
		if _, same := v.(int64); same {
			return encoded{value: v, zero: n == 0, same: true}, nil
		}
		return encoded{value: n, zero: n == 0}, nil
	case kindTime, kindMicroTime:
		switch x := v.(type) {
		case nil:
			return encoded{value: nil, zero: true}, nil
		case string:
			tm, err := time.Parse(time.RFC3339, x)
			if err != nil {
				return encoded{}, refused(fmt.Errorf("invalid time: %w", err), v, timeDecoding(td))
			}
			f := timeFormat
			if td.kind == kindMicroTime {
				f = microTimeFormat
			}
			return encoded{value: tm.UTC().Format(f), zero: tm.IsZero()}, nil
		}
		return encoded{}, refused(fmt.Errorf("expected a time string, got %s", describe(v)), v, timeDecoding(td))
	case kindDuration:
		switch x := v.(type) {
		case nil:
			return encoded{value: "0s", zero: true}, nil
		case string:
			d, err := time.ParseDuration(x)
			if err != nil {
				return encoded{}, refused(fmt.Errorf("invalid duration: %w", err), v, durationDecoding)
			}
			return encoded{value: d.String(), zero: d == 0}, nil
		}
		return encoded{}, refused(fmt.Errorf("expected a duration string, got %s", describe(v)), v, durationDecoding)
	case kindRaw:
		// Kept as they are, the same maps and lists: no defaulter looks inside them.
		return encoded{value: v, empty: v == nil, zero: v == nil, same: true}, nil
	case kindSchemaOrBool:
		switch x := v.(type) {
		case bool:
			return encoded{value: x, same: true}, nil
		case map[string]any:
			e, err := transcode(td.elem, x, inPlace)
			return encoded{value: e.value, same: e.same}, err
		}
		return encoded{}, fmt.Errorf("expected a boolean or a JSON schema, got %s", describe(v))
	case kindSchemaOrArray, kindSchemaOrStringArray:
		switch x := v.(type) {
		case map[string]any:
			e, err := transcode(td.elem, x, inPlace)
			return encoded{value: e.value, same: e.same}, err
		case []any:
			if len(x) == 0 {
				if td.kind == kindSchemaOrArray {
					return encoded{value: nil}, nil
				}
				return encoded{value: nil}, nil
			}
			out := x
			if !inPlace {
				out = make([]any, len(x))
			}
			for i, item := range x {
				if td.kind == kindSchemaOrStringArray {
					s, ok := item.(string)
					if !ok {
						return encoded{}, fmt.Errorf("[%d]: expected a string, got %s", i, describe(item))
					}
					out[i] = s
					continue
				}
				e, err := transcode(td.elem, item, inPlace)
				if err != nil {
					return encoded{}, prefix(err, "["+strconv.Itoa(i)+"]")
				}
				out[i] = e.value
			}
			return encoded{value: out, same: inPlace}, nil
		case nil:
			return encoded{value: nil}, nil
		}
		return encoded{}, fmt.Errorf("expected a JSON schema or a list, got %s", describe(v))
	}
	return encoded{}, fmt.Errorf("type %s has unknown kind %d", td.name(), td.kind)
}

// mapValue round-trips a map value. Protobuf map entries always carry a
// value, so a nil list or []byte value comes back empty, not null.
func mapValue(t int, v any, inPlace bool) (encoded, error) {
	switch generatedTypes[t].kind {
	case kindSlice:
		e, err := transcode(t, v, inPlace)
		if err == nil && e.value == nil {
			e.value = []any{}
		}
		return e, err
	case kindBytes:
		if v == nil {
			return encoded{value: "", empty: true, zero: true}, nil
		}
	}
	return transcode(t, v, inPlace)
}

// firstMapError is the member of map m (of element type t) whose value fails first in key
// order, and its error; bad, whose value failed with err, is the one the caller's ranging
// met first. The order Go ranges over a map in changes from run to run, and so would the
// error of a map with two bad values (the server's converter reports whichever it meets
// first too): the first in key order — the order kubectl writes a body in — is one answer.
// Members already rewritten in place hold encodings of good values, which encode again.
func firstMapError(t int, m map[string]any, bad string, err error) (string, error) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k >= bad {
			break
		}
		if _, e := mapValue(t, m[k], false); e != nil {
			return k, e
		}
	}
	return bad, err
}

// encodeFields writes the fields of struct td found in in to out, embedded
// structs flattened, and reports whether every field is zero and how many of in's
// members are fields. With inPlace, out is in: a field left out is deleted from it (the
// members that are no fields stay: see dropUnknown).
func encodeFields(td *typeDef, in, out map[string]any, inPlace bool) (zero bool, present int, err error) {
	n := len(in)
	left := n
	zero, err = encodeFieldsOf(td, in, out, inPlace, &left)
	if err != nil {
		err = owned(err, td)
	}
	return zero, n - left, err
}

// encodeFieldsOf is encodeFields; left counts the members of in no field has matched yet
// (the fields of td's embedded structs included): once none is left, the other fields are
// absent without looking them up.
func encodeFieldsOf(td *typeDef, in, out map[string]any, inPlace bool, left *int) (bool, error) {
	zero := true
	fields := td.fields()
	for i := range fields {
		f := &fields[i]
		if f.flags&inline != 0 {
			z, err := encodeFieldsOf(&generatedTypes[f.typ], in, out, inPlace, left)
			if err != nil {
				return false, embedded(err, &generatedTypes[f.typ])
			}
			zero = zero && z
			continue
		}
		// The name is read from the strings' table only when needed: an absent field
		// once every member has matched is most often left out without it.
		var name string
		var v any
		has := false
		if *left > 0 {
			name = f.name()
			if v, has = in[name]; has {
				*left--
			}
		}
		if !has && absentOmitted(f) {
			continue // zero, and left out
		}
		if name == "" {
			name = f.name()
		}
		e, err := transcode(f.typ, v, inPlace)
		if err != nil {
			return false, prefixField(err, name)
		}
		zero = zero && e.zero
		if (f.flags&omitEmpty != 0 && e.empty) || (f.flags&omitZero != 0 && e.zero) {
			if inPlace && has {
				delete(out, name)
			}
			continue
		}
		if inPlace && has && e.same {
			continue
		}
		out[name] = e.value
	}
	return zero, nil
}

// absentOmitted reports whether field f, absent, encodes as its type's zero value and
// is left out (transcode of nil tells the same, at the cost of a call): a scalar, a
// pointer, a list, a map or a raw value under omitempty or omitzero, a quantity,
// int-or-string, time or duration under omitzero.
func absentOmitted(f *fieldDef) bool {
	switch generatedTypes[f.typ].kind {
	case kindString, kindBool, kindInt, kindUint, kindFloat, kindBytes, kindPointer, kindSlice, kindMap, kindRaw:
		return f.flags&(omitEmpty|omitZero) != 0
	case kindQuantity, kindIntOrString, kindTime, kindMicroTime, kindDuration:
		return f.flags&omitZero != 0
	}
	return false
}

// dropUnknown deletes from m, rewritten in place by encodeFields, the members that are no
// fields of struct td (nor of the structs it embeds).
func dropUnknown(td *typeDef, m map[string]any) {
	for k := range m {
		if !hasField(td, k) {
			delete(m, k)
		}
	}
}

// hasField reports whether struct td, or a struct it embeds, has a field named name.
func hasField(td *typeDef, name string) bool {
	fields := td.fields()
	for i := range fields {
		f := &fields[i]
		if f.flags&inline != 0 && hasField(&generatedTypes[f.typ], name) || f.flags&inline == 0 && f.name() == name {
			return true
		}
	}
	return false
}

// CanonicalQuantity returns the form in which the API server stores a
// resource quantity given as a string or a JSON number, e.g. "0.5" → "500m",
// 1e3 → "1k", "2048Mi" → "2Gi", "1.5Gi" → "1536Mi". It uses
// k8s.io/apimachinery/pkg/api/resource, the server's own implementation.
func CanonicalQuantity(v any) (string, error) {
	var s string
	switch x := v.(type) {
	case string:
		if canonicalQuantityText(x) {
			return x, nil
		}
		s = strings.TrimSpace(x)
	case int64, int, int32, float64:
		b, err := json.Marshal(x)
		if err != nil {
			return "", fmt.Errorf("quantity %v: %w", x, err)
		}
		s = string(b)
	default:
		return "", fmt.Errorf("expected a quantity, got %s", describe(v))
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return "", fmt.Errorf("quantity %q: %w", s, err)
	}
	return q.String(), nil
}

// canonicalQuantityText reports a quantity that resource.ParseQuantity reads and its
// String writes back as it is, told without parsing it: a whole number of one to six
// digits without a leading zero (or "0" alone), with no suffix or a decimal one up to T
// ("m", "k", "M", "G", "T") and not a multiple of 1,000 (which the next suffix would
// write), or with a binary one up to Ti ("Ki" … "Ti") and not a multiple of 1,024. Six
// digits keep every value far inside an int64. False says nothing: CanonicalQuantity
// then parses. FuzzCanonicalQuantityText holds it to resource.Quantity.
func canonicalQuantityText(s string) bool {
	if s == "0" {
		return true
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 6 || s[0] == '0' {
		return false
	}
	n := 0
	for _, c := range s[:i] {
		n = n*10 + int(c-'0')
	}
	switch s[i:] {
	case "", "m", "k", "M", "G", "T":
		return n%1000 != 0
	case "Ki", "Mi", "Gi", "Ti":
		return n%1024 != 0
	}
	return false
}

// decodedFloat is a float64 as its JSON encoding decodes in the unstructured form: a
// whole number (below 2^53) as an int64, any other as a float64.
func decodedFloat(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f)
	}
	return f
}

func describe(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T %v", v, v)
}
