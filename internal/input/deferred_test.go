package input

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// readAll describes everything a Loader's read gives: each error, and of each object its
// source, tree (decoded), warnings, lines, identity and managedFields; then what matching
// the objects against themselves gives. It also counts the deferred objects.
// A file is read when file is not "", else data from standard input.
func readAll(t *testing.T, data []byte, file string, lim Limits, deferring, noLines bool) (string, int) {
	t.Helper()
	name := "-"
	l := &Loader{Stdin: strings.NewReader(string(data)), Limits: lim}
	if file != "" {
		name = file
	}
	l.NoFieldLines, l.CompactManagedFields, l.DeferDecoding = noLines, noLines, deferring
	entries := l.Load(name)
	var b strings.Builder
	var objs []*Object
	deferred := 0
	for _, e := range entries {
		if e.Err != nil {
			fmt.Fprintf(&b, "error %s\n", e.Err)
			continue
		}
		o := e.Object
		if o.Deferred() {
			deferred++
			if o.Object != nil {
				t.Fatalf("%s: a deferred object with a tree", o.Source)
			}
		}
		tree, err := o.Decode()
		if err != nil {
			t.Fatalf("%s: %v", o.Source, err)
		}
		js, err := json.Marshal(tree)
		if err != nil {
			t.Fatal(err)
		}
		av, kind, ns, nm := o.Meta()
		fmt.Fprintf(&b, "object %s %s %q lines %d %d %d %d %d meta %q %q %q %q %v %v\n", o.Source, js, o.Warnings,
			o.Line(""), o.Line("/metadata/name"), o.Line("/spec/template/spec/containers/0/image"),
			o.LineOfFieldPath(".data.k"), o.LineOfFieldPathIn(tree, `.spec.template.spec.containers[name="app"].image`),
			av, kind, ns, nm, o.GVK(), o.HasManagedFields())
		objs = append(objs, o)
	}
	for _, raw := range []bool{false, true} {
		var opts []MatchOption
		if raw {
			opts = append(opts, RawRequests())
		}
		m := Match(objs, objs, nil, "default", opts...)
		for _, p := range m.Pairs {
			live := ""
			if p.Live != nil {
				live = p.Live.Source.String()
			}
			fmt.Fprintf(&b, "pair %v %s %v %q live %s err %v\n", p.GVK, p.ID, p.Mismatched, p.Warnings, live, p.Err)
		}
		fmt.Fprintf(&b, "match errors %v warnings %q\n", m.Errors, m.Warnings)
	}
	return b.String(), deferred
}

// sameDeferred checks that a deferring read gives what a decoding read gives, and returns
// how many objects it deferred.
func sameDeferred(t *testing.T, data []byte, lim Limits, yamlName bool) int {
	t.Helper()
	file := ""
	if yamlName {
		// Read as a file, so that a YAML stream is read as YAML even when it looks like JSON.
		file = filepath.Join(t.TempDir(), "m.yaml")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, noLines := range []bool{false, true} {
		want, none := readAll(t, data, file, lim, false, noLines)
		if none != 0 {
			t.Fatal("objects deferred without DeferDecoding")
		}
		got, deferred := readAll(t, data, file, lim, true, noLines)
		if got != want {
			t.Fatalf("NoFieldLines %v: deferring changes what is read:\n%s", noLines, testkit.LineDiff(want, got))
		}
		n += deferred
	}
	return n
}

// Deferring decoding changes nothing that is read: not the trees, not an error, warning
// or line, not the pairs. Checked on Lists of every sort of item (read item by item, and
// read whole after all when something is wrong between the items), on JSON and YAML
// documents, on objects that cannot be deferred, and on the repository's inputs.
func TestDeferredReadsAsDecoded(t *testing.T) {
	item := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","managedFields":[{"manager":"m","fieldsV1":{"f:data":{"f:k":{}}}}]},"data":{"k":"v"}}`
	many := strings.TrimSuffix(strings.Repeat(item+",\n", 20), ",\n")
	cases := map[string]string{
		"mixed":          string(mixedList(300, 3, false)),
		"mixed latin1":   string(mixedList(300, 4, true)),
		"bad item":       "{\"kind\":\"List\",\"items\":[\n" + many + ",\n{\"a\" 1},\n" + many + "]}",
		"missing comma":  "{\"kind\":\"List\",\"items\":[\n" + many + "\n" + many + "]}",
		"trailing comma": "{\"kind\":\"List\",\"items\":[\n" + many + ",\n]}",
		"truncated":      "{\"kind\":\"List\",\"items\":[\n" + many + ",\n{\"a\":\n",
		"not a List":     "{\"kind\":\"Thing\",\"items\":[\n" + many + "]}\n" + item,
		"two items keys": "{\"kind\":\"List\",\"items\":[\n" + many + "],\"items\":[" + item + "]}",
		"array":          "[\n" + many + ",\n  {\"apiVersion\": \"v1\",\n \"kind\": \"Secret\",\n \"metadata\": {\"name\": \"s\", \"namespace\": \"ns\"}}]",
		"odd identities": `{"kind":"List","items":[
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"esc\u0061ped"}},
			{"apiVersion":"v1","kin\u0064":"ConfigMap","metadata":{"name":"k"}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"caf` + "\xe9" + `"}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"café"}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"n","namespace":null}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"n","namespace":""}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":7}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"g-"}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":[]},
			{"apiVersion":"v1","kind":"ConfigMap"},
			{"apiVersion":"","kind":"ConfigMap","metadata":{"name":"x"}},
			{"kind":"ConfigMap","metadata":{"name":"x"}},
			{"apiVersion":"v1","kind":"ConfigMapList","metadata":{"name":"x"}},
			{"apiVersion":"v1","kind":"ConfigMapList","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"inner"}}]},
			{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"crd"}},
			{"metadata":{"name":"late","namespace":"ns","labels":{"a":"}{"}},"apiVersion":"apps/v1","kind":"Deployment","spec":{"x":[1,2.0,-3e400,{"}":"]"}]}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup2"}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"same"}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"same"}}
		],"apiVersion":"v1"}`,
		"json documents": item + "\n" + `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"caf` + "\xe9" + `"}}` + "\n" + `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","name":"t"}}`,
	}
	yamlCases := map[string]string{
		"yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\n  namespace: shop\nspec:\n  replicas: 1.0\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a&b\ndata:\n  k: yes\n  k2: <x>\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n  name: e\n" +
			"---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: i}\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  a: [[[[[[[1]]]]]]]\n" +
			"---\n- 1\n---\nplain\n",
		"json as yaml file": item + "\n",
	}
	deferred := 0
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			for _, lim := range []Limits{{}, {MaxDocumentBytes: 1000}, {MaxDepth: 5}, {MaxObjects: 10}} {
				deferred += sameDeferred(t, []byte(text), lim, false)
			}
		})
	}
	for name, text := range yamlCases {
		t.Run(name, func(t *testing.T) {
			for _, lim := range []Limits{{}, {MaxDepth: 5}} {
				deferred += sameDeferred(t, []byte(text), lim, true)
			}
		})
	}
	// The repository's own inputs.
	root := filepath.Join("..", "..", "testdata")
	for _, dir := range []string{"examples", "bad"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !IsManifestFile(p) {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil || len(data) > 1<<20 {
				return nil
			}
			t.Run(p, func(t *testing.T) { deferred += sameDeferred(t, data, Limits{}, strings.HasSuffix(p, ".yaml")) })
			return nil
		})
	}
	if deferred < 1000 {
		t.Fatalf("only %d objects deferred: deferring is not exercised", deferred)
	}
}

// What cannot be deferred is decoded at once; what can is kept as text.
func TestWhatIsDeferred(t *testing.T) {
	for _, tc := range []struct {
		item string
		want bool
	}{
		{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"b","managedFields":[]},"data":{}}`, true},
		{`{"metadata":{"labels":{"x":"{"},"name":"a"},"kind":"Secret","apiVersion":"v1"}`, true},
		{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a\u0062"}}`, false},
		{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"é"}}`, false},
		{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":null}}`, false},
		{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"a"}}`, false},
		{`{"apiVersion":"v1","kind":"ConfigMapList","metadata":{"name":"a"}}`, false},
		{`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a"}}`, false},
		{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","name":"b"}}`, false},
		{`["apiVersion"]`, false},
	} {
		data := "{\"kind\":\"List\",\"items\":[\n" + tc.item + "\n]}"
		l := Loader{Stdin: strings.NewReader(data), NoFieldLines: true, DeferDecoding: true}
		objs, _ := Split(l.Load("-"))
		got := len(objs) == 1 && objs[0].Deferred()
		if got != tc.want {
			t.Errorf("%s: deferred %v, want %v", tc.item, got, tc.want)
		}
	}
}

// FuzzDeferred reads arbitrary bytes with and without DeferDecoding: the reads must
// agree in everything.
func FuzzDeferred(f *testing.F) {
	f.Add([]byte(`{"kind":"List","items":[{"apiVersion":"v1","kind":"A","metadata":{"name":"x"}},2,{"kind":"List","items":[{"kind":"X"}]}]}`))
	f.Add([]byte("apiVersion: v1\nkind: A\nmetadata:\n  name: x\n"))
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lim := range []Limits{{}, {MaxDocumentBytes: 256, MaxDepth: 5, MaxAliasNodes: 20}} {
			sameDeferred(t, data, lim, false)
		}
	})
}

// sameHead checks that readHead skipping the values the Compactor located reads the same
// identity as scanning them, and reports whether the text gave one.
func sameHead(t *testing.T, data []byte, sc *compacting) bool {
	t.Helper()
	text, head, _, ok := compactObject(data, sc)
	want, wantOK := readHead(text, nil)
	if ok != wantOK || ok && *head != *want {
		t.Fatalf("%q: head %+v %v, scanning %+v %v", data, head, ok, want, wantOK)
	}
	return ok
}

func TestReadHeadSkips(t *testing.T) {
	var sc compacting
	read := 0
	for _, s := range []string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"n","managedFields":[{"manager":"m"}]},"data":{"k":"{\"}"}}`,
		`{"spec": {"x": [1, {"y": "}"}]}, "metadata": {"labels": {"a": "b"}, "name": "b", "namespace": "n"}, "kind": "Secret", "apiVersion": "v1"}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"metadata":{"namespace":"n"}}`,
		`{"apiVersion":"v1","kind":"ConfigMapList","metadata":{"name":"a"}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"\u0061"}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":[]}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}`,
	} {
		if sameHead(t, []byte(s), &sc) {
			read++
		}
	}
	if read != 3 {
		t.Errorf("%d identities read, want 3", read)
	}
}

// FuzzReadHead holds readHead with the Compactor's spans to readHead scanning, on any text.
func FuzzReadHead(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"n","managedFields":[{"manager":"m"}]},"data":{"k":"v"}}`))
	f.Add([]byte(`{"spec":{"x":[1,{"y":"}"}]},"metadata":{"name":"b"},"kind":"Secret","apiVersion":"v1"}`))
	var sc compacting
	f.Fuzz(func(t *testing.T, data []byte) { sameHead(t, data, &sc) })
}
