package output

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

// checkEmit requires emitYAML to write obj as the YAML encoder path does, and to decline
// only what it is documented to decline. It reports whether emitYAML wrote it.
func checkEmit(t *testing.T, obj map[string]any) bool {
	t.Helper()
	want, err := renderYAMLMarshal(obj)
	got, ok := emitYAML(obj)
	if !ok {
		if plainValue(obj) && !awkwardKeys(obj) {
			t.Fatalf("emitYAML declined a plain object:\n%s", want)
		}
		return false
	}
	if err != nil {
		t.Fatalf("emitYAML wrote what the encoder path refuses (%v):\n%s", err, got)
	}
	if got != want {
		t.Fatalf("emitYAML differs from the encoder path:\n%s\nemitYAML:\n%q\nencoder:\n%q",
			unifiedBody(want, got, 3, palette{}), got, want)
	}
	return true
}

// awkwardKeys reports whether a map of v has a key the encoder writes as "? key" (over 128
// bytes or with a line break): emitYAML declines those.
func awkwardKeys(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if len(k) > yamlMaxSimpleKey || strings.ContainsAny(k, "\n\r") || awkwardKeys(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if awkwardKeys(x) {
				return true
			}
		}
	}
	return false
}

// emitCases are objects whose every scalar is one emitYAML must write itself.
var emitCases = []map[string]any{
	{},
	{"a": map[string]any{}, "b": []any{}, "c": nil, "d": []any{map[string]any{}, []any{}, nil}},
	{"l": []any{[]any{int64(1), []any{"x", map[string]any{"k": "v", "j": []any{"w"}}}}, map[string]any{"a": []any{int64(2)}, "b": map[string]any{"c": "d"}}}},
	{"ts": "2024-01-02T03:04:05Z", "date": "2024-1-2", "spaced": "2024-01-02 03:04:05", "notts": "2024-01-02x",
		"rv": "12345", "uid": "3f2a9c1e-0b4d-4f6e-9a8b-1c2d3e4f5a6b", "hex": "0x1F", "oct": "0o17", "bin": "0b101", "negbin": "-0b101",
		"under": "1_000", "float": "1.5e3", "dot": ".5", "dotword": ".hidden", "sign": "+", "dash": "-", "ver": "1.2.3",
		"b60": "1:30", "b60f": "-1:30:00.5", "notb60": "1:60", "time": "10:00", "inf": "-.inf", "nan": ".NaN",
		"y": "y", "Yes": "Yes", "on": "on", "off": "OFF", "tilde": "~", "null": "Null", "merge": "<<", "empty": ""},
	{"colon": "a: b", "colon2": "a:b", "hash": "a #b", "hash2": "a#b", "lead": " x", "trail": "x ", "q": "'q'", "dq": `"d"`,
		"bs": `a\b`, "tab": "a\tb", "cr": "a\rb", "nul": "a\x00b", "esc": "\x1b[0m", "del": "\x7f", "c1": "\u0080\u009f",
		"nbsp": "a\u00a0b", "fffe": "\ufffe", "emoji": "😀 ok", "snow": "☃", "acc": "é", "amp": "&a", "star": "*a",
		"bang": "!a", "pipe": "|", "gt": ">x", "pct": "%x", "at": "@x", "bt": "`x", "brace": "{x", "q?": "? x", "dashsp": "- x",
		"dashes": "---x", "dots": "...", "comma": ",", "brack": "[a]", "qm": "?x", "col": ":x"},
	{"lit": "l1\nl2\n", "lit-": "l1\nl2", "lit+": "l1\n\n", "nl": "\n", "nl2": "\n\n", "lead": "  x\ny\n", "leadnl": "\nx\n",
		"trailsp": "x\ny ", "spacebreak": "x \ny\n", "breakspace": "x\n y\n", "blank": "a\n\nb\n", "tabnl": "a\tb\nc\n",
		"crlf": "a\r\nb\n", "json": "{\"a\":1}\n", "long": strings.Repeat("word ", 30) + "\nend\n"},
	{"keys": map[string]any{"true": int64(1), "1": int64(2), "": int64(3), "a b": int64(4), "#c": int64(5), "- x": int64(6),
		"2024-01-02": int64(7), "'": int64(8), "tab\tkey": int64(9), "é": int64(10), "😀": int64(11), strings.Repeat("k", 128): int64(12),
		strings.Repeat("long key ", 12): int64(13), "a9": int64(14), "a10": int64(15), "A": int64(16), "_": int64(17), "Z": int64(18)}},
	{"nums": []any{int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), 0.5, math.Copysign(0, -1), 1e21, 1e-7, 8e17, 1e20,
		float64(1 << 62), float64(1 << 63), 1.8446744073709552e19, 123456789.125, 1.5e300, -2.5e-300, 3.0}, "t": true, "f": false},
}

// foldCases are strings around the folding width, each written at several depths.
func foldCases() []string {
	var out []string
	for _, w := range []string{"word", "ab", "a", "longerword"} {
		for n := 60; n < 100; n += 3 {
			s := strings.Repeat(w+" ", n/len(w+" ")+1)
			out = append(out, s[:n], s[:n]+"x", strings.TrimSpace(s[:n]))
		}
	}
	out = append(out,
		strings.Repeat("x", 90)+" y", strings.Repeat("x", 90)+"  y", strings.Repeat("x", 90)+"   y",
		strings.Repeat("é", 85)+" y z", strings.Repeat("😀", 85)+" y z",
		"true "+strings.Repeat("z ", 50), "- "+strings.Repeat("z ", 50), "'"+strings.Repeat("z ", 50)+"'",
		"\t"+strings.Repeat("z ", 50), strings.Repeat("z  ", 40), strings.Repeat("\"q\" ", 30),
		strings.Repeat("z ", 50)+"\n"+strings.Repeat("y ", 50)+"x\n",
		strings.Repeat("z ", 50)+"\t\n", "1 "+strings.Repeat("9 ", 50))
	return out
}

func TestEmitYAMLCases(t *testing.T) {
	for _, c := range emitCases {
		if !checkEmit(t, c) {
			t.Fatalf("emitYAML declined %v", c)
		}
	}
	for _, s := range foldCases() {
		obj := map[string]any{
			"k": s, "l": []any{s, []any{s}}, "m": map[string]any{"deeper": map[string]any{"key": s}},
			"s": []any{map[string]any{"a": s, "b": []any{s}}},
		}
		if len(s) <= yamlMaxSimpleKey && !strings.ContainsAny(s, "\n\r") {
			obj[s] = s
		}
		if !checkEmit(t, obj) {
			t.Fatalf("emitYAML declined %q", s)
		}
	}
	// What it declines: the encoder path writes them.
	for _, c := range []map[string]any{
		{"k": "bad \xff utf-8"}, {"k": "nel \u0085"}, {"k": "\ufeffbom"}, {"k": math.Inf(1)},
		{strings.Repeat("k", 129): "v"}, {"a\nb": "v"}, {"a\rb": "v"}, {"k": int(1)}, {"k": []string{"x"}},
	} {
		if _, ok := emitYAML(c); ok {
			t.Errorf("emitYAML wrote %v", c)
		}
		got, err := renderYAML(c)
		want, err2 := renderYAMLMarshal(c)
		if got != want || (err == nil) != (err2 == nil) {
			t.Errorf("renderYAML(%v) = %q, %v; the encoder path %q, %v", c, got, err, want, err2)
		}
	}
}

// TestEmitYAMLCorpus renders every object of the benchmark corpus (live dump and repository,
// as decoded and as displayed) both ways.
func TestEmitYAMLCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "bench-corpus", "1000")
	objs := corpusObjects(t, dir)
	n := 0
	for _, o := range objs {
		live, _ := forDisplay(o, nil, Options{})
		for _, v := range []map[string]any{o, live} {
			if checkEmit(t, v) {
				n++
			}
		}
	}
	if n < 2*len(objs)*99/100 {
		t.Fatalf("emitYAML wrote only %d of %d renderings", n, 2*len(objs))
	}
	t.Logf("%d objects, %d renderings by emitYAML", len(objs), n)
}

// corpusObjects reads the objects of a benchmark corpus; the test skips without it.
func corpusObjects(tb testing.TB, dir string) []map[string]any {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(dir, "live.json")); err != nil {
		tb.Skipf("no corpus at %s (make bench-corpus)", dir)
	}
	var out []map[string]any
	for _, p := range []string{filepath.Join(dir, "live.json"), filepath.Join(dir, "repo")} {
		objs, errs := input.Split((&input.Loader{}).Load(p))
		if len(errs) > 0 {
			tb.Fatal(errs)
		}
		for _, o := range objs {
			out = append(out, o.Object)
		}
	}
	if len(out) < 1000 {
		tb.Fatalf("only %d objects in %s", len(out), dir)
	}
	return out
}

// BenchmarkRenderYAMLCorpus renders the displayed live object of every corpus object through
// the encoder path and through emitYAML.
func BenchmarkRenderYAMLCorpus(b *testing.B) {
	objs := corpusObjects(b, filepath.Join("..", "..", "testdata", "bench-corpus", "1000"))
	for i, o := range objs {
		objs[i], _ = forDisplay(o, nil, Options{})
	}
	for _, c := range []struct {
		name   string
		render func(map[string]any) (string, error)
	}{{"marshal", renderYAMLMarshal}, {"emit", renderYAML}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, o := range objs {
					if _, err := c.render(o); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// FuzzEmitYAML builds objects from the fuzzer's bytes (see treeReader) and compares emitYAML
// with the encoder path.
func FuzzEmitYAML(f *testing.F) {
	f.Add([]byte{0, 3, 3, 5, 1, 2, 3, 4, 5, 2, 2, 9, 0, 3, 200, 40, 40, 40, 40, 40})
	f.Add([]byte("\x00\x04\x03\x02ab\x00\x02\x02\x03\x10\x23\x01\x05\x09\x11\x08\x07\x02\x03xyz"))
	f.Add([]byte(strings.Repeat("\x00\x02\x03\x30"+strings.Repeat("\x31\x06", 24), 3)))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &treeReader{b: data}
		obj := r.mapping(0)
		checkEmit(t, obj)
		// The same tree built again is the same display when it is plain; a tree built from
		// bytes one apart is the same display only when it prints the same.
		again := (&treeReader{b: data}).mapping(0)
		if sameDisplay(obj, again) != plainValue(obj) {
			t.Fatalf("sameDisplay of a tree and its copy is %v, plainValue %v", !plainValue(obj), plainValue(obj))
		}
		if len(data) > 0 {
			other := append([]byte(nil), data...)
			other[len(other)/2]++
			checkSameDisplay(t, obj, (&treeReader{b: other}).mapping(0))
		}
	})
}

// checkSameDisplay requires sameDisplay(a, b) to mean that a and b print the same, without error.
func checkSameDisplay(t *testing.T, a, b map[string]any) {
	t.Helper()
	if !sameDisplay(a, b) {
		return
	}
	ya, err := renderYAML(a)
	yb, err2 := renderYAML(b)
	if err != nil || err2 != nil || ya != yb {
		t.Fatalf("sameDisplay, but the objects print differently:\n%s\n%v %v", unifiedBody(ya, yb, 3, palette{}), err, err2)
	}
}

func TestSameDisplay(t *testing.T) {
	objs := append([]map[string]any(nil), emitCases...)
	objs = append(objs, corpusObjects(t, filepath.Join("..", "..", "testdata", "bench-corpus", "1000"))[:300]...)
	same := 0
	for i, o := range objs {
		c := unstructured.DeepCopy(o).(map[string]any)
		if !sameDisplay(o, c) {
			t.Fatalf("object %d differs from its copy", i)
		}
		checkSameDisplay(t, o, c)
		if i > 0 {
			checkSameDisplay(t, objs[i-1], o)
			if sameDisplay(objs[i-1], o) {
				same++
			}
		}
		// One scalar changed anywhere makes them differ.
		if md, ok := c["metadata"].(map[string]any); ok {
			md["name"] = fmt.Sprint(md["name"], "x")
			if sameDisplay(o, c) {
				t.Fatalf("object %d is the same as one with another name", i)
			}
		}
	}
	for _, c := range []struct {
		a, b map[string]any
		same bool
	}{
		{nil, nil, true}, {nil, map[string]any{}, false}, {map[string]any{}, map[string]any{}, true},
		{map[string]any{"a": int64(1)}, map[string]any{"a": 1.0}, false},
		{map[string]any{"a": 0.0}, map[string]any{"a": math.Copysign(0, -1)}, false},
		{map[string]any{"a": math.Inf(1)}, map[string]any{"a": math.Inf(1)}, false},
		{map[string]any{"a": "\xff"}, map[string]any{"a": "\xff"}, false},
		{map[string]any{"a": []any{}}, map[string]any{"a": []any(nil)}, true},
		{map[string]any{"a": nil}, map[string]any{"b": nil}, false},
		{map[string]any{"a": nil}, map[string]any{"a": false}, false},
	} {
		if got := sameDisplay(c.a, c.b); got != c.same {
			t.Errorf("sameDisplay(%v, %v) = %v", c.a, c.b, got)
		}
		checkSameDisplay(t, c.a, c.b)
	}
}

// FuzzEmitYAMLString places one string at every kind of place in an object (value at three
// depths, list item, key) and compares emitYAML with the encoder path.
func FuzzEmitYAMLString(f *testing.F) {
	for _, s := range foldCases() {
		f.Add(s)
	}
	for _, c := range emitCases {
		for _, v := range c {
			if s, ok := v.(string); ok {
				f.Add(s)
			}
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		obj := map[string]any{
			"k": s, "l": []any{s, []any{s}}, "m": map[string]any{"deeper": map[string]any{"key": s}},
			"s": []any{map[string]any{"a": s, "b": []any{s}}}, "x" + s: "v",
			"y": map[string]any{s: map[string]any{s: s}},
		}
		checkEmit(t, obj)
	})
}

// treeReader makes an object out of bytes: each byte picks the next node kind, length or
// string piece; the bytes run out into empty nodes.
type treeReader struct {
	b []byte
	i int
}

func (r *treeReader) next() byte {
	if r.i >= len(r.b) {
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *treeReader) mapping(depth int) map[string]any {
	m := map[string]any{}
	for n := r.next() % 6; n > 0 && r.i < len(r.b); n-- {
		m[r.str()] = r.value(depth + 1)
	}
	return m
}

func (r *treeReader) value(depth int) any {
	op := r.next() % 10
	if depth > 6 && op < 3 {
		op = 3
	}
	switch op {
	case 0, 1:
		return r.mapping(depth)
	case 2:
		l := []any{}
		for n := r.next() % 5; n > 0 && r.i < len(r.b); n-- {
			l = append(l, r.value(depth+1))
		}
		return l
	case 3, 4:
		return r.str()
	case 5:
		var b [8]byte
		for k := range b[:r.next()%9] {
			b[k] = r.next()
		}
		return int64(binary.LittleEndian.Uint64(b[:]))
	case 6:
		return r.next()%2 == 0
	case 7:
		return nil
	case 8:
		c := r.next()
		if c < 128 {
			floats := []float64{0.5, math.Copysign(0, -1), 1e21, 1e-7, 8e17, 1e20, 1 << 62, 1 << 63, 1 << 64, 123456789.125, 1.5e300, 3, -7.25, 1e-300, 1e6, 1e-6, 0.1}
			return floats[int(c)%len(floats)]
		}
		var b [8]byte
		for k := range b {
			b[k] = r.next()
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
	default:
		return treePieces[int(r.next())%len(treePieces)]
	}
}

// treePieces are the pieces strings are made of: characters and words each style, resolver
// and folding rule of the YAML encoder looks at.
var treePieces = []string{
	"a", "b", "Z", "0", "1", "9", " ", " ", " ", "  ", "\n", "\n\n", "\r", "\t", ":", ": ", "#", " #", "-", "- ", "?", "? ",
	"'", `"`, `\`, ".", "e", "E", "+", "_", "x", "0x", "0b", "0o", "~", "<<", "y", "n", "o", "Y", "true", "null", "yes",
	"2024-01-02", "T10:11:12Z", " 10:11:12", "1:30", ":59", "é", "☃", "😀", "\u0080", "\u009f", "\u00a0", "\ufffe",
	"\ufffd", "\x00", "\x1b", "\x7f", "{", "}", "[", "]", ",", "&", "*", "!", "|", ">", "%", "@", "`", "---", "...",
	"word", "lorem ipsum ", ".inf", "NaN", "0.5", "1e5", "-1", "\u0085", "\u2028", "\ufeff", "\xff",
}

// str reads a string: a count, then that many pieces (or raw bytes).
func (r *treeReader) str() string {
	var sb strings.Builder
	n := int(r.next())
	if n > 160 {
		n = (n - 160) * 4
	}
	for ; n > 0 && r.i < len(r.b); n-- {
		c := r.next()
		if c >= 250 {
			sb.WriteByte(r.next())
			continue
		}
		sb.WriteString(treePieces[int(c)%len(treePieces)])
	}
	return sb.String()
}

// The hand-written matchers of yamlemit.go against the YAML encoder's regular expressions.
var (
	refStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	refBase60     = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

func checkMatchers(t *testing.T, s string) {
	t.Helper()
	if got, want := yamlStyleFloat(s), refStyleFloat.MatchString(s); got != want {
		t.Fatalf("yamlStyleFloat(%q) = %v, want %v", s, got, want)
	}
	want := s != "" && (s[0] == '+' || s[0] == '-' || s[0] >= '0' && s[0] <= '9') && strings.Contains(s, ":") && refBase60.MatchString(s)
	if got := isBase60Float(s); got != want {
		t.Fatalf("isBase60Float(%q) = %v, want %v", s, got, want)
	}
}

func checkNaturalLess(t *testing.T, a, b string) {
	t.Helper()
	if got, want := naturalLessString(a, b), naturalLess(a, b); got != want {
		t.Fatalf("naturalLessString(%q, %q) = %v, naturalLess says %v", a, b, got, want)
	}
}

var matcherCases = []string{"", "1", "+1", "-", ".5", "5.", "1e5", "1e", "1.5E-3", ".e1", "1:30", "1:60", "1:5", "1:5:59.5_",
	"-1_0:00", "+:1", "1:", "1::2", "1:30.", "1:300", "a1:30", "1_:1", "1e+", "+.5e-0", "1.2.3", "١"}

func TestYAMLMatchers(t *testing.T) {
	for _, s := range matcherCases {
		checkMatchers(t, s)
	}
	keys := []string{"", "a", "b", "A", "Z", "_", "-", "0", "1", "01", "001", "0x1F", "a9", "a10", "a010", "b2c", "b10c", "é", "e",
		"z", "\xff", "\ufffd", "\xffa", "\ufffda", "a\xff", "a\ufffd", "18446744073709551616", "18446744073709551617", "port-80", "port-8080", "v1", "v1beta1", "ǅ", "日本"}
	for _, a := range keys {
		for _, b := range keys {
			checkNaturalLess(t, a, b)
		}
	}
}

func FuzzYAMLMatchers(f *testing.F) {
	for _, s := range matcherCases {
		f.Add(s, "a1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		checkMatchers(t, a)
		checkNaturalLess(t, a, b)
		if utf8.ValidString(a) {
			checkNaturalLess(t, a+"1", a+"01")
		}
	})
}

// TestEmitYAMLJSONText: fieldsV1 kept as JSON text (as readers and the engine keep them)
// print as their trees print, through emitYAML.
func TestEmitYAMLJSONText(t *testing.T) {
	fields := `{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:ports":{"k:{\"port\":443,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}}}}`
	obj := func(fv any) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "Service",
			"metadata": map[string]any{"name": "web", "labels": map[string]any{"app": "web"},
				"managedFields": []any{map[string]any{"manager": "kubectl", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": fv}}}}
	}
	var tree any
	if err := json.Unmarshal([]byte(fields), &tree); err != nil {
		t.Fatal(err)
	}
	want, err := renderYAMLMarshal(obj(tree))
	if err != nil {
		t.Fatal(err)
	}
	text := obj(json.RawMessage(fields))
	got, ok := emitYAML(text)
	if !ok || got != want {
		t.Fatalf("emitYAML = %v\n%s\nthe tree prints:\n%s", ok, got, want)
	}
	if ref, err := renderYAMLMarshal(text); err != nil || ref != want {
		t.Fatalf("the encoder path prints the text as\n%s\n(%v); the tree as\n%s", ref, err, want)
	}
}
