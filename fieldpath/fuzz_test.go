package fieldpath

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// FuzzFieldsV1 checks that any fieldsV1 that decodes encodes to a set that decodes to the
// same set, and that decoding never panics.
func FuzzFieldsV1(f *testing.F) {
	for _, s := range []string{`{}`, `{"f:data":{".":{},"f:a":{}}}`,
		`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}`,
		`{"f:metadata":{"f:finalizers":{"v:\"x\"":{}}}}`, `{"i:3":{}}`, `{"f:a":{}}{}`} {
		f.Add([]byte(s))
	}
	// Found by the fuzzer: invalid UTF-8 in a set value settles after one round trip.
	f.Add([]byte("{\"f:\":{\"f:\":{\"v:\\\"\xff\\\"\":{}}}}"))
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
		enc2, _ := SetToFieldsV1(s2)
		// Invalid UTF-8 in a key decodes to raw bytes and encodes as U+FFFD (as the server's
		// own code does): such input settles after one round trip. Valid input must come back
		// as the same set and the same bytes at once.
		if utf8.Valid(raw) {
			if !s.Equals(s2) {
				t.Fatalf("round trip changed the set: %s", enc)
			}
			if !bytes.Equal(enc, enc2) {
				t.Fatalf("encoding not stable: %s vs %s", enc, enc2)
			}
			return
		}
		s3, err := FieldsV1ToSet(enc2)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", enc2, err)
		}
		if enc3, _ := SetToFieldsV1(s3); !bytes.Equal(enc2, enc3) {
			t.Fatalf("encoding does not settle: %s vs %s", enc2, enc3)
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

// FuzzManagerKey checks ManagerKey and ParseManagerKey against encoding/json, which they
// skip for plain strings: the same key for any entry, and the same reading of any key.
func FuzzManagerKey(f *testing.F) {
	f.Add("kubectl", "Apply", "apps/v1", "", `{"manager":"kubectl","operation":"Apply"}`)
	f.Add("hpa", "Update", "autoscaling/v2", "scale", `{"manager":"a","operation":"Update","apiVersion":"v1","subresource":"status"}`)
	f.Add("a<b>&c", "Update", "v1", "status", `{"manager":"a\u003cb","operation":"Update"}`)
	f.Add("é\x00\xff\u2028", "", "", "", `{"Manager":"m"}`)
	f.Add("", "Update", "", "", `{"manager":"a","manager":"b"}`)
	f.Add("m\"", "Apply", "", "", `{"operation":"Apply","manager":"m"}`)
	f.Add("m", "Apply", "", "", `{}`)
	f.Fuzz(func(t *testing.T, manager, operation, apiVersion, subresource, key string) {
		e := Entry{Manager: manager, Operation: Operation(operation), APIVersion: apiVersion, Subresource: subresource}
		if got, want := ManagerKey(e), managerKeyByJSON(e); got != want {
			t.Errorf("ManagerKey(%+v) = %s, encoding/json writes %s", e, got, want)
		}
		for _, k := range []string{key, ManagerKey(e)} {
			got, err := ParseManagerKey(k)
			want, wantErr := parseManagerKeyByJSON(k)
			if (err != nil) != (wantErr != nil) || got != want {
				t.Errorf("ParseManagerKey(%q) = %+v, %v; encoding/json reads %+v, %v", k, got, err, want, wantErr)
			}
		}
	})
}

func managerKeyByJSON(e Entry) string {
	if e.Operation == OperationApply {
		e.APIVersion = ""
	}
	b, err := json.Marshal(struct {
		Manager     string    `json:"manager,omitempty"`
		Operation   Operation `json:"operation,omitempty"`
		APIVersion  string    `json:"apiVersion,omitempty"`
		Subresource string    `json:"subresource,omitempty"`
	}{e.Manager, e.Operation, e.APIVersion, e.Subresource})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func parseManagerKeyByJSON(key string) (ManagerRef, error) {
	var e Entry
	if err := json.Unmarshal([]byte(key), &e); err != nil {
		return ManagerRef{}, err
	}
	return e.Ref(), nil
}

// FuzzIterateLeaves: IterateLeaves gives the paths of Leaves().Iterate, in its order, for
// any set fieldsV1 decodes to.
func FuzzIterateLeaves(f *testing.F) {
	for _, s := range []string{`{}`, `{"f:data":{".":{},"f:a":{}}}`, `{"f:a":{".":{}},"f:b":{}}`,
		`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}`,
		`{"f:metadata":{"f:finalizers":{"v:\"x\"":{}},"f:labels":{".":{},"f:a":{".":{},"f:b":{}}}}}`, `{"i:3":{},"i:1":{"f:x":{}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := FieldsV1ToSet(raw)
		if err != nil {
			return
		}
		var want, got []string
		s.Leaves().Iterate(func(p smdpath.Path) { want = append(want, p.String()) })
		IterateLeaves(s, func(p smdpath.Path) { got = append(got, p.String()) })
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("IterateLeaves:\n%s\nLeaves().Iterate:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// FuzzPathString holds PathString to structured-merge-diff's Path.String on paths of every
// kind of element, keys and set values of every kind of value.
func FuzzPathString(f *testing.F) {
	f.Add("containers", "name", "a\"b", int64(80), 2.5, 3, uint8(0))
	f.Add("", "", "\xff\u2028", int64(-1), 80.0, -1, uint8(255))
	f.Fuzz(func(t *testing.T, field, key, s string, n int64, x float64, index int, kinds uint8) {
		var values = []any{s, n, x, kinds&1 == 0, nil, []any{s, n}, map[string]any{key: s}}
		v := values[int(kinds)%len(values)]
		w := values[int(kinds/8)%len(values)]
		for _, p := range []smdpath.Path{
			smdpath.MakePathOrDie(field, index, field),
			{smdpath.PathElement{FieldName: &field}, smdpath.PathElement{Key: &value.FieldList{{Name: key, Value: value.NewValueInterface(v)}, {Name: field, Value: value.NewValueInterface(w)}}}},
			{smdpath.PathElement{Value: ptrTo(value.NewValueInterface(v))}, smdpath.PathElement{Index: &index}},
		} {
			if got, want := PathString(p), p.String(); got != want {
				t.Fatalf("PathString = %q, structured-merge-diff prints %q", got, want)
			}
		}
	})
}

func ptrTo[T any](v T) *T { return &v }
