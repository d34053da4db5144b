package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/ssa-diff/ssa-diff/internal/heapwatch"
)

// generated is an endless (or n-byte) reader that repeats pattern; it counts what was read.
type generated struct {
	prefix  []byte
	pattern []byte
	n       int64 // bytes to produce; <0: endless
	read    int64
}

func (g *generated) Read(p []byte) (int, error) {
	if g.n >= 0 && g.read >= g.n {
		return 0, io.EOF
	}
	if g.n >= 0 && int64(len(p)) > g.n-g.read {
		p = p[:g.n-g.read]
	}
	for i := range p {
		at := g.read + int64(i)
		if at < int64(len(g.prefix)) {
			p[i] = g.prefix[at]
		} else {
			p[i] = g.pattern[(at-int64(len(g.prefix)))%int64(len(g.pattern))]
		}
	}
	g.read += int64(len(p))
	return len(p), nil
}

const gib = 1 << 30

// heapGrowth runs f and returns the most the live heap grew while it ran, sampled.
func heapGrowth(f func()) uint64 {
	before, peak := heapwatch.Peak(f)
	if peak < before {
		return 0
	}
	return peak - before
}

func wantLimit(t *testing.T, entries []Entry, option string) *Error {
	t.Helper()
	for _, e := range entries {
		var le *LimitError
		if errors.As(e.Err, &le) && le.Option == option {
			var ie *Error
			if !errors.As(e.Err, &ie) {
				t.Fatalf("limit error %v is not an *Error", e.Err)
			}
			return ie
		}
	}
	t.Fatalf("no --%s error among %d entries: %v", option, len(entries), entries)
	return nil
}

// streamBounds are the input and document limits of the endless-stream tests: the
// defaults, or an eighth of them under -short (the same bounds, 16 MiB read instead of 128).
func streamBounds() (input, document int64) {
	if testing.Short() {
		return DefaultMaxInputBytes / 8, DefaultMaxDocumentBytes / 8
	}
	return DefaultMaxInputBytes, DefaultMaxDocumentBytes
}

// A 1 GiB stream is never read into memory: one endless document stops at the document
// limit and keeps no more than it; reading stops at the input limit.
func TestGiBStreamOneDocument(t *testing.T) {
	maxInput, maxDocument := streamBounds()
	for _, tc := range []struct {
		name            string
		prefix, pattern string
	}{
		{"yaml lines", "", "key: value\n"},
		{"NUL bytes", "", "\x00"},
		{"json", `{"a":[`, `"xxxxxxxxxxxxxxx",`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &generated{prefix: []byte(tc.prefix), pattern: []byte(tc.pattern), n: gib}
			l := Loader{Stdin: g, Limits: Limits{MaxInputBytes: maxInput, MaxDocumentBytes: maxDocument}}
			var entries []Entry
			grew := heapGrowth(func() { entries = l.Load("-") })
			wantLimit(t, entries, "max-document-bytes")
			e := wantLimit(t, entries, "max-input-bytes")
			if e.Source.File != StdinName {
				t.Errorf("error source = %+v", e.Source)
			}
			if g.read > maxInput+1 {
				t.Errorf("read %d bytes of the stream, past the input limit", g.read)
			}
			// Growing a buffer to the document limit may double it once.
			if grew > uint64(2*maxDocument+16<<20) {
				t.Errorf("the heap grew by %d MiB", grew>>20)
			}
			t.Logf("read %d MiB, heap grew by at most %d MiB", g.read>>20, grew>>20)
		})
	}
}

// An endless stream of small documents stops at the input limit; what was read before is
// kept and the limit is reported once.
func TestEndlessDocumentStream(t *testing.T) {
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\n"
	g := &generated{pattern: []byte(doc), n: -1}
	maxInput := int64(1 << 20)
	if testing.Short() {
		maxInput = 1 << 17
	}
	l := Loader{Stdin: g, Limits: Limits{MaxInputBytes: maxInput}}
	objs, errs := Split(l.Load("-"))
	if len(errs) != 1 || !errors.Is(errs[0], ErrLimit) {
		t.Fatalf("errors = %v", errs)
	}
	if want := int(maxInput) / len(doc); len(objs) < want-1 || len(objs) > want {
		t.Errorf("%d objects read, want about %d", len(objs), want)
	}
	if g.read > maxInput+1 {
		t.Errorf("read %d bytes", g.read)
	}
	// Once the input limit is reached nothing more is read.
	if _, errs := Split(l.Load(writeTemp(t, "more.yaml", doc))); len(errs) != 1 || !errors.Is(errs[0], ErrLimit) {
		t.Errorf("after the limit: %v", errs)
	}
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// One oversized document is skipped; the documents around it are read.
func TestOversizedDocumentSkipped(t *testing.T) {
	big := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  a: " + strings.Repeat("x", 2000) + "\n"
	small := func(n string) string { return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + n + "\n" }
	for _, tc := range []struct{ name, stream string }{
		{"yaml", small("a") + "---\n" + big + "---\n" + small("b")},
		{"json", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}` + "\n" +
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"a":"` + strings.Repeat("x", 2000) + `"}}` + "\n" +
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Loader{Stdin: strings.NewReader(tc.stream), Limits: Limits{MaxDocumentBytes: 1000}}
			entries := l.Load("-")
			objs, errs := Split(entries)
			if len(objs) != 2 || len(errs) != 1 {
				t.Fatalf("objects %d, errors %v", len(objs), errs)
			}
			e := wantLimit(t, entries, "max-document-bytes")
			if e.Source.Document != 1 {
				t.Errorf("error source = %+v", e.Source)
			}
			if want := "stdin, document 1, line "; !strings.HasPrefix(e.Error(), want) || !strings.Contains(e.Error(), "larger than 1000 bytes (raise the limit with --max-document-bytes)") {
				t.Errorf("error = %q", e)
			}
		})
	}
}

// 100,000 levels of nesting are an error, not a stack overflow, in every syntax.
func TestDeepNesting(t *testing.T) {
	const n = 100000
	head := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  x: "
	cases := map[string]string{
		"json arrays":    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}",
		"json objects":   `{"x":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + "}",
		"yaml flow":      head + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
		"yaml flow maps": head + strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) + "\n",
		// Block nesting grows quadratically in size: 3,000 levels already take 9 MB.
		"yaml block":               blockNest(3000),
		"yaml just past the limit": head + strings.Repeat("[", DefaultMaxDepth) + strings.Repeat("]", DefaultMaxDepth) + "\n",
		"json just past the limit": `{"x":` + strings.Repeat("[", DefaultMaxDepth) + strings.Repeat("]", DefaultMaxDepth) + "}",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			l := Loader{Stdin: strings.NewReader(text + "\n---\n" + `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "after"}}`)}
			entries := l.Load("-")
			e := wantLimit(t, entries, "max-depth")
			if !strings.Contains(e.Error(), "nest deeper than 1000 levels") {
				t.Errorf("error = %q", e)
			}
			if strings.HasPrefix(name, "yaml") {
				// The YAML document after the deep one is still read.
				if objs, _ := Split(entries); len(objs) != 1 {
					t.Errorf("%d objects after the deep document", len(objs))
				}
			}
		})
	}
	// At the limit itself the document is read.
	ok := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":` + strings.Repeat("[", DefaultMaxDepth-1) + strings.Repeat("]", DefaultMaxDepth-1) + "}"
	if objs, errs := Split(Parse("ok.json", []byte(ok))); len(objs) != 1 || len(errs) != 0 {
		t.Errorf("depth %d: %v", DefaultMaxDepth, errs)
	}
}

func blockNest(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx:\n")
	for i := 1; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "a: 1\n")
	return b.String()
}

// YAML aliases that expand without bound are refused before they are expanded: the
// classic "billion laughs", and a variant the YAML decoder's own ratio check lets through.
func TestAliasExpansion(t *testing.T) {
	laughs := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	prev := "a"
	for c := 'b'; c <= 'i'; c++ {
		laughs += fmt.Sprintf("%c: &%c [%s]\n", c, c, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
		prev = string(c)
	}
	// One anchor of 10,000 nodes used 2,000 times: 20 million nodes, but few aliases per
	// node decoded, so the decoder's ratio check alone would expand it.
	var wide strings.Builder
	wide.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wide\nbase: &base [")
	for i := 0; i < 10000; i++ {
		wide.WriteString("1,")
	}
	wide.WriteString("1]\nuses: [")
	wide.WriteString(strings.TrimSuffix(strings.Repeat("*base,", 2000), ","))
	wide.WriteString("]\n")
	self := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: self\na: &a [1, *a]\n"

	for name, text := range map[string]string{"billion laughs": laughs, "wide": wide.String(), "self": self} {
		t.Run(name, func(t *testing.T) {
			var entries []Entry
			grew := heapGrowth(func() { entries = Parse("lol.yaml", []byte(text)) })
			_, errs := Split(entries)
			if len(errs) != 1 {
				t.Fatalf("errors = %v", errs)
			}
			if name != "self" {
				wantLimit(t, entries, "max-yaml-alias-nodes")
			}
			if grew > 64<<20 {
				t.Errorf("the heap grew by %d MiB", grew>>20)
			}
			t.Logf("%v; heap grew by %d MiB", errs[0], grew>>20)
		})
	}
	// Aliases in moderation are fine.
	ok := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n  labels: &l {a: b}\n  annotations: *l\n"
	if objs, errs := Split(Parse("ok.yaml", []byte(ok))); len(objs) != 1 || len(errs) != 0 {
		t.Errorf("moderate aliases: %v", errs)
	}
}

func TestDirectoryWalks(t *testing.T) {
	cm := func(n string) string { return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + n + "\n" }
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("symlinks: %v", err)
		}
	}
	write("tree/a.yaml", cm("a"))
	write("tree/sub/b.yaml", cm("b"))
	link("..", "tree/sub/up")                                 // a loop back to tree/
	link(filepath.Join(dir, "tree", "sub"), "tree/sub-again") // the same directory twice
	link("loop.yaml", "tree/loop.yaml")                       // a link to itself
	link("missing.yaml", "tree/dangling.yaml")                // a link to nothing
	link(filepath.Join(dir, "outside"), "tree/outside")       // a link out of the tree
	write("outside/c.json", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`)
	if err := os.Mkdir(filepath.Join(dir, "tree", "dir.yaml"), 0o755); err != nil { // a directory that looks like a file
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "tree", "pipe.yaml") // would block forever if opened
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Logf("no fifo: %v", err)
		fifo = ""
	}
	write("tree/unreadable.yaml", cm("u"))
	if err := os.Chmod(filepath.Join(dir, "tree", "unreadable.yaml"), 0); err != nil {
		t.Fatal(err)
	}
	root := os.Geteuid() == 0 // root reads anything, but not this: reading it fails (EIO)
	procMem := false
	if _, err := os.Stat("/proc/self/mem"); err == nil {
		link("/proc/self/mem", "tree/mem.yaml")
		procMem = true
	}

	done := make(chan []Entry)
	go func() {
		var l Loader
		done <- l.Load(filepath.Join(dir, "tree"))
	}()
	var entries []Entry
	select {
	case entries = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the walk did not end")
	}
	objs, errs := Split(entries)
	var names []string
	for _, o := range objs {
		names = append(names, o.Object["metadata"].(map[string]interface{})["name"].(string))
	}
	want := "a c b" // lexical order of the paths: tree/a.yaml, tree/outside/c.json, tree/sub/b.yaml
	if root {
		want = "a c b u"
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("objects %q, want %q (each file once)", got, want)
	}
	msgs := fmt.Sprint(errs)
	for _, w := range []string{"loop.yaml: cannot read: too many levels of symbolic links", "dangling.yaml: cannot read: no such file or directory"} {
		if !strings.Contains(msgs, w) {
			t.Errorf("errors %s\nlack %q", msgs, w)
		}
	}
	if fifo != "" && !strings.Contains(msgs, "pipe.yaml: not a regular file") {
		t.Errorf("errors %s lack the pipe", msgs)
	}
	if procMem && !strings.Contains(msgs, "mem.yaml: cannot read: input/output error") {
		t.Errorf("errors %s lack the file that cannot be read", msgs)
	}
	if !root && !strings.Contains(msgs, "unreadable.yaml: cannot open: permission denied") {
		t.Errorf("errors %s lack the unreadable file", msgs)
	}
	for _, e := range errs {
		if strings.Contains(e.Error(), "document") {
			t.Errorf("a file error names a document: %v", e)
		}
	}

	// The root itself may be a link to a directory.
	link(filepath.Join(dir, "outside"), "root-link")
	var l Loader
	if objs, errs := Split(l.Load(filepath.Join(dir, "root-link"))); len(objs) != 1 || len(errs) != 0 {
		t.Errorf("root link: %d objects, %v", len(objs), errs)
	}

	// Huge trees stop at the entry limit.
	for i := 0; i < 60; i++ {
		write(fmt.Sprintf("huge/d%02d/f.yaml", i), cm(fmt.Sprintf("h%d", i)))
	}
	l = Loader{Limits: Limits{MaxFiles: 50}}
	entries = l.Load(filepath.Join(dir, "huge"))
	wantLimit(t, entries, "max-files")
	if objs, _ := Split(entries); len(objs) > 50 {
		t.Errorf("%d objects past the limit", len(objs))
	}

	// An explicitly named pipe is read: process substitution gives one.
	if fifo != "" {
		go func() {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				io.WriteString(w, cm("piped"))
				w.Close()
			}
		}()
		var l Loader
		if objs, errs := Split(l.Load(fifo)); len(objs) != 1 || len(errs) != 0 {
			t.Errorf("named pipe: %d objects, %v", len(objs), errs)
		}
	}
}

func TestEncodings(t *testing.T) {
	doc := "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: crlf\r\ndata:\r\n  a: \"é\"\r\n  b: bad: colon\r\n"
	// CRLF line ends: lines are still counted right.
	_, errs := Split(Parse("crlf.yaml", []byte(doc)))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "document 0, line 7") {
		t.Errorf("CRLF: %v", errs)
	}
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: enc\ndata:\n  a: \"é😀\"\n"
	utf16le := func(s string, big bool) []byte {
		var b bytes.Buffer
		if big {
			b.Write([]byte{0xfe, 0xff})
		} else {
			b.Write([]byte{0xff, 0xfe})
		}
		for _, u := range utf16.Encode([]rune(s)) {
			if big {
				b.Write([]byte{byte(u >> 8), byte(u)})
			} else {
				b.Write([]byte{byte(u), byte(u >> 8)})
			}
		}
		return b.Bytes()
	}
	for name, data := range map[string][]byte{
		"utf-8 BOM":   append([]byte("\xef\xbb\xbf"), good...),
		"utf-16le":    utf16le(good, false),
		"utf-16be":    utf16le(good, true),
		"json utf-16": utf16le(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"enc"},"data":{"a":"é😀"}}`, false),
	} {
		objs, errs := Split(Parse(name, data))
		if len(objs) != 1 || len(errs) != 0 {
			t.Errorf("%s: %d objects, %v", name, len(objs), errs)
			continue
		}
		if got := objs[0].Object["data"].(map[string]interface{})["a"]; got != "é😀" {
			t.Errorf("%s: data.a = %q", name, got)
		}
	}
	for name, tc := range map[string]struct{ data, want string }{
		"latin-1":         {"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: caf\xe9\n", "line 6: invalid YAML: the byte 0xe9 is not UTF-8"},
		"NUL":             {"apiVersion: v1\nkind: ConfigMap\n\x00\n", "line 3: invalid YAML: a NUL byte"},
		"utf-16, no BOM":  {"a\x00p\x00i\x00V\x00", "line 1: invalid YAML: a NUL byte: this is binary data, not text (or UTF-16 without a byte-order mark)"},
		"escape":          {"apiVersion: v1\nkind: \x1b[31mConfigMap\n", "line 2: invalid YAML: the control character U+001B is not allowed"},
		"tab":             {"apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n", "line 4: invalid YAML: found character that cannot start any token (a tab: YAML indents with spaces only)"},
		"json bad string": {"{\"a\": \"x\x01\"}", "line 1: invalid JSON: invalid character '\\x01' in string literal"},
	} {
		_, errs := Split(Parse("f", []byte(tc.data)))
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%s: errors %v, want %q", name, errs, tc.want)
		}
	}
	// Invalid UTF-8 in JSON is read as the server reads it, with a warning.
	objs, _ := Split(Parse("j.json", []byte("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\n\"metadata\":{\"name\":\"caf\xe9\"}}")))
	if len(objs) != 1 || len(objs[0].Warnings) != 1 || !strings.Contains(objs[0].Warnings[0], "line 2: bytes that are not UTF-8") {
		t.Errorf("JSON with Latin-1: %+v", objs)
	}
}

func TestEmptyInputs(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"empty.yaml":     "",
		"blank.yaml":     "\n  \n",
		"sep.yaml":       "---\n",
		"seps.yaml":      "---\n# nothing\n---\n---\n",
		"emptylist.json": `{"apiVersion":"v1","kind":"List","items":[]}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		"empty.yaml": "empty.yaml: no objects: the file is empty",
		"blank.yaml": "blank.yaml: no objects: the file holds only blanks, comments and document separators",
		"sep.yaml":   "sep.yaml: no objects: the file holds only blanks",
		"seps.yaml":  "seps.yaml: no objects: the file holds only blanks",
	} {
		var l Loader
		objs, errs := Split(l.Load(filepath.Join(dir, name)))
		if len(objs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), want) {
			t.Errorf("%s: %d objects, %v; want %q", name, len(objs), errs, want)
		}
	}
	// A List without items is a valid answer of kubectl get: nothing exists.
	var l Loader
	if entries := l.Load(filepath.Join(dir, "emptylist.json")); len(entries) != 0 {
		t.Errorf("empty List: %v", entries)
	}
	// Empty standard input.
	l = Loader{Stdin: strings.NewReader("")}
	if _, errs := Split(l.Load("-")); len(errs) != 1 || errs[0].Error() != "stdin: no objects: standard input is empty" {
		t.Errorf("empty stdin: %v", errs)
	}
	// An empty directory.
	empty := filepath.Join(dir, "nothing")
	os.Mkdir(empty, 0o755)
	if _, errs := Split(l.Load(empty)); len(errs) != 1 || !strings.Contains(errs[0].Error(), "no .yaml, .yml or .json file") {
		t.Errorf("empty directory: %v", errs)
	}
}

func TestListOfLists(t *testing.T) {
	text := `{"apiVersion":"v1","kind":"List","items":[
  {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}},
  {"apiVersion":"v1","kind":"List","items":[
    {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}},
    {"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}]}
  ]},
  {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"}}
]}`
	objs, errs := Split(Parse("l.json", []byte(text)))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, o := range objs {
		got = append(got, fmt.Sprintf("%s@%d", o.Object["metadata"].(map[string]interface{})["name"], o.Source.Line))
	}
	// kubectl flattens breadth first.
	if want := "a@2 d@7 b@4 c@5"; strings.Join(got, " ") != want {
		t.Errorf("objects %q, want %q", strings.Join(got, " "), want)
	}
}

func TestObjectLimit(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\n"
	list := `{"apiVersion":"v1","kind":"List","items":[` + strings.TrimSuffix(strings.Repeat(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"y"}},`, 10), ",") + "]}"
	l := Loader{Stdin: strings.NewReader(strings.Repeat(cm, 10)), Limits: Limits{MaxObjects: 15}}
	if objs, errs := Split(l.Load("-")); len(objs) != 10 || len(errs) != 0 {
		t.Fatalf("stdin: %d objects, %v", len(objs), errs)
	}
	entries := l.Load(writeTemp(t, "list.json", list))
	objs, errs := Split(entries)
	if len(objs) != 5 || len(errs) != 1 {
		t.Fatalf("list: %d objects, %v", len(objs), errs)
	}
	e := wantLimit(t, entries, "max-objects")
	if e.Source.Item == nil || *e.Source.Item != 5 {
		t.Errorf("the limit is reported at %v, want item 5", e.Source)
	}
	if _, errs := Split(l.Load(writeTemp(t, "more.yaml", cm))); len(errs) != 1 || !strings.Contains(errs[0].Error(), "more.yaml: not read: more objects than 15") {
		t.Errorf("after the limit: %v", errs)
	}
}
