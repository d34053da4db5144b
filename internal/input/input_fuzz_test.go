package input

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzSeeds adds the repository's own inputs as seeds: the examples, the bad-input
// catalogue and the recorded server cases.
func fuzzSeeds(f *testing.F) {
	root := filepath.Join("..", "..", "testdata")
	dirs := []string{filepath.Join(root, "examples"), filepath.Join(root, "bad"), filepath.Join(root, "fuzz", "input"), filepath.Join(root, "recorded")}
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() == "want.json" || d.Name() == "want.yaml" {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
			return nil
		})
	}
}

// FuzzParse reads arbitrary bytes as a manifest file and as a live file, with the default
// limits and with tiny ones. Nothing may panic; the same bytes must give the same entries;
// every error is an *Error that names the file; nothing decoded nests deeper than the
// limit; every object answers Line for any pointer; and matching the objects against
// themselves neither panics nor loses a manifest.
func FuzzParse(f *testing.F) {
	f.Add([]byte(multiDoc))
	f.Add([]byte(`{"kind":"List","items":[{"a":1},2,{"kind":"List","items":[{"kind":"X"}]}]}`))
	// Lists read item by item: larger than the tiny document limit below, with small items,
	// an item over it, nested Lists, items that are not objects, and a List cut short.
	f.Add([]byte("{\"apiVersion\":\"v1\",\"items\":[\n" + strings.Repeat(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}},`+"\n", 4) +
		`{"kind":"List","items":[{"kind":"X","metadata":{"name":"b"}},"s"]},` + "\n" + `{"kind":"ConfigMap","data":{"a":"` + strings.Repeat("x", 300) + `"}}, 1, null],"kind":"List"}` + "\n[{\"kind\":\"A\"},{\"kind\":\"B\",\"items\":[]}]"))
	f.Add([]byte(`[{"kind":"A","metadata":{"name":"x"}},` + strings.Repeat(`{"kind":"B"},`, 30) + `{"kind":"C","metadata":{"name":"y"`))
	f.Add([]byte("a: &x [*x]\n"))
	f.Add([]byte("kind: {a: [x}\n---\n\nb: [c,\n  d\n  e: f]\n---\ng: {h: i\n"))
	f.Add([]byte("\xff\xfea\x00:\x00 \x001\x00\n\x00"))
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lim := range []Limits{{}, {MaxDocumentBytes: 256, MaxDepth: 5, MaxAliasNodes: 20}} {
			first := fuzzLoad(t, data, lim)
			second := fuzzLoad(t, data, lim)
			if first.summary != second.summary {
				t.Fatalf("two reads differ:\n%s\n---\n%s", first.summary, second.summary)
			}
			for _, o := range first.objs {
				if d := depthOf(o.Object); d > lim.withDefaults().MaxDepth {
					t.Fatalf("an object nests %d deep, past the limit %d", d, lim.withDefaults().MaxDepth)
				}
				for _, p := range []string{"", "/metadata", "/metadata/name", "/spec/containers/0/image", "/items/3", "/a~1b/~0", "/0/1/2/3/4/5/6/7/8/9"} {
					if l := o.Line(p); l < 0 {
						t.Fatalf("line of %s = %d", p, l)
					}
				}
				head := string(data)
				if len(head) > 80 {
					head = head[:80]
				}
				for _, p := range []string{head, ".metadata.name", `.spec.containers[name="a"].ports[containerPort=80,protocol="TCP"]`, "[0].a[=1]"} {
					if l := o.LineOfFieldPath(p); l < 0 {
						t.Fatalf("line of %q = %d", p, l)
					}
				}
			}
			for _, raw := range []bool{false, true} {
				var opts []MatchOption
				if raw {
					opts = append(opts, RawRequests())
				}
				m := Match(first.objs, first.objs, nil, "default", opts...)
				if len(m.Pairs) != len(first.objs) {
					t.Fatalf("%d pairs for %d manifests", len(m.Pairs), len(first.objs))
				}
			}
		}
	})
}

type fuzzResult struct {
	objs    []*Object
	summary string
}

func fuzzLoad(t *testing.T, data []byte, lim Limits) fuzzResult {
	l := Loader{Stdin: strings.NewReader(string(data)), Limits: lim}
	entries := l.Load("-")
	var b strings.Builder
	var objs []*Object
	for _, e := range entries {
		if e.Err != nil {
			var ie *Error
			if !errors.As(e.Err, &ie) {
				t.Fatalf("error %v is a %T, not an *Error", e.Err, e.Err)
			}
			if !strings.HasPrefix(e.Err.Error(), "stdin") {
				t.Fatalf("error %q does not name the file", e.Err)
			}
			if ie.Line < 0 || ie.Source.Line < 0 {
				t.Fatalf("error %q has a negative line", e.Err)
			}
			if n := strings.Count(string(data), "\n") + 1; ie.Line > n {
				t.Fatalf("error %q names a line past the input's %d", e.Err, n)
			}
			fmt.Fprintf(&b, "error %s\n", e.Err)
			continue
		}
		o := e.Object
		if o.Object == nil {
			t.Fatal("an entry with neither object nor error")
		}
		js, err := json.Marshal(o.Object)
		if err != nil {
			t.Fatalf("a decoded object does not marshal: %v", err)
		}
		fmt.Fprintf(&b, "object %s %s %q\n", o.Source, js, o.Warnings)
		objs = append(objs, o)
	}
	return fuzzResult{objs, b.String()}
}

// depthOf is how deeply maps and lists nest in v (a map or list is one level).
func depthOf(v any) int {
	max := 0
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if d := depthOf(x); d > max {
				max = d
			}
		}
		return max + 1
	case []any:
		for _, x := range t {
			if d := depthOf(x); d > max {
				max = d
			}
		}
		return max + 1
	}
	return 0
}
