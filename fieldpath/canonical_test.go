package fieldpath

import (
	"bytes"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// FuzzCanonicalFieldsV1: the one pass writes what making SetToFieldsV1As's text canonical
// writes, in both texts, for sets decoded from any fieldsV1 and changed as the engine changes them
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
		}
	})
}
