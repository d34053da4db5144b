package jsontext

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// same checks Compact and Indent against encoding/json: the same text, or an error for both,
// and dst left as encoding/json leaves it. Indenting text nested thousands deep writes
// hundreds of megabytes: such text is compacted only.
func same(t *testing.T, src []byte, prefix, indent string) {
	t.Helper()
	checks := []struct {
		name       string
		ours, json func(*bytes.Buffer, []byte) error
	}{
		{"Compact", Compact, json.Compact},
		{"Indent", func(b *bytes.Buffer, s []byte) error { return Indent(b, s, prefix, indent) },
			func(b *bytes.Buffer, s []byte) error { return json.Indent(b, s, prefix, indent) }},
	}
	if bytes.Count(src, []byte("[")) > 1000 || bytes.Count(src, []byte("{")) > 1000 {
		checks = checks[:1]
	}
	for _, c := range checks {
		var got, want bytes.Buffer
		got.WriteString("kept ")
		want.WriteString("kept ")
		err, wantErr := c.ours(&got, src), c.json(&want, src)
		if (err != nil) != (wantErr != nil) || got.String() != want.String() {
			t.Fatalf("%s(%q, %q, %q) = %q, %v; encoding/json: %q, %v", c.name, src, prefix, indent, got.String(), err, want.String(), wantErr)
		}
	}
}

// sameIndentAt checks AppendIndent against json.Compact then json.Indent with the prefix
// of an element depth levels deep: the same text when encoding/json compacts src, and
// false (dst as given) when it refuses it; or false when src nests past maxDepth.
func sameIndentAt(t *testing.T, src []byte, prefix, indent string, depth int) {
	t.Helper()
	got, ok := AppendIndent([]byte("kept "), src, prefix, indent, depth)
	var compact, want bytes.Buffer
	want.WriteString("kept ")
	if json.Compact(&compact, src) != nil {
		if ok || string(got) != "kept " {
			t.Fatalf("AppendIndent(%q) = %q, true; json.Compact refuses it", src, got)
		}
		return
	}
	if !ok {
		if depth+bytes.Count(src, []byte("["))+bytes.Count(src, []byte("{")) < maxDepth {
			t.Fatalf("AppendIndent(%q, depth %d) = false; json.Compact takes it", src, depth)
		}
		return
	}
	if err := json.Indent(&want, compact.Bytes(), prefix+strings.Repeat(indent, depth), indent); err != nil {
		t.Fatal(err)
	}
	if got := string(got); got != want.String() {
		t.Fatalf("AppendIndent(%q, %q, %q, %d) = %q; json.Compact then json.Indent: %q", src, prefix, indent, depth, got, want.String())
	}
}

// TestAppendIndentDeep: AppendIndent counts depth in the nesting it walks itself, and
// leaves dst as it was when the text goes past it.
func TestAppendIndentDeep(t *testing.T) {
	if got, ok := AppendIndent([]byte("kept"), []byte(" [[1]] "), "", "", maxDepth-1); ok || string(got) != "kept" {
		t.Errorf("AppendIndent at depth %d = %q, %v; want kept, false", maxDepth-1, got, ok)
	}
	if got, ok := AppendIndent([]byte("kept"), []byte(" [[1]] "), "", "", maxDepth-2); !ok || string(got) != "kept[\n[\n1\n]\n]" {
		t.Errorf("AppendIndent at depth %d = %q, %v", maxDepth-2, got, ok)
	}
}

var cases = []string{
	`{}`, `[]`, ` { "a" : [ 1 , -2.5e+3 , "x\"y\\z\/\b\f\n\r\t\u00e9\uD83D" , true , false , null , { } , [ ] ] } `,
	`{"a":{"b":[{"c":1},{"d":[]}]},"e":"f"}`, "{\"a\":\"\xff\xfe\"}", "{\"a\":\"\x01\"}", `{"a":"\x"}`, `{"a":"\u12"}`,
	`{"a":"\u12g4"}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":.1}`, `{"a":1e}`, `{"a":1e+}`, `{"a":+1}`, `{"a":tru}`,
	`{"a":nulll}`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":1}}`, `{"a":1} x`, `{"a":1}{}`, ``, ` `, `"s"`, `1`, `-0`,
	`0.0e-0`, `[`, `{"a":`, `{"a"`, `{"a":"`, "{\n\t\"a\": [\r\n1]\n}\n", "[1]\n\n", "  [1] \t", `{1:2}`, `[1 2]`,
	`[1:2]`, `{"a","b"}`, `{"a":1:2}`, `{"a":"\u0000"}`, `{"":{"":[[[]]]}}`, "\ufeff{}", `{"a":1e400}`, `"\u2028<>&"`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	`{"a":` + strings.Repeat(`{"b":`, 9998) + `1` + strings.Repeat(`}`, 9999),
}

func TestSameAsEncodingJSON(t *testing.T) {
	var srcs [][]byte
	for _, c := range cases {
		srcs = append(srcs, []byte(c))
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
		var compact bytes.Buffer
		if json.Compact(&compact, data) == nil {
			srcs = append(srcs, compact.Bytes())
		}
		srcs = append(srcs, data)
	}
	for _, src := range srcs {
		for _, layout := range [][2]string{{"", "  "}, {"    ", "  "}, {"", ""}, {">", "\t"}} {
			same(t, src, layout[0], layout[1])
			if bytes.Count(src, []byte("[")) <= 1000 && bytes.Count(src, []byte("{")) <= 1000 {
				for _, depth := range []int{0, 1, 3} {
					sameIndentAt(t, src, layout[0], layout[1], depth)
				}
			}
		}
	}
}

// FuzzJSONText holds Compact, Indent and AppendIndent to encoding/json on any bytes.
func FuzzJSONText(f *testing.F) {
	for _, c := range cases[:len(cases)-3] {
		f.Add([]byte(c), "    ", "  ", uint8(2))
	}
	f.Fuzz(func(t *testing.T, src []byte, prefix, indent string, depth uint8) {
		same(t, src, prefix, indent)
		if bytes.Count(src, []byte("[")) <= 1000 && bytes.Count(src, []byte("{")) <= 1000 {
			sameIndentAt(t, src, prefix, indent, int(depth))
		}
	})
}

// BenchmarkRewrite compacts and indents a live Deployment as the API server writes it
// (managedFields, the last-applied annotation, five containers): Compact takes it indented
// as a cluster dump has it, Indent takes it compact (about 27 KiB) as ssa-diff keeps it.
func BenchmarkRewrite(b *testing.B) {
	compact, err := os.ReadFile("testdata/deployment.json")
	if err != nil {
		b.Fatal(err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, compact, "", "  "); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		src     []byte
		rewrite func(*bytes.Buffer, []byte) error
	}{
		{"Compact", indented.Bytes(), Compact},
		{"Indent", compact, func(dst *bytes.Buffer, src []byte) error { return Indent(dst, src, "", "  ") }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var dst bytes.Buffer
			b.SetBytes(int64(len(c.src)))
			b.ReportAllocs()
			for b.Loop() {
				dst.Reset()
				if err := c.rewrite(&dst, c.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestStringCache: equal short texts get one string; texts that share a slot each get
// their own value, however they alternate; long texts are not kept.
func TestStringCache(t *testing.T) {
	var c StringCache
	a1, a2 := c.get([]byte("abcd")), c.get([]byte("abcd"))
	if a1 != "abcd" || unsafe.StringData(a1) != unsafe.StringData(a2) {
		t.Errorf("get(abcd) twice: %q and %q, not one string", a1, a2)
	}
	// Same length, first, middle and last bytes: the same slot.
	for _, s := range []string{"axcd", "abcd", "axcd", "", "abcd"} {
		if got := c.get([]byte(s)); got != s {
			t.Errorf("get(%q) = %q", s, got)
		}
	}
	long := strings.Repeat("k", maxCachedString+1)
	if l1, l2 := c.get([]byte(long)), c.get([]byte(long)); l1 != long || unsafe.StringData(l1) == unsafe.StringData(l2) {
		t.Errorf("get of a text past maxCachedString: %q, kept: %v", l1, unsafe.StringData(l1) == unsafe.StringData(l2))
	}
	// Through a Scanner: keys and values, escaped or not.
	s := NewScanner([]byte(`{"name":"TCP","na\u006de":"TCP"}`))
	s.Strings = &c
	m := map[string]any{}
	if !s.Members(m, func(string) (any, bool) { return s.String() }) || len(m) != 1 || m["name"] != "TCP" {
		t.Errorf("Object with a StringCache: %v", m)
	}
}

// sameCanonicalSet holds CanonicalSet to encoding/json: the text it takes is a field set
// (objects of objects) that json.Marshal writes back as it is, and the text it refuses is
// not, but for keys beyond printable ASCII or with escapes other than \" and \\ (\b, \f,
// \n …, which it refuses too) and nesting past maxDepth.
func sameCanonicalSet(t *testing.T, text []byte, maxDepth int) {
	t.Helper()
	s := NewScanner(text)
	got, ok := s.CanonicalSet(1, maxDepth)
	if !ok && s.pos != 0 {
		t.Fatalf("CanonicalSet(%q) refused it at %d, not where it started", text, s.pos)
	}
	if ok && !bytes.Equal(got, text[:s.pos]) {
		t.Fatalf("CanonicalSet(%q) = %q, not the text it read", text, got)
	}
	// What encoding/json says of the text CanonicalSet read, or of all of it.
	read := text
	if ok {
		read = got
	}
	var tree any
	isSet := json.Unmarshal(read, &tree) == nil && fieldSet(tree, 1, maxDepth)
	canonical := false
	if isSet {
		b, err := json.Marshal(tree)
		canonical = err == nil && bytes.Equal(b, read)
	}
	switch {
	case ok && !canonical:
		t.Fatalf("CanonicalSet took %q; encoding/json: a field set %v, written back as it is %v", got, isSet, canonical)
	case !ok && canonical && printableASCII(read) && !otherEscapes(read):
		t.Fatalf("CanonicalSet refused %q, which encoding/json writes back as it is", text)
	}
}

func printableASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// otherEscapes reports whether text holds an escape other than \" and \\.
func otherEscapes(text []byte) bool {
	for i := 0; i+1 < len(text); i++ {
		if text[i] == '\\' {
			if text[i+1] != '"' && text[i+1] != '\\' {
				return true
			}
			i++
		}
	}
	return false
}

// fieldSet reports whether v is a map of maps nested at most maxDepth deep, v at depth.
func fieldSet(v any, depth, maxDepth int) bool {
	m, ok := v.(map[string]any)
	if !ok || depth > maxDepth {
		return false
	}
	for _, c := range m {
		if !fieldSet(c, depth+1, maxDepth) {
			return false
		}
	}
	return true
}

var setCases = []string{
	`{}`, `{"f:a":{}}`, `{".":{},"f:a":{},"k:{\"name\":\"x\"}":{".":{},"f:name":{}}}`, `{"f:b":{},"f:a":{}}`,
	`{"f:a":{},"f:a":{}}`, `{"a\\b":{},"a\"b":{}}`, `{"a\"b":{},"a\\b":{}}`, `{"a":{}, "b":{}}`, ` {"a":{}}`,
	`{"a":1}`, `{"a":{"b":[]}}`, `{"<":{}}`, `{"\u0041":{}}`, `{"\/":{}}`, "{\"\x7f\":{}}", "{\"é\":{}}",
	`{"a":{}}x`, `{"a":{}`, `{"a":{},}`, `{"":{},"a":{}}`, `{"a":{"b":{"c":{}}}}`, `{"k:{\"a\":1}":{},"k:{\"a\":2}":{}}`,
	`{"k:{\"port\":80,\"protocol\":\"TCP\"}":{},"k:{\"port\":9090,\"protocol\":\"TCP\"}":{}}`, `{"ab":{},"a":{}}`, `{"a":{},"ab":{}}`,
}

func TestCanonicalSet(t *testing.T) {
	for _, c := range setCases {
		for _, maxDepth := range []int{1, 2, 3, 100} {
			sameCanonicalSet(t, []byte(c), maxDepth)
		}
	}
	// Field sets as the API server writes them: every fieldsV1 of the recorded cases.
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	taken := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj struct {
			Metadata struct {
				ManagedFields []struct {
					FieldsV1 json.RawMessage `json:"fieldsV1"`
				} `json:"managedFields"`
			} `json:"metadata"`
		}
		if json.Unmarshal(data, &obj) != nil {
			continue
		}
		for _, e := range obj.Metadata.ManagedFields {
			var compact bytes.Buffer
			if json.Compact(&compact, e.FieldsV1) != nil {
				continue
			}
			sameCanonicalSet(t, compact.Bytes(), 1000)
			s := NewScanner(compact.Bytes())
			if _, ok := s.CanonicalSet(1, 1000); ok {
				taken++
			}
		}
	}
	if taken < 50 {
		t.Fatalf("CanonicalSet took %d fieldsV1 of the recorded cases", taken)
	}
}

// FuzzCanonicalSet holds CanonicalSet to encoding/json on any text.
func FuzzCanonicalSet(f *testing.F) {
	for _, c := range setCases {
		f.Add([]byte(c), 100)
	}
	f.Fuzz(func(t *testing.T, text []byte, maxDepth int) {
		if maxDepth < 1 || maxDepth > 10000 {
			return
		}
		sameCanonicalSet(t, text, maxDepth)
	})
}
