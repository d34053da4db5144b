package defaults

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// refusal is a value its Go type refuses. Its Error is ssa-diff's own text; server is the
// error of the type's own JSON decoding (resource.Quantity's, intstr.IntOrString's,
// metav1.Time's, MicroTime's and Duration's UnmarshalJSON, encoding/json's for []byte),
// which both of the API server's decoders pass on (Refusal); nil when not known.
type refusal struct {
	err    error
	server error
	// bytes: a []byte value, which the unstructured converter decodes itself and whose
	// error it prefixes.
	bytes bool
}

func (e *refusal) Error() string { return e.err.Error() }
func (e *refusal) Unwrap() error { return e.err }

// refused wraps err, the refusal of value v by a Go type, with the error the type's own
// JSON decoding gives for v: decode is that decoding (into a new value of the type).
func refused(err error, v any, decode func([]byte) error) *refusal {
	b, merr := json.Marshal(v)
	if merr != nil {
		return &refusal{err: err}
	}
	return &refusal{err: err, server: decode(b)}
}

// Refusal is how the API server words its refusal of an object that Normalize, Default or
// DefaultOwned could not decode into its Go type, e being their error (wrapped): converter
// as k8s.io/apimachinery's unstructured converter words it when it decodes the merged
// object of an apply ("json: cannot unmarshal bool into Go value of type int32", the field
// not named), body as the JSON decoder of a request body words it (a type error names the
// field: "json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort
// of type int32"). ok is false when e is the refusal of a value whose words are not known.
// The values covered are those structured-merge-diff lets through to the decoding, being
// untyped to it or typed as a string: quantities, int-or-strings, times, durations and
// base64 ([]byte). Both decoders give their first error and the values are walked in the
// Go type's field order: a body with several bad values may be refused for another.
func (e *PathError) Refusal() (converter, body string, ok bool) {
	converter, _, ok = e.words()
	if !ok {
		return "", "", false
	}
	first := e
	if e.bodyFirst != nil {
		first = e.bodyFirst
	}
	if _, body, ok = first.words(); !ok {
		return "", "", false
	}
	return converter, body, true
}

// words are the server's words for e's own refusal (Refusal: the converter's, the body
// decoder's).
func (e *PathError) words() (converter, body string, ok bool) {
	var r *refusal
	if !errors.As(e.Err, &r) || r.server == nil {
		return "", "", false
	}
	converter, body = r.server.Error(), r.server.Error()
	if r.bytes {
		converter = "error decoding from json: " + converter
	}
	var te *json.UnmarshalTypeError
	if errors.As(r.server, &te) {
		named := *te
		named.Struct = e.owner
		fields := slices.Clone(e.fields)
		slices.Reverse(fields)
		named.Field = strings.Join(fields, ".")
		body = named.Error()
	}
	return converter, body, true
}

// withBodyFirst is err, an error of decoding obj (of Go type t), with the refusal the
// server's decoder of a request body meets first (PathError.bodyFirst) when it is another
// value's: the walk goes in the Go type's field order, the body's decoder in the order of
// the body, a JSON document whose members a client writes sorted (kubectl and client-go
// encode maps so), stopping at its first error (differential seed 901302: a Pod status's
// lastState before its state).
func withBodyFirst(err error, t int, obj any) error {
	pe, ok := err.(*PathError)
	if !ok {
		return err
	}
	if first, ok := firstInBodyOrder(t, obj).(*PathError); ok && first.Path != pe.Path {
		pe.bodyFirst = first
	}
	return err
}

// firstInBodyOrder is the error of the first value of v (of Go type t) its Go type
// refuses in the order of v's JSON with sorted members, or nil.
func firstInBodyOrder(t int, v any) error {
	td := &generatedTypes[t]
	switch td.kind {
	case kindPointer:
		if v == nil {
			return nil
		}
		return firstInBodyOrder(td.elem, v)
	case kindSlice:
		x, ok := v.([]any)
		if !ok {
			break
		}
		for i, item := range x {
			if err := firstInBodyOrder(td.elem, item); err != nil {
				return prefix(err, "["+strconv.Itoa(i)+"]")
			}
		}
		return nil
	case kindMap:
		x, ok := v.(map[string]any)
		if !ok {
			break
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err := firstInBodyOrder(td.elem, x[k]); err != nil {
				return prefix(err, "["+strconv.Quote(k)+"]")
			}
		}
		return nil
	case kindStruct:
		x, ok := v.(map[string]any)
		if !ok {
			break
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			ft, embeds, ok := bodyField(td, k)
			if !ok {
				continue
			}
			if err := firstInBodyOrder(ft, x[k]); err != nil {
				err = prefixField(err, k)
				for _, e := range embeds {
					err = embedded(err, e)
				}
				return owned(err, td)
			}
		}
		return nil
	}
	_, err := transcode(t, v, false)
	return err
}

// bodyField is the type of the field of JSON name name of struct td, and the structs it
// is found in when they are embedded (innermost first).
func bodyField(td *typeDef, name string) (int, []*typeDef, bool) {
	fields := td.fields()
	for i := range fields {
		f := &fields[i]
		if f.flags&inline != 0 {
			inner := &generatedTypes[f.typ]
			if t, embeds, ok := bodyField(inner, name); ok {
				return t, append(embeds, inner), true
			}
			continue
		}
		if f.name() == name {
			return f.typ, nil, true
		}
	}
	return 0, nil, false
}

// timeDecoding is the JSON decoding of metav1.Time, or of MicroTime for td a MicroTime.
func timeDecoding(td *typeDef) func([]byte) error {
	if td.kind == kindMicroTime {
		return func(b []byte) error { return new(metav1.MicroTime).UnmarshalJSON(b) }
	}
	return func(b []byte) error { return new(metav1.Time).UnmarshalJSON(b) }
}

// bytesDecoding is encoding/json's decoding of a []byte.
func bytesDecoding(b []byte) error {
	var data []byte
	return json.Unmarshal(b, &data)
}

// durationDecoding is the JSON decoding of metav1.Duration.
func durationDecoding(b []byte) error { return new(metav1.Duration).UnmarshalJSON(b) }
