package fieldpath

import (
	"bytes"
	"testing"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// smdFieldsV1ToSet is structured-merge-diff's own reader, which FieldsV1ToSet must match.
func smdFieldsV1ToSet(raw []byte) (*smdpath.Set, error) {
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	set := &smdpath.Set{}
	if err := set.FromJSON(bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	return set, nil
}

// sameAsStructuredMergeDiff fails t unless FieldsV1ToSet answers for raw what
// structured-merge-diff's reader answers: the same error, or equal sets that encode alike.
func sameAsStructuredMergeDiff(t *testing.T, raw []byte) {
	t.Helper()
	want, wantErr := smdFieldsV1ToSet(raw)
	got, err := FieldsV1ToSet(raw)
	if direct, ok := readFieldsV1(raw); ok && wantErr != nil {
		t.Fatalf("%q: read directly (%v), structured-merge-diff refuses: %v", raw, direct, wantErr)
	}
	if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
		t.Fatalf("%q: error %v, structured-merge-diff's %v", raw, err, wantErr)
	}
	if err != nil {
		return
	}
	if !got.Equals(want) {
		t.Fatalf("%q: set %v, structured-merge-diff's %v", raw, got, want)
	}
	a, err1 := got.ToJSON()
	b, err2 := want.ToJSON()
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		t.Fatalf("%q: encodes as %s (%v), structured-merge-diff's as %s (%v)", raw, a, err1, b, err2)
	}
}

var fieldsV1ReadCases = []string{deploymentFieldsV1,
	``, `{}`, ` { } `, `{".":{}}`, `null`, `[]`, `{"f:a":{}}`, `{"f:a":{}} `, `{"f:a":{}}{}`, `{"f:a":{}},`,
	`{"f:data":{".":{},"f:a":{}}}`, `{"f:a":{".":{}}}`, `{"f:a":{".":{},".":{}}}`, `{"f:a":{".":{"f:b":{}}}}`,
	`{"f:a":{".":null}}`, `{"f:a":null}`, `{"f:a":1}`, `{"f:a":{"f:b":[]}}`, `{"x:a":{}}`, `{"a":{}}`, `{"":{}}`,
	`{"f:a":{},"f:a":{}}`, `{"f:a":{"f:b":{}},"f:a":{"f:c":{}}}`, `{"f:a":{},"f:a":{"f:c":{}}}`,
	`{"f:a":{"f:c":{}},"f:a":{}}`, `{"f:a":{".":{}},"f:a":{"f:c":{}}}`, `{"f:a":{"f:c":{}},"f:a":{".":{}}}`,
	`{"f:b":{},"f:a":{}}`, `{"f:b":{"f:x":{}},"f:a":{"f:y":{}}}`,
	`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}`,
	`{"f:ports":{"k:{\"port\":9}":{},"k:{\"port\":10}":{".":{},"f:name":{}}}}`,
	`{"f:metadata":{"f:finalizers":{"v:\"x\"":{},"v:\"a\"":{}}}}`, `{"i:3":{},"i:10":{},"f:z":{}}`,
	`{"k:{\"port\":}":{}}`, `{"v:1 2":{}}`, `{"f:\u0061":{}}`, `{"f:\ud800":{}}`, "{\"f:\xff\":{}}",
	"{\"f:a\"\t:\n{ \"f:b\" : { } } }", `{"f:a":{}`, `{"f:a":{"f:b":{}}`,
}

// TestFieldsV1ToSetSameAsStructuredMergeDiff: the direct reader answers as
// structured-merge-diff's, on recorded entries and on text made to find its edges.
func TestFieldsV1ToSetSameAsStructuredMergeDiff(t *testing.T) {
	for _, c := range fieldsV1ReadCases {
		sameAsStructuredMergeDiff(t, []byte(c))
	}
	for _, c := range []string{`{}`, `{"f:a":{}}`, `{"f:a":{".":{},"f:b":{}}}`,
		`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{}}}}}`} {
		if _, ok := readFieldsV1([]byte(c)); !ok {
			t.Errorf("%s: not read directly", c)
		}
	}
}

// FuzzFieldsV1ToSet holds FieldsV1ToSet to structured-merge-diff's reader on any text.
func FuzzFieldsV1ToSet(f *testing.F) {
	for _, c := range fieldsV1ReadCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { sameAsStructuredMergeDiff(t, raw) })
}

// deploymentFieldsV1 is a Deployment's entry as kubectl's apply records it.
const deploymentFieldsV1 = `{"f:metadata":{"f:annotations":{".":{},"f:deployment.kubernetes.io/revision":{}},"f:labels":{".":{},"f:app":{}}},` +
	`"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":` +
	`{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},` +
	`"f:containerPort":{},"f:protocol":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},` +
	`"f:memory":{}}}}}}}}}`

// BenchmarkFieldsV1ToSet reads a Deployment's entry by the direct reader (direct) and by
// structured-merge-diff's (smd).
func BenchmarkFieldsV1ToSet(b *testing.B) {
	raw := []byte(deploymentFieldsV1)
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := FieldsV1ToSet(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("smd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := smdFieldsV1ToSet(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
