package fieldpath

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzFieldsV1 checks that any fieldsV1 that decodes encodes to a set that decodes to the
// same set, and that decoding never panics.
func FuzzFieldsV1(f *testing.F) {
	for _, s := range []string{`{}`, `{"f:data":{".":{},"f:a":{}}}`,
		`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}`,
		`{"f:metadata":{"f:finalizers":{"v:\"x\"":{}}}}`, `{"i:3":{}}`, `{"f:a":{}}{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := FieldsV1ToSet(raw)
		if err != nil {
			return
		}
		enc, err := SetToFieldsV1(s)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		s2, err := FieldsV1ToSet(enc)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", enc, err)
		}
		if !s.Equals(s2) {
			t.Fatalf("round trip changed the set: %s", enc)
		}
		enc2, _ := SetToFieldsV1(s2)
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not stable: %s vs %s", enc, enc2)
		}
	})
}

// FuzzManagedFields decodes arbitrary managedFields JSON; whatever decodes must encode,
// and encoding must be deterministic.
func FuzzManagedFields(f *testing.F) {
	f.Add([]byte(`[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}}]`))
	f.Add([]byte(`[{"manager":"a","operation":"Update","apiVersion":"apps/v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"},{}]`))
	f.Add([]byte(`[{"operation":"Bogus"}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var entries []Entry
		if json.Unmarshal(raw, &entries) != nil {
			return
		}
		m, err := Decode(entries)
		if err != nil {
			return
		}
		a, err := m.Encode()
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		b, _ := m.Encode()
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("encoding not deterministic")
		}
		m2, err := Decode(a)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !m2.Fields.Equals(m.Fields) {
			t.Fatalf("round trip changed the sets")
		}
	})
}
