package fieldpath

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// sameDecoding fails unless got reads as want in everything a reader of decoded field sets
// can see: the identities, versions and kinds of entry, the times (the same pointers), and
// each set's members, children, leaves and paths as printed and encoded.
func sameDecoding(t *testing.T, got, want Managed) {
	t.Helper()
	if len(got.Fields) != len(want.Fields) || len(got.Times) != len(want.Times) {
		t.Fatalf("%d sets and %d times, want %d and %d", len(got.Fields), len(got.Times), len(want.Fields), len(want.Times))
	}
	for key, w := range want.Fields {
		g, ok := got.Fields[key]
		if !ok {
			t.Fatalf("no set for %s", key)
		}
		if g.APIVersion() != w.APIVersion() || g.Applied() != w.Applied() {
			t.Fatalf("%s: %s applied=%v, want %s applied=%v", key, g.APIVersion(), g.Applied(), w.APIVersion(), w.Applied())
		}
		if !g.Set().Equals(w.Set()) {
			t.Fatalf("%s: set %s, want %s", key, g.Set(), w.Set())
		}
		if gs, ws := g.Set().String(), w.Set().String(); gs != ws {
			t.Fatalf("%s: printed %s, want %s", key, gs, ws)
		}
		if gl, wl := g.Set().Leaves().String(), w.Set().Leaves().String(); gl != wl {
			t.Fatalf("%s: leaves %s, want %s", key, gl, wl)
		}
		gj, _ := g.Set().ToJSON()
		wj, _ := w.Set().ToJSON()
		if !bytes.Equal(gj, wj) {
			t.Fatalf("%s: encoded %s, want %s", key, gj, wj)
		}
		if got.Times[key] != want.Times[key] {
			t.Fatalf("%s: time %v, want %v", key, got.Times[key], want.Times[key])
		}
	}
}

// FuzzEncodeDecoded: whenever EncodeDecoded vouches for its Managed, decoding the entries
// it wrote gives the same; sets the way the engine builds them (integer keys, empty
// children, identities out of step with their sets) are mixed into decoded ones.
func FuzzEncodeDecoded(f *testing.F) {
	f.Add([]byte(`[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}}]`), int64(8080), "TCP", uint8(0))
	f.Add([]byte(`[{"manager":"a","operation":"Update","apiVersion":"apps/v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"},{"manager":"b","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}}}}]`), int64(1000000), "x", uint8(1))
	f.Add([]byte(`[{"manager":"m","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]`), int64(-5), "\xff", uint8(2))
	f.Add([]byte(`[{"manager":"m","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}]`), int64(3), "y", uint8(3))
	f.Add([]byte(`[{"manager":"m","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"v:1.5":{},"v:null":{},"v:true":{}}}]`), int64(7), "z", uint8(4))
	f.Add([]byte(`[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}}]`), int64(1), "b", uint8(7))
	f.Fuzz(func(t *testing.T, raw []byte, n int64, s string, shape uint8) {
		var entries []Entry
		if json.Unmarshal(raw, &entries) != nil {
			return
		}
		m, err := Decode(entries)
		if err != nil || len(m.Fields) == 0 {
			return
		}
		// Change one set as the engine would.
		key := sortedKeys(m)[int(shape)%len(m.Fields)]
		vs := m.Fields[key]
		set := vs.Set().Copy()
		name := "port"
		switch shape % 5 {
		case 0: // an integer key, a string beside it
			set.Insert(smdpath.Path{smdpath.PathElement{FieldName: &name}, smdpath.PathElement{Key: &value.FieldList{
				{Name: "port", Value: value.NewValueInterface(n)}, {Name: "protocol", Value: value.NewValueInterface(s)}}}})
		case 1: // an integer set value
			set.Insert(smdpath.Path{smdpath.PathElement{FieldName: &s}, smdpath.PathElement{Value: ptr(value.NewValueInterface(n))}})
		case 2: // an empty child
			set.Children.Descend(smdpath.PathElement{FieldName: &s})
		case 3: // an identity its set does not match: the Update entry at another version
			vs = smdpath.NewVersionedSet(set, vs.APIVersion()+"x", vs.Applied())
		case 4: // keys out of order
			set.Insert(smdpath.Path{smdpath.PathElement{Key: &value.FieldList{
				{Name: "b", Value: value.NewValueInterface(s)}, {Name: "a", Value: value.NewValueInterface(n)}}}})
		}
		if shape%5 != 3 {
			vs = smdpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
		}
		m.Fields[key] = vs
		now := time.Date(2026, 12, 5, 0, 0, 0, int(n&0xffff), time.UTC)
		m.Times[key] = &now
		enc, got, ok, err := m.EncodeDecoded()
		if err != nil {
			return // Encode's own refusals (a float it cannot write)
		}
		want, derr := Decode(enc)
		if !ok {
			return
		}
		if derr != nil {
			t.Fatalf("vouched for entries Decode refuses: %v", derr)
		}
		sameDecoding(t, got, want)
		// The same with canonical text: each fieldsV1 what CanonicalFieldsV1 makes of
		// Encode's, and decoding them gives the same.
		text, gotText, okText, err := m.EncodeDecodedText()
		if err != nil || !okText || len(text) != len(enc) {
			t.Fatalf("text: %d entries, vouched %v, %v", len(text), okText, err)
		}
		for i := range text {
			canon, err := fieldsjson.CanonicalFieldsV1(enc[i].FieldsV1)
			if err != nil || !bytes.Equal(canon, text[i].FieldsV1) || ManagerKey(text[i]) != ManagerKey(enc[i]) {
				t.Fatalf("entry %d: %s, want %s (%v)", i, text[i].FieldsV1, canon, err)
			}
		}
		wantText, err := Decode(text)
		if err != nil {
			t.Fatal(err)
		}
		sameDecoding(t, gotText, wantText)
	})
}

func ptr[T any](v T) *T { return &v }

func sortedKeys(m Managed) []string {
	keys := make([]string, 0, len(m.Fields))
	for k := range m.Fields {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// TestEncodeDecodedRefuses: the shapes that do not read back as they are leave the entries
// to decoding.
func TestEncodeDecodedRefuses(t *testing.T) {
	big, small := int64(1_000_000), int64(999_999)
	field := func(s string) smdpath.PathElement { return smdpath.PathElement{FieldName: &s} }
	intKey := func(n int64) smdpath.PathElement {
		return smdpath.PathElement{Key: &value.FieldList{{Name: "port", Value: value.NewValueInterface(n)}}}
	}
	for _, c := range []struct {
		name string
		set  func() *smdpath.Set
		ok   bool
	}{
		{"plain", func() *smdpath.Set { return smdpath.NewSet(smdpath.Path{field("a"), intKey(small)}) }, true},
		{"a million", func() *smdpath.Set { return smdpath.NewSet(smdpath.Path{field("a"), intKey(big)}) }, false},
		{"empty child", func() *smdpath.Set {
			s := smdpath.NewSet(smdpath.Path{field("a")})
			s.Children.Descend(field("b"))
			return s
		}, false},
		{"invalid UTF-8", func() *smdpath.Set { return smdpath.NewSet(smdpath.Path{field("\xff")}) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := NewManaged()
			m.Fields[`{"manager":"m","operation":"Apply"}`] = smdpath.NewVersionedSet(c.set(), "v1", true)
			enc, got, ok, err := m.EncodeDecoded()
			if err != nil || ok != c.ok {
				t.Fatalf("ok %v, err %v; want ok %v", ok, err, c.ok)
			}
			if ok {
				want, err := Decode(enc)
				if err != nil {
					t.Fatal(err)
				}
				sameDecoding(t, got, want)
			}
		})
	}
}
