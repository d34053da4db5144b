package input

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	yamlv2 "go.yaml.in/yaml/v2"
)

// strictJSON is the JSON text the strict YAML 1.1 parse gives a document (what yamlDoc
// wrote for every document before blockJSON): false when that parse does not give it
// (an error, duplicate or bad keys, a tree jsonable or json.Marshal refuses).
func strictJSON(data []byte) ([]byte, bool) {
	var tree any
	if err := yamlv2.UnmarshalStrict(data, &tree); err != nil {
		return nil, false
	}
	if _, msg := badKeys(tree); msg != "" {
		return nil, false
	}
	v, ok := jsonable(tree)
	if !ok {
		return nil, false
	}
	j, err := json.Marshal(v)
	return j, err == nil
}

// checkBlockJSON fails when blockJSON answers for data and its answer is not the strict
// parse's; it reports whether blockJSON answered.
func checkBlockJSON(t *testing.T, data []byte) bool {
	t.Helper()
	fast, ok := blockJSON(data, []byte("left by the document before"))
	if !ok {
		return false
	}
	want, ok := strictJSON(data)
	if !ok {
		var tree any
		err := yamlv2.UnmarshalStrict(data, &tree)
		_, msg := badKeys(tree)
		t.Fatalf("blockJSON answered %s for a document the strict parse does not give JSON for (error %v, keys %q):\n%s", fast, err, msg, data)
	}
	if !bytes.Equal(fast, want) {
		t.Fatalf("blockJSON wrote\n%s\nthe strict parse\n%s\nfor\n%s", fast, want, data)
	}
	return true
}

// generatedShapes is a document as the benchmark corpus's generator writes them.
const generatedShapes = `apiVersion: v1
data:
  BATCH_SIZE: |
    {"a": 1}
  LOG_LEVEL: info
  PAGE_SIZE: "46"
  features.json: |
    {"newCheckout": true, "fastSearch": false, "betaBanner": false}
kind: ConfigMap
metadata:
  labels:
    app.kubernetes.io/name: billing-backend-409
  name: billing-backend-409-config
  namespace: team-media-99
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: billing-backend-409
spec:
  replicas: 2
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      annotations:
        prometheus.io/port: "9090"
    spec:
      containers:
      - env:
        - name: DB_POOL_SIZE
          value: "280"
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef:
              key: password
        image: registry.example.com/team-media-99/billing-backend-409:v2.4.6
        resources:
          limits:
            cpu: 0.5
            memory: 64Mi
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            drop: ["ALL"]
      volumes: []
`

// blockJSONCases are documents whose answers the table below pins: "" when blockJSON
// must decline.
var blockJSONCases = []struct{ doc, json string }{
	{"a: 1\n", `{"a":1}`},
	{"b: 1\na: 2\n", `{"a":2,"b":1}`},
	{"a:\n  z: 1\n  w: [ ]\n  x: { }\n  y: 2\n", `{"a":{"true":2,"w":[],"x":{},"z":1}}`},
	{"a:\n- 1\n- x\nb: ~\n", `{"a":[1,"x"],"b":null}`},
	{"a: yes\nb: Off\nc: 0x1F\nd: 0o17\ne: 017\nf: 1_000\ng: +5\nh: -0\n", `{"a":true,"b":false,"c":31,"d":15,"e":15,"f":1000,"g":5,"h":0}`},
	{"a: 1.5\nb: .5\nc: 1e3\nd: 1e21\ne: 0.0000001\nf: 18446744073709551615\n", `{"a":1.5,"b":0.5,"c":1000,"d":1e+21,"e":1e-7,"f":18446744073709551615}`},
	{"a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\n", `{"a":"2001-12-14","b":"2001-12-14t21:59:43.10-05:00"}`},
	{"a: <b> & c # comment\nb: 'it''s'\nc: \"\\x41\\u00e9\\t\\\"\"\n", `{"a":"\u003cb\u003e \u0026 c","b":"it's","c":"Aé\t\""}`},
	{"1: a\ntrue: b\n\"x y\": c\n", `{"1":"a","true":"b","x y":"c"}`},
	{"a: |\n  x\n\n   y\n\n\nb: |-\n  z\nc: |+\n  w\n\n", `{"a":"x\n\n y\n","b":"z","c":"w\n\n"}`},
	{"a: [1, 'x', \"y\" , yes,~, a b ]  # c\n- [ ]\n- [0x1F]\n", ""},
	{"a: [1, 'x', \"y\" , yes,~, a b ]  # c\nb:\n- [ ]\n- [0x1F]\n", `{"a":[1,"x","y",true,null,"a b"],"b":[[],[31]]}`},
	{"a: [a, [b]]\n", ""},        // a flow sequence in a flow sequence
	{"a: [a, ]\n", ""},           // a comma after the last item
	{"a: [a, b\n  c]\n", ""},     // not closed on its line
	{"- a\n", ""},                // a sequence at the top
	{"a: 1\na: 2\n", ""},         // a duplicate key
	{"on: 1\n\"true\": 2\n", ""}, // keys that become the same string
	{"a: &x 1\nb: *x\n", ""},     // anchors and aliases
	{"a: {b: c}\n", ""},          // flow collections with content
	{"a: b\n  c\n", ""},          // a multi-line plain scalar
	{"a: >\n  x\n", ""},          // a folded block scalar
	{"a: .inf\n", ""},            // not finite
	{"~: a\n", ""},               // a null key
	{"1.5: a\n", ""},             // a float key
	{"<<: {a: 1}\n", ""},         // a merge
	{"a: !!str 1\n", ""},         // a tag
	{"a: \"\\/\"\n", ""},         // an escape the scanner refuses
	{"a:\tb\n", ""},              // a tab
}

func TestBlockJSON(t *testing.T) {
	for _, c := range blockJSONCases {
		got, ok := blockJSON([]byte(c.doc), nil)
		switch {
		case c.json == "" && ok:
			t.Errorf("%q: answered %s, want a decline", c.doc, got)
		case c.json != "" && !ok:
			t.Errorf("%q: declined, want %s", c.doc, c.json)
		case c.json != "" && string(got) != c.json:
			t.Errorf("%q: %s, want %s", c.doc, got, c.json)
		}
		checkBlockJSON(t, []byte(c.doc))
	}
}

// repositoryDocuments are the YAML documents of the repository's testdata (and of the
// benchmark corpus, when generated), split as the loader splits them.
func repositoryDocuments(t testing.TB, maxCorpusFiles int) [][]byte {
	var docs [][]byte
	split := func(data []byte) {
		splitYAML(bufio.NewReader(bytes.NewReader(data)), 32<<20, func(rd rawDoc) bool {
			if rd.err == nil {
				docs = append(docs, rd.data)
			}
			return true
		})
	}
	split([]byte(generatedShapes))
	root := filepath.Join("..", "..", "testdata")
	corpusFiles := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if d.Name() == "bench-corpus" {
				return filepath.SkipDir // read below, in part
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			split(data)
		}
		return nil
	})
	filepath.WalkDir(filepath.Join(root, "bench-corpus", "1000", "repo"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || corpusFiles >= maxCorpusFiles {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			corpusFiles++
			split(data)
		}
		return nil
	})
	return docs
}

// TestBlockJSONRepository holds blockJSON to the strict parse on every YAML document of
// the repository and counts how many it answers.
func TestBlockJSONRepository(t *testing.T) {
	docs := repositoryDocuments(t, 1<<30)
	fast, strict := 0, 0
	var declined []string
	for _, d := range docs {
		answered := checkBlockJSON(t, d)
		if answered {
			fast++
		}
		if _, ok := strictJSON(d); ok {
			strict++
			if !answered && len(declined) < 20 {
				declined = append(declined, string(d))
			}
		}
	}
	t.Logf("%d of %d documents take the fast path (%d give the strict parse's JSON)", fast, len(docs), strict)
	if testing.Verbose() {
		for _, d := range declined {
			t.Logf("declined, the strict parse reads it: %s", d)
		}
	}
	if fast == 0 {
		t.Fatal("no document takes the fast path")
	}
}

// FuzzBlockJSON holds blockJSON to the strict YAML 1.1 parse: whenever it answers, the
// parse gives JSON, and the same bytes.
func FuzzBlockJSON(f *testing.F) {
	for _, c := range blockJSONCases {
		f.Add([]byte(c.doc))
	}
	for _, d := range repositoryDocuments(f, 200) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkBlockJSON(t, data)
	})
}

func BenchmarkBlockJSON(b *testing.B) {
	docs := repositoryDocuments(b, 1<<30)
	var fast [][]byte
	size := 0
	for _, d := range docs {
		if _, ok := blockJSON(d, nil); ok {
			fast = append(fast, d)
			size += len(d)
		}
	}
	if len(fast) == 0 {
		b.Skip("no document takes the fast path")
	}
	b.Run("block", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			for _, d := range fast {
				// As yamlDoc does: the buffer reused, the text kept as a copy.
				out, _ := blockJSON(d, buf)
				_, buf = bytes.Clone(out), out[:0]
			}
		}
	})
	b.Run("strict", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range fast {
				strictJSON(d)
			}
		}
	})
}

// FuzzBlockJSONScalar holds blockJSON to the strict parse on one scalar written in every
// place a scalar goes: a value, a key, a sequence item, quoted both ways, in a literal
// block, where the fuzzer explores what a scalar can be rather than a document's shape.
func FuzzBlockJSONScalar(f *testing.F) {
	for _, s := range []string{
		"", "~", "null", "Null", "y", "Yes", "on", "OFF", "n", "true", "False", "<<", "=",
		"0", "-0", "+0", "007", "08", "0x1F", "0X1f", "0o17", "0b101", "-0b101", "0b2", "1_000", "_1", "1__0",
		"9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775809",
		"1.5", ".5", "-.5", "+.5", "1.", "1e3", "1E+3", "1e-7", "1e21", "1e400", ".inf", "-.Inf", "+.INF", ".nan", "._5", "0x1p3", "1_0.5",
		"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "1:20", "190:20:30",
		"0B101", "0xFF_FF", "0o7_7", "+Inf", "1.2.3", "0x1p3", "-0bz", "0bz", "250m", "64Mi", "25%", "1e5", "-1_2.5e+3",
		"a b", "a #b", "a#b", "a: b", "a:b", "-a", "- a", "--", "?a", ":a", "%a", "@a", "`a", "!a", "&a", "*a", "[a]", "{a}", "[]", "{}", "[ ]",
		"<b> & c", "\\", "\"", "'", "it''s", `\x41\u00e9\U0001F600\N\_\L\P\0\a\e\ \/`, `\uD800`, "é", "\u2028", "\u00a0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, doc := range []string{
			"a: " + s + "\n", s + ": a\n", "a:\n- " + s + "\n- b\n", "a: \"" + s + "\"\n", "a: '" + s + "'\n",
			"\"" + s + "\": 1\n", "'" + s + "': 1\n", "a: |\n  " + s + "\n", "a: |-\n  " + s + "\n\n", "a: |+\n  " + s + "\n\n",
			s + ": 1\nb: 2\n" + s + ": 3\n", "a: [" + s + "]\n", "a: [x, " + s + " , \"" + s + "\"]\n", "x:\n  " + s + ": 1\n  1: 2\n  true: 3\n",
		} {
			checkBlockJSON(t, []byte(doc))
		}
	})
}
