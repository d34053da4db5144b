package fieldpath

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// FuzzCanonicalFieldsV1: the one pass writes what making SetToFieldsV1As's text canonical
// writes (OrderBytes), and what encoding/json makes of it as a json.RawMessage
// (OrderElements), in both texts, for sets decoded from any fieldsV1 and changed as the engine changes them
// (integer keys and values, empty children, a member that is also a child, HTML
// characters, strings outside ASCII).
func FuzzCanonicalFieldsV1(f *testing.F) {
	for _, s := range []string{`{}`, `{"f:data":{".":{},"f:a":{}}}`,
		`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}`,
		`{"f:metadata":{"f:finalizers":{"v:\"x\"":{}},"f:annotations":{"f:a<b>&c":{}}}}`, `{"i:3":{},"i:12":{}}`} {
		f.Add([]byte(s), "name", int64(8080), uint8(0))
	}
	f.Add([]byte(`{"f:a":{}}`), "é\u2028\"\\", int64(-3), uint8(1))
	f.Add([]byte(`{"f:a":{}}`), "\xff", int64(1e6), uint8(2))
	f.Add([]byte(`{"f:a":{"f:b":{}}}`), "a", int64(1), uint8(3))
	f.Fuzz(func(t *testing.T, raw []byte, s string, n int64, shape uint8) {
		set, err := FieldsV1ToSet(raw)
		if err != nil {
			return
		}
		a := "a"
		switch shape % 4 {
		case 0:
			set.Insert(smdpath.Path{smdpath.PathElement{FieldName: &s}, smdpath.PathElement{Key: &value.FieldList{
				{Name: "port", Value: value.NewValueInterface(n)}, {Name: s, Value: value.NewValueInterface(s)}}}})
		case 1:
			set.Insert(smdpath.Path{smdpath.PathElement{FieldName: &s}, smdpath.PathElement{Value: ptr(value.NewValueInterface(n))}})
			set.Insert(smdpath.Path{smdpath.PathElement{FieldName: &s}})
		case 2:
			set.Children.Descend(smdpath.PathElement{FieldName: &s})
		case 3:
			i := int(n % 1000)
			set.Insert(smdpath.Path{smdpath.PathElement{FieldName: &a}, smdpath.PathElement{Index: &i}, smdpath.PathElement{FieldName: &s}})
			set.Insert(smdpath.Path{smdpath.PathElement{FieldName: &a}})
		}
		for _, text := range []Text{TextJSONIter, TextJSONv2} {
			got, err := SetToCanonicalFieldsV1As(set, text)
			enc, eerr := SetToFieldsV1As(set, text)
			if eerr != nil {
				if err == nil {
					t.Fatalf("%v: wrote %s for a set SetToFieldsV1As refuses (%v)", text, got, eerr)
				}
				continue
			}
			want, werr := fieldsjson.CanonicalFieldsV1(enc)
			if (err != nil) != (werr != nil) {
				t.Fatalf("%v: error %v, want %v", text, err, werr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%v: wrote\n%s\nwant\n%s\n(from %s)", text, got, want, enc)
			}
			got, err = SetToFieldsV1Text(set, text, OrderElements)
			if err != nil {
				t.Fatalf("%v, element order: %v", text, err)
			}
			if want, _ := json.Marshal(json.RawMessage(enc)); !bytes.Equal(got, want) {
				t.Fatalf("%v, element order: wrote\n%s\nwant\n%s", text, got, want)
			}
		}
	})
}

// TestSetToFieldsV1TextOrders: the same set in the two orders the server answers — numbers
// in keys, values and indexes by value and the groups f:, k:, v:, i: in element order (a
// built-in kind); every key as a string in byte order (a custom resource).
func TestSetToFieldsV1TextOrders(t *testing.T) {
	ports := `{"f:spec":{"f:ports":{` +
		`"k:{\"port\":9,\"protocol\":\"TCP\"}":{},"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}},` +
		`"k:{\"port\":443,\"protocol\":\"TCP\"}":{},"k:{\"port\":8125,\"protocol\":\"UDP\"}":{}}}}`
	for _, tc := range []struct {
		name, in, elements, bytes string
	}{{
		name:     "keys",
		in:       ports,
		elements: ports,
		bytes: `{"f:spec":{"f:ports":{"k:{\"port\":443,\"protocol\":\"TCP\"}":{},"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}},` +
			`"k:{\"port\":8125,\"protocol\":\"UDP\"}":{},"k:{\"port\":9,\"protocol\":\"TCP\"}":{}}}}`,
	}, {
		name:     "values",
		in:       `{"f:codes":{"v:443":{},"v:80":{},"v:9":{},"v:-1":{},"v:\"a\"":{}}}`,
		elements: `{"f:codes":{"v:-1":{},"v:9":{},"v:80":{},"v:443":{},"v:\"a\"":{}}}`,
		bytes:    `{"f:codes":{"v:\"a\"":{},"v:-1":{},"v:443":{},"v:80":{},"v:9":{}}}`,
	}, {
		name:     "indexes",
		in:       `{"f:args":{"i:10":{},"i:2":{"f:x":{}},"i:0":{}}}`,
		elements: `{"f:args":{"i:0":{},"i:2":{"f:x":{}},"i:10":{}}}`,
		bytes:    `{"f:args":{"i:0":{},"i:10":{},"i:2":{"f:x":{}}}}`,
	}, {
		name:     "groups",
		in:       `{"i:1":{},"v:2":{},"k:{\"a\":3}":{},"f:z":{}}`,
		elements: `{"f:z":{},"k:{\"a\":3}":{},"v:2":{},"i:1":{}}`,
		bytes:    `{"f:z":{},"i:1":{},"k:{\"a\":3}":{},"v:2":{}}`,
	}, {
		name:     "names",
		in:       `{"f:data":{"f:a9":{},"f:a10":{},"f:B":{},"f:a\u003cb":{}}}`,
		elements: `{"f:data":{"f:B":{},"f:a10":{},"f:a9":{},"f:a\u003cb":{}}}`,
		bytes:    `{"f:data":{"f:B":{},"f:a10":{},"f:a9":{},"f:a\u003cb":{}}}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			set, err := FieldsV1ToSet([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []struct {
				order Order
				want  string
			}{{OrderElements, tc.elements}, {OrderBytes, tc.bytes}} {
				got, err := SetToFieldsV1Text(set, TextJSONIter, o.order)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != o.want {
					t.Errorf("%v:\n got %s\nwant %s", o.order, got, o.want)
				}
			}
		})
	}
}
