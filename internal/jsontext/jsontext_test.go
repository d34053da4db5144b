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
	if !s.Object(m, func() (any, bool) { return s.String() }) || len(m) != 1 || m["name"] != "TCP" {
		t.Errorf("Object with a StringCache: %v", m)
	}
}
