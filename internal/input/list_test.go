package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// A List is read item by item: larger than the document limit as a whole, it loads when
// each item is within it, exactly as a List read whole does.
func TestListLargerThanDocumentLimit(t *testing.T) {
	data := listOf(40) // about 12 KiB, each item about 300 bytes
	whole := Parse("l.json", data)
	l := Loader{Stdin: bytes.NewReader(data), Limits: Limits{MaxDocumentBytes: 1000}}
	items := l.Load("-")
	objs, errs := Split(items)
	if len(errs) != 0 || len(objs) != 40 {
		t.Fatalf("%d objects, errors %v", len(objs), errs)
	}
	wantObjs, _ := Split(whole)
	for i, o := range objs {
		w := wantObjs[i]
		if o.Source.Document != 0 || *o.Source.Item != i || o.Source.Line != w.Source.Line || !reflect.DeepEqual(o.Object, w.Object) {
			t.Errorf("item %d: %v %v, want %v", i, o.Source, o.Object, w.Source)
		}
		if got, want := o.Line("/spec/template/spec/containers/0/image"), w.Line("/spec/template/spec/containers/0/image"); got != want || got != o.Source.Line+4 {
			t.Errorf("item %d: image at line %d, want %d", i, got, want)
		}
		// An item keeps its own bytes for positions, not the List's.
		if len(o.doc.raw) > 1000 {
			t.Errorf("item %d keeps %d bytes", i, len(o.doc.raw))
		}
	}
	// A top-level array too.
	arr := []byte("[" + strings.Repeat(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}},`, 30) + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"last"}}]`)
	l = Loader{Stdin: bytes.NewReader(arr), Limits: Limits{MaxDocumentBytes: 100}}
	if objs, errs := Split(l.Load("-")); len(objs) != 31 || len(errs) != 0 || *objs[30].Source.Item != 30 {
		t.Errorf("array: %d objects, %v", len(objs), errs)
	}
}

// An item larger than the document limit is an error naming its item and line; the
// other items are read.
func TestOversizedListItem(t *testing.T) {
	cm := func(name, value string) string {
		return fmt.Sprintf(`    {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": %q}, "data": {"a": %q}}`, name, value)
	}
	text := "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n" +
		cm("a", "x") + ",\n" +
		cm("b", "y") + ",\n" +
		cm("big", strings.Repeat("z", 5000)) + ",\n" +
		"    {\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [" + cm("nested", "w") + "]},\n" +
		cm("d", "v") + "\n  ],\n  \"kind\": \"List\",\n  \"metadata\": {\"resourceVersion\": \"\"}\n}\n"
	l := Loader{Stdin: strings.NewReader(text), Limits: Limits{MaxDocumentBytes: 1000}}
	entries := l.Load("-")
	objs, errs := Split(entries)
	if len(errs) != 1 {
		t.Fatalf("errors %v", errs)
	}
	if want := "stdin, document 0, item 2, line 6: the List item is larger than 1000 bytes (raise the limit with --max-document-bytes)"; errs[0].Error() != want {
		t.Errorf("error %q, want %q", errs[0], want)
	}
	if e := wantLimit(t, entries, "max-document-bytes"); e.Source.Item == nil || *e.Source.Item != 2 {
		t.Errorf("error source %+v", e.Source)
	}
	var got []string
	for _, o := range objs {
		got = append(got, fmt.Sprintf("%s@%d/%d", o.Object["metadata"].(map[string]any)["name"], *o.Source.Item, o.Source.Line))
	}
	// The error comes in the big item's place; the nested List's item after the List's.
	if want := "a@0/4 b@1/5 d@4/8 nested@3/7"; strings.Join(got, " ") != want {
		t.Errorf("objects %s, want %s", strings.Join(got, " "), want)
	}
	if e := entries[2].Err; e == nil {
		t.Errorf("entry 2 is %+v, want the error", entries[2])
	}
	// With the default limit all five are read.
	if objs, errs := Split(Parse("l.json", []byte(text))); len(objs) != 5 || len(errs) != 0 {
		t.Errorf("default limit: %d objects, %v", len(objs), errs)
	}
}

// mixedList is a List of n items of every kind: objects, nested Lists, items that are not
// objects, duplicate keys, bytes that are not UTF-8, numbers of every sort.
func mixedList(n int, seed int64, latin1 bool) []byte {
	bad := "caf\xe9"
	if !latin1 {
		bad = "café"
	}
	r := rand.New(rand.NewSource(seed))
	var items []string
	for i := 0; i < n; i++ {
		switch r.Intn(10) {
		case 0:
			items = append(items, fmt.Sprintf(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"n%d"}},
        {"apiVersion":"v1","kind":"SecretList","items":[{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s%d"}}]}]}`, i, i))
		case 1:
			items = append(items, []string{`"oops"`, `12`, `null`, `[1,{"a":2}]`, `true`, `-1.5e3`}[r.Intn(6)])
		case 2:
			items = append(items, fmt.Sprintf("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\n      \"metadata\":{\"name\":\"d%d\",\"name\":\"e%d\"},\"data\":{\"k\":\"%s\"}}", i, i, bad))
		default:
			items = append(items, fmt.Sprintf(`{
      "apiVersion": "apps/v1",
      "kind": "Deployment",
      "metadata": {"name": "app-%d", "namespace": "shop", "generation": 9007199254740993, "labels": {"app": "x"}},
      "spec": {"replicas": %d, "ratio": 0.%d, "template": {"spec": {"containers": [{"name": "app", "image": "nginx:1.%d"}]}}}
    }`, i, r.Intn(5), r.Intn(100), i))
		}
	}
	return []byte("{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n    " + strings.Join(items, ",\n    ") + "\n  ],\n  \"kind\": \"List\",\n  \"metadata\": {\"resourceVersion\": \"\"}\n}\n")
}

func describe(entries []Entry) string {
	var b strings.Builder
	for _, e := range entries {
		if e.Err != nil {
			fmt.Fprintf(&b, "error %s\n", e.Err)
			continue
		}
		o := e.Object
		js, _ := json.Marshal(o.Object)
		fmt.Fprintf(&b, "object %s %s lines %d %d %d\n", o.Source, js, o.Line("/metadata/name"), o.Line("/spec/template/spec/containers/0/image"), o.LineOfFieldPath(".data.k"))
	}
	return b.String()
}

// Items decoded in parallel come out as a sequential decode of the whole List gives
// them, in the same order, whatever the number of goroutines; each item's warnings are
// those of its own bytes.
func TestListParallelDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rounds := 3
	if testing.Short() {
		rounds = 1
	}
	for _, latin1 := range []bool{false, true} {
		data := mixedList(400, 1, latin1)
		// The sequential reference: the List decoded whole, as one document. (Bytes that
		// are not UTF-8 defeat the position index of the whole List: then only the
		// entries of the parallel reads are compared, with each other.)
		var ref Loader
		ref.init()
		rp := &parser{name: StdinName, lim: ref.limits, l: &ref}
		rp.jsonValue(Source{File: StdinName}, data, 1)
		want := describe(rp.entries)
		if !strings.Contains(want, "not an object") || !strings.Contains(want, `"name":"s`) || !strings.Contains(want, `"name":"e`) {
			t.Fatal("the List lacks the items it is meant to have")
		}
		first := ""
		for _, procs := range []int{1, 2, 7} {
			runtime.GOMAXPROCS(procs)
			for round := 0; round < rounds; round++ {
				l := Loader{Stdin: bytes.NewReader(data)}
				entries := l.Load("-")
				got := describe(entries)
				if first == "" {
					first = got
				}
				if !latin1 && got != want {
					t.Fatalf("GOMAXPROCS %d, round %d: entries differ from a sequential decode:\n%s", procs, round, testkit.LineDiff(want, got))
				}
				if got != first {
					t.Fatalf("GOMAXPROCS %d, round %d: entries differ from the first read:\n%s", procs, round, testkit.LineDiff(first, got))
				}
				for _, e := range entries {
					o := e.Object
					if o == nil || o.Source.Item == nil {
						continue
					}
					name := o.Object["metadata"].(map[string]any)["name"].(string)
					line := o.Source.Line
					var w []string
					if strings.HasPrefix(name, "e") {
						// Its own duplicate key (and Latin-1 byte), on its own lines.
						if latin1 {
							w = append(w, fmt.Sprintf("line %d: bytes that are not UTF-8 were read as U+FFFD, as kubectl and the API server read them", line+1))
						}
						w = append(w, fmt.Sprintf(`duplicate keys: the last value is used, as kubectl and the API server use it (a field validation of Strict would reject them): line %d: key "name" already set`, line+1))
					}
					if !reflect.DeepEqual(o.Warnings, w) {
						t.Errorf("%s: warnings %q, want %q", name, o.Warnings, w)
					}
				}
			}
		}
	}
}

// A List larger than the document limit that is broken is one error, the first problem:
// it was never held whole, so it cannot be read whole as one document.
func TestBrokenLargeList(t *testing.T) {
	item := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`
	many := strings.TrimSuffix(strings.Repeat(item+",\n", 20), ",\n")
	for _, tc := range []struct{ name, text, want string }{
		{"bad item", "{\"kind\":\"List\",\"items\":[\n" + many + ",\n{\"a\" 1},\n" + many + "]}", "stdin, document 0, line 22: invalid JSON: invalid character '1' after object key"},
		{"missing comma", "{\"kind\":\"List\",\"items\":[\n" + many + "\n" + many + "]}", "stdin, document 0, line 22: invalid JSON: invalid character '{' after array element"},
		{"trailing comma", "{\"kind\":\"List\",\"items\":[\n" + many + ",\n]}", "stdin, document 0, line 22: invalid JSON: invalid character ']' looking for beginning of value"},
		{"truncated", "{\"kind\":\"List\",\"items\":[\n" + many + ",\n{\"a\":\n", "stdin, document 0, line 23: invalid JSON: unexpected end of JSON input: a value is not closed"},
		{"not a List", "{\"kind\":\"Thing\",\"items\":[\n" + many + "]}", "stdin, document 0, line 1: the document is larger than 1000 bytes (raise the limit with --max-document-bytes)"},
		{"List fields too large", "{\"kind\":\"List\",\"metadata\":{\"x\":\"" + strings.Repeat("y", 2000) + "\"},\"items\":[\n" + many + "]}", "stdin, document 0, line 1: the document is larger than 1000 bytes (raise the limit with --max-document-bytes)"},
		{"too deep", "{\"kind\":\"List\",\"items\":[\n" + many + ",\n" + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "]}", "stdin, document 0, line 22: maps and lists nest deeper than 1000 levels (raise the limit with --max-depth)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			if tc.name != "truncated" {
				text += "\n" + item
			}
			l := Loader{Stdin: strings.NewReader(text), Limits: Limits{MaxDocumentBytes: 1000}}
			objs, errs := Split(l.Load("-"))
			if len(errs) != 1 || errs[0].Error() != tc.want {
				t.Fatalf("errors %v, want %q", errs, tc.want)
			}
			// The document after it is read (a truncated one has none).
			if n := len(objs); n != 1 && tc.name != "truncated" {
				t.Errorf("%d objects after it", n)
			}
		})
	}
}

// Past --max-objects items, the items of a List too large to be read whole are not kept.
func TestListItemBound(t *testing.T) {
	text := `{"kind":"List","items":[` + strings.Repeat(`"x",`, 30) + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}]}`
	l := Loader{Stdin: strings.NewReader(text), Limits: Limits{MaxDocumentBytes: 40, MaxObjects: 10}}
	entries := l.Load("-")
	objs, errs := Split(entries)
	if len(objs) != 0 || len(errs) != 12 {
		t.Fatalf("%d objects, errors %v", len(objs), errs)
	}
	if want := "stdin, document 0, item 11, line 1: a List with more than 10 items; the rest is not read (raise the limit with --max-objects)"; errs[11].Error() != want {
		t.Errorf("error %q, want %q", errs[11], want)
	}
	// Within the document limit everything is kept, as when the List was one document.
	l = Loader{Stdin: strings.NewReader(text), Limits: Limits{MaxObjects: 10}}
	if objs, errs := Split(l.Load("-")); len(objs) != 1 || len(errs) != 30 {
		t.Errorf("%d objects, %d errors", len(objs), len(errs))
	}
}

// duplicateKeys finds what the token-by-token scan it replaced found.
func TestDuplicateKeysAsTokens(t *testing.T) {
	inputs := []string{
		`{"a":1,"a":2}`,
		"{\"a\":1,\n\"b\":{\"a\":1,\"a\":[{\"x\":1},{\"x\":2,\"x\":3}]},\n\"a\":3}",
		`{"a\u0062":1,"ab":2,"c\"":1,"c\u0022":2}`,
		"{\"caf\xe9\":1,\"caf\xea\":2,\"é\":1,\"\\u00e9\":2}",
		`[{"a":1},{"a":1},[{"k":"a","k":"a"}]]`,
		`{"a":1,"a":1,"a":1,"a":1,"a":1,"a":1,"a":1}`,
		`{"s":"{\"a\":1,\"a\":2}","s2":"\\","x":{}}`,
	}
	var many strings.Builder
	many.WriteString("{")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&many, "%q:%d,", fmt.Sprint("k", i%70), i)
	}
	many.WriteString(`"end":{"k1":1,"k1":2}}`)
	inputs = append(inputs, many.String(), string(mixedList(50, 2, true)))
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 300; i++ {
		inputs = append(inputs, randomJSON(r, 4))
	}
	for _, in := range inputs {
		if !json.Valid([]byte(in)) {
			t.Fatalf("not valid JSON: %s", in)
		}
		got, want := duplicateKeys([]byte(in), 7), tokenDuplicateKeys([]byte(in), 7)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.200s:\n got %q\nwant %q", in, got, want)
		}
	}
}

func randomJSON(r *rand.Rand, depth int) string {
	keys := []string{`"a"`, `"b"`, `"\u0061"`, `"c"`, "\"\xff\"", "\"\xfe\"", `"d\n"`}
	switch n := r.Intn(6); {
	case depth > 0 && n < 2:
		var parts []string
		for i := r.Intn(5); i > 0; i-- {
			parts = append(parts, keys[r.Intn(len(keys))]+":"+randomJSON(r, depth-1))
		}
		return "{" + strings.Join(parts, ",\n") + "}"
	case depth > 0 && n < 4:
		var parts []string
		for i := r.Intn(4); i > 0; i-- {
			parts = append(parts, randomJSON(r, depth-1))
		}
		return "[" + strings.Join(parts, " , ") + "]"
	default:
		return []string{`1`, `"s"`, `null`, `"a\"b"`, `{}`, `[]`}[r.Intn(6)]
	}
}

// tokenDuplicateKeys is the reference: duplicate keys found with encoding/json's tokens.
func tokenDuplicateKeys(data []byte, firstLine int) []string {
	type frame struct {
		object    bool
		expectKey bool
		keys      map[string]bool
	}
	var stack []*frame
	var dups []string
	dec := json.NewDecoder(bytes.NewReader(data))
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].expectKey = true
		}
	}
	for len(dups) < 5 {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{object: true, expectKey: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey {
				f := stack[n-1]
				if f.keys == nil {
					f.keys = map[string]bool{}
				}
				if f.keys[t] {
					dups = append(dups, fmt.Sprintf("line %d: key %q already set", firstLine+lineAt(data, int(dec.InputOffset()))-1, t))
				}
				f.keys[t] = true
				f.expectKey = false
				continue
			}
			valueDone()
		default:
			valueDone()
		}
	}
	return dups
}

// An endless List is bounded as an endless document is: MaxObjects+1 items kept apart,
// the rest kept only within the document limit and never decoded, reading stopped at the
// input limit. (The items kept cost what as many objects cost, so the bound is checked
// with few.)
func TestEndlessList(t *testing.T) {
	maxInput, maxDocument := streamBounds()
	for _, pattern := range []string{`"xxxxxxxxxxxxxxx",`, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"}},\n"} {
		g := &generated{prefix: []byte(`{"kind":"List","items":[`), pattern: []byte(pattern), n: gib}
		l := Loader{Stdin: g, Limits: Limits{MaxObjects: 1000, MaxInputBytes: maxInput, MaxDocumentBytes: maxDocument}}
		var entries []Entry
		grew := heapGrowth(func() { entries = l.Load("-") })
		if _, errs := Split(entries); len(errs) != 1 {
			t.Errorf("errors %v", errs)
		}
		wantLimit(t, entries, "max-input-bytes")
		if g.read > maxInput+1 {
			t.Errorf("read %d bytes of the stream, past the input limit", g.read)
		}
		if grew > uint64(2*maxDocument+16<<20) {
			t.Errorf("the heap grew by %d MiB", grew>>20)
		}
		t.Logf("%.20s…: heap grew by at most %d MiB", pattern, grew>>20)
	}
}

// TestListIndentRuns: runs of spaces of every length up to past two words, wherever an
// indented dump has them (before keys, after colons, between items, before "items"),
// split the same: each item where it starts, with its values (brackets in a string after
// a run are not counted).
func TestListIndentRuns(t *testing.T) {
	for n := 0; n <= 19; n++ {
		sp := strings.Repeat(" ", n)
		data := "{" + sp + "\"kind\":" + sp + "\"List\"," + sp + "\"items\"" + sp + ":" + sp + "[" + sp + "\n" +
			sp + "{\"apiVersion\":" + sp + "\"v1\",\n" + sp + sp + "\"kind\": \"ConfigMap\"," + sp + "\"metadata\": {\"name\": \"a\"}, \"data\": {\"k\":" + sp + "\"}] " + sp + "x\"}}" + sp + "," + sp + "\n" +
			sp + "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"},\"data\":{\"n\":" + sp + "12" + sp + "}}\n" + sp + "]" + sp + "}" + sp + "\n"
		l := Loader{Stdin: strings.NewReader(data), NoFieldLines: true, CompactManagedFields: true, DeferDecoding: true}
		objs, errs := Split(l.Load("-"))
		if len(errs) != 0 || len(objs) != 2 {
			t.Fatalf("%d spaces: %d objects, errors %v", n, len(objs), errs)
		}
		for i, want := range []struct {
			line int
			data any
		}{{2, map[string]any{"k": "}] " + sp + "x"}}, {4, map[string]any{"n": int64(12)}}} {
			m, err := objs[i].Decode()
			if err != nil {
				t.Fatal(err)
			}
			if objs[i].Source.Line != want.line || fmt.Sprint(m["data"]) != fmt.Sprint(want.data) {
				t.Errorf("%d spaces: item %d at line %d with data %v, want line %d, %v", n, i, objs[i].Source.Line, m["data"], want.line, want.data)
			}
		}
	}
}
