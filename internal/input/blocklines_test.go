package input

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yamlv2 "go.yaml.in/yaml/v2"
)

// sameBlockLines fails t when blockLines reads raw and finds other lines than yaml.v3's
// nodes give; it reports whether blockLines read it.
func sameBlockLines(t *testing.T, name string, raw []byte, firstLine int) bool {
	t.Helper()
	got, ok := blockLines(raw, firstLine)
	if !ok {
		return false
	}
	if want := yamlLines(raw, firstLine); !maps.Equal(got, want) {
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %q: line %d, yaml.v3 says %d", name, k, got[k], v)
			}
		}
		for k, v := range got {
			if _, has := want[k]; !has {
				t.Errorf("%s: %q: line %d, not in yaml.v3's nodes", name, k, v)
			}
		}
		t.Fatalf("%s: blockLines differs from yaml.v3 on:\n%s", name, raw)
	}
	return true
}

// TestBlockLinesSameAsYAML reads every YAML document of the repository's test data (and
// of the generated corpus when there is one) both ways: where blockLines reads one, its
// lines are yaml.v3's. It must read most of them, or the fast path is lost.
func TestBlockLinesSameAsYAML(t *testing.T) {
	read, docs := 0, 0
	for _, root := range []string{filepath.Join("..", "..", "testdata"), "testdata"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				return nil
			}
			if strings.Contains(p, "bench-corpus") && !strings.Contains(p, filepath.Join("bench-corpus", "1000")) {
				return filepath.SkipDir
			}
			data, err := os.ReadFile(p)
			if err != nil || len(data) > 1<<20 {
				return nil
			}
			splitYAML(bufio.NewReader(bytes.NewReader(data)), 1<<20, func(rd rawDoc) bool {
				var tree any
				if rd.err != nil || yamlv2.Unmarshal(rd.data, &tree) != nil {
					return true
				}
				docs++
				if sameBlockLines(t, p, rd.data, rd.firstLine) {
					read++
				}
				return true
			})
			return nil
		})
	}
	t.Logf("blockLines read %d of %d documents", read, docs)
	if docs == 0 || read*10 < docs*7 {
		t.Fatalf("blockLines read %d of %d documents: expected most", read, docs)
	}
}

func TestBlockLines(t *testing.T) {
	for _, c := range []struct {
		doc  string
		read bool
	}{
		{"a: 1\nb:\n  c: d\n  e:\n  - f\n  - g: h\n    i: j\n  -\n    k: l\n", true},
		{"# head\n\nkind: ConfigMap   # c\ndata:\n  x: |\n    one\n\n    # not a comment\n  y: >-\n    two\n# tail\n", true},
		{"a: {}\nb: []\nc: \"q: r\"\nd: 'it''s'\n\"e\": f\n'g' : h\n", true},
		{"spec:\n  containers:\n  - name: app\n    args: [\"x\", y z, 'w']\n    - [a]\n", false}, // an item in a mapping
		{"spec:\n  containers:\n  - name: app\n    args: [\"x\", y z, 'w']\n  - [a,b]\n", true},
		{"a: [{b: c}]\n", false},    // flow content
		{"a: [b, ]\n", false},       // an empty flow item
		{"a: &x 1\nb: *x\n", false}, // anchors
		{"a: b\n  c\n", false},      // a plain scalar continued
		{"a: \"b\n  c\"\n", false},  // a quoted scalar continued
		{"a: |2\n   b\n", false},    // an indentation indicator
		{"a: 1\na: 2\n", false},     // a duplicate key
		{"- a\n- b\n", false},       // not a mapping
		{"a:\n-\n- b\n", false},     // an empty item
		{"a:\tb\n", false},          // a tab
		{"a: b\r\n", false},         // a carriage return
		{"a: b\u2028c: d\n", false}, // a Unicode line break
		{"? a\n: b\n", false},       // an explicit key
		{"a: !!str b\n", false},     // a tag
		{"<<: {}\n", false},         // a merge key
		{"a:\n  - - b\n", false},    // a compact nested sequence
	} {
		raw := []byte(c.doc)
		if got := sameBlockLines(t, "", raw, 7); got != c.read {
			t.Errorf("blockLines(%q) read it: %v, want %v", c.doc, got, c.read)
		}
	}
}

// FuzzBlockLines holds blockLines to yaml.v3's nodes on every document yaml.v2 accepts
// (the documents whose lines are asked for were read by yaml.v2 first).
func FuzzBlockLines(f *testing.F) {
	f.Add([]byte("a: 1\nb:\n  c: d\n  e:\n  - f\n  - g: h\n    i: j\n  -\n    k: l\n"))
	f.Add([]byte("kind: ConfigMap\ndata:\n  x: |\n    one\n\n    # two\n  y: >-\n    two\n"))
	f.Add([]byte("a: {}\nb: []\nc: \"q: r\"\nd: 'it''s'\n\"e\": f\n'g' : h\n"))
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var tree any
		if yamlv2.Unmarshal(data, &tree) != nil {
			return
		}
		sameBlockLines(t, "fuzz", data, 3)
	})
}
