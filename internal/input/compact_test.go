package input

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sameCompact checks compactJSON against json.Compact: the same text, or an error for both.
func sameCompact(t *testing.T, data []byte) {
	t.Helper()
	var got, want bytes.Buffer
	got.WriteString("kept ")
	want.WriteString("kept ")
	err, wantErr := compactJSON(&got, data), json.Compact(&want, data)
	if (err != nil) != (wantErr != nil) || got.String() != want.String() {
		t.Fatalf("compactJSON(%q) = %q, %v; json.Compact: %q, %v", data, got.String(), err, want.String(), wantErr)
	}
}

var compactCases = []string{
	`{}`, ` { "a" : [ 1 , -2.5e+3 , "x\"y\\z\/\b\f\n\r\t\u00e9\uD83D" , true , false , null , { } , [ ] ] } `,
	"{\"a\":\"\xff\xfe\"}", "{\"a\":\"\x01\"}", `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`,
	`{"a":.1}`, `{"a":1e}`, `{"a":1e+}`, `{"a":+1}`, `{"a":tru}`, `{"a":nulll}`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":1}}`, `{"a":1} x`,
	`{"a":1}{}`, ``, ` `, `"s"`, `1`, `-0`, `0.0e-0`, `[`, `{"a":`, `{"a"`, `{"a":"`, "{\n\t\"a\": [\r\n1]\n}\n", `{1:2}`, `[1 2]`,
	`{"a":"\u0000"}`, `{"":{"":[[[]]]}}`, "\ufeff{}", `{"a":1e400}`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	`{"a":` + strings.Repeat(`{"b":`, 9998) + `1` + strings.Repeat(`}`, 9999),
}

func TestCompactJSONSameAsJSONCompact(t *testing.T) {
	for _, c := range compactCases {
		sameCompact(t, []byte(c))
	}
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	if len(files) < 50 {
		t.Fatalf("only %d recorded files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameCompact(t, data)
	}
}

// FuzzCompactJSON holds compactJSON to json.Compact on any bytes.
func FuzzCompactJSON(f *testing.F) {
	for _, c := range compactCases[:len(compactCases)-3] {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameCompact(t, data)
	})
}
