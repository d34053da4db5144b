package input

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// decodeByJSON is what Object.Decode made of a text before decodeText: encoding/json, then
// normalize; ok false for an error.
func decodeByJSON(text []byte, maxDepth int) (map[string]any, bool) {
	v, _, err := decodeJSON(text)
	if err != nil {
		return nil, false
	}
	if v, err = normalize(v, maxDepth); err != nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// sameText checks decodeText against encoding/json: the same tree whenever decodeText
// takes the text, and never a text encoding/json refuses.
func sameText(t *testing.T, text []byte, maxDepth int) bool {
	t.Helper()
	got, ok := decodeText(text, maxDepth)
	if !ok {
		return false
	}
	want, wantOK := decodeByJSON(text, maxDepth)
	if !wantOK || !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeText(%q) = %#v; encoding/json: %#v, %v", text, got, want, wantOK)
	}
	return true
}

var textCases = []string{
	`{}`, `{"a":[]}`, `{"a":{}}`, ` {"a" : [ 1 , 2 ] } `, `{"a":1,"a":{"b":2}}`, `{"a":{"b":2},"a":[3]}`,
	`{"n":[0,-0,1,-1,9223372036854775807,9223372036854775808,-9223372036854775809,1.5,1e3,1E-3,-0.0,1e400,-1e400,12345678901234567890123]}`,
	`{"s":["","a\"b","\\","\/","\b\f\n\r\t","\u0000","\u00e9","\u20AC","\ud83d\ude00","\ud800","é","\u2028<>&"]}`,
	`{"b":[true,false,null]}`, `{"a":tru}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":1e}`, `{"a":+1}`,
	`{"a":"x`, `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12G4"}`, "{\"a\":\"\x01\"}", "{\"a\":\"\xff\"}", "{\"\xff\":1}",
	`{"a":1,}`, `{"a":[1,]}`, `{"a" 1}`, `{"a":1}x`, `{"a":1}{}`, `[1]`, `"a"`, `1`, ``, `{`, `{"a":[`, `{"a":{"b":{"c":{"d":1}}}}`,
	`{"a":[[[[[]]]]]}`, `{1:2}`, `{"a":nul}`, `{"a":[1 2]}`,
}

func TestDecodeTextSameAsJSON(t *testing.T) {
	taken := 0
	for _, c := range textCases {
		for _, depth := range []int{1, 2, 3, 1000} {
			if sameText(t, []byte(c), depth) {
				taken++
			}
		}
	}
	// The recorded cases' objects: what decodeText takes is most of what it meets.
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	objects := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := decodeByJSON(data, 1000); !ok {
			continue
		}
		objects++
		if !sameText(t, data, 1000) {
			t.Errorf("%s: decodeText left an object to encoding/json", f)
		}
	}
	if taken < 20 || objects < 50 {
		t.Fatalf("decodeText took %d cases and %d recorded objects", taken, objects)
	}
}

// FuzzDecodeText holds decodeText to encoding/json on any text.
func FuzzDecodeText(f *testing.F) {
	for _, c := range textCases {
		f.Add([]byte(c), 1000)
	}
	f.Add([]byte(`{"a":{"b":[1]}}`), 2)
	f.Fuzz(func(t *testing.T, text []byte, maxDepth int) {
		if maxDepth < 1 || maxDepth > HardMaxDepth {
			return
		}
		sameText(t, text, maxDepth)
	})
}

// escapePointer and unescapePointer are RFC 6901's escapes, as strings.Replacer makes them.
func TestPointerEscapes(t *testing.T) {
	escape := strings.NewReplacer("~", "~0", "/", "~1")
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	for _, s := range []string{"", "a", "app.kubernetes.io/name", "~", "/", "~/", "/~", "~0", "~1", "~01", "~10", "a~b/c~~//", "~2", "é/~"} {
		if got, want := escapePointer(s), escape.Replace(s); got != want {
			t.Errorf("escapePointer(%q) = %q, want %q", s, got, want)
		}
		if got, want := unescapePointer(s), unescape.Replace(s); got != want {
			t.Errorf("unescapePointer(%q) = %q, want %q", s, got, want)
		}
		if got := unescapePointer(escapePointer(s)); got != s {
			t.Errorf("unescapePointer(escapePointer(%q)) = %q", s, got)
		}
	}
}

// BenchmarkDecodeText decodes a live Deployment of about 27 KiB kept as compact text
// (managedFields, the last-applied annotation, five containers), as Object.Decode does for
// every live object of a prediction.
func BenchmarkDecodeText(b *testing.B) {
	text, err := os.ReadFile("../jsontext/testdata/deployment.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := decodeText(text, DefaultMaxDepth); !ok {
			b.Fatal("decodeText left the object to encoding/json")
		}
	}
}

// sameTextFieldsV1 holds decodeTextAs with fieldsV1 left as text to decodeText followed by
// compactManagedFields (what Decode did), and reports how many fieldsV1 it copied as
// text rather than decoded.
func sameTextFieldsV1(t *testing.T, text []byte, maxDepth int) int {
	t.Helper()
	got, ok := decodeTextAs(text, maxDepth, true)
	want, wantOK := decodeText(text, maxDepth)
	if ok != wantOK {
		t.Fatalf("decodeTextAs(%q, %d) reports %v; decodeText %v", text, maxDepth, ok, wantOK)
	}
	if !ok {
		return 0
	}
	copied := 0
	md, _ := got["metadata"].(map[string]any)
	entries, _ := md["managedFields"].([]any)
	for _, e := range entries {
		if e, ok := e.(map[string]any); ok {
			if _, ok := e["fieldsV1"].(json.RawMessage); ok {
				copied++
			}
		}
	}
	compactManagedFields(got)
	compactManagedFields(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeTextAs(%q, %d) = %#v; decodeText and compactManagedFields: %#v", text, maxDepth, got, want)
	}
	return copied
}

var fieldsV1Cases = []string{
	`{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}},{"fieldsV1":{"f:b":{},"f:a":{}}},{"fieldsV1":{"f:a":1}},{"fieldsV1":[]},{"fieldsV1":{}},[],1]}}`,
	`{"metadata":{"managedFields":[{"fieldsV1":{"k:{\"a\":1}":{".":{}}},"fieldsV1":{"f:x":{}}}]},"metadata":{"managedFields":[{"fieldsV1":{"f:y":{}}}]}}`,
	`{"metadata":{"managedFields":{"fieldsV1":{"f:a":{}}}},"spec":{"managedFields":[{"fieldsV1":{"f:a":{}}}]}}`,
	`{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{"f:b":{"f:c":{}}}}}]}}`, `{"metadata":{"managedFields":[{"fieldsV1":{"f:<":{}}}]}}`,
	`{"metadata":{"managedFields":[{"fieldsV1":{"f:a": {}}}]}}`, `{"metadata":{"managedFields":[{"fieldsV1":{"\u00e9":{}}}]}}`,
	`{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}}}]},"x":tru}`, `{"metadata":[],"managedFields":[{"fieldsV1":{"f:a":{}}}]}`,
}

func TestDecodeTextFieldsV1(t *testing.T) {
	for _, c := range append(fieldsV1Cases, textCases...) {
		for _, depth := range []int{1, 3, 5, 6, 7, 1000} {
			sameTextFieldsV1(t, []byte(c), depth)
		}
	}
	// Every recorded live object: each fieldsV1 the API server wrote is copied as text.
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	copied := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if json.Compact(&compact, data) != nil {
			continue
		}
		copied += sameTextFieldsV1(t, compact.Bytes(), DefaultMaxDepth)
	}
	if copied < 50 {
		t.Fatalf("only %d fieldsV1 of the recorded objects copied as text", copied)
	}
}

// FuzzDecodeTextFieldsV1 holds decodeTextAs with fieldsV1 left as text to decodeText and
// compactManagedFields on any text.
func FuzzDecodeTextFieldsV1(f *testing.F) {
	for _, c := range append(fieldsV1Cases, textCases...) {
		f.Add([]byte(c), 1000)
	}
	f.Add([]byte(fieldsV1Cases[3]), 6)
	f.Fuzz(func(t *testing.T, text []byte, maxDepth int) {
		if maxDepth < 1 || maxDepth > HardMaxDepth {
			return
		}
		sameTextFieldsV1(t, text, maxDepth)
	})
}
