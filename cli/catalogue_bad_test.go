package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"sigs.k8s.io/yaml"
)

// The catalogue of bad input, testdata/bad/<case>/: the files of one run and want.yaml,
// what ssa-diff must answer. Each case runs through the real binary three times: -o json
// (the results are checked field by field), -o text (the message a person reads names the
// file, document, line and field path) and, unless the case says otherwise, once more with
// a good companion manifest, which must still be predicted.

// badCase is a want.yaml.
type badCase struct {
	Description string   `json:"description"`
	Args        []string `json:"args"`
	// Manifests default to manifest.yaml; Live to live.json when it exists.
	Manifests []string `json:"manifests"`
	Live      string   `json:"live"`
	Exit      int      `json:"exit"`
	// Companion false: the case cannot have other objects in its run (pairing by position,
	// a limit on all input together).
	Companion *bool `json:"companion"`
	// Fixture names a recorded server case whose answer the prediction must equal.
	Fixture string      `json:"fixture"`
	Result  *badResult  `json:"result"`
	Results []badResult `json:"results"`
	// Others are objects of the same run that must still be predicted.
	Others []badResult `json:"others"`
	Stderr string      `json:"stderr"`
}

type badResult struct {
	File      string                 `json:"file"`
	Document  int                    `json:"document"`
	Item      *int                   `json:"item"`
	Line      int                    `json:"line"`
	Path      string                 `json:"path"`
	Action    string                 `json:"action"`
	Code      int                    `json:"code"`
	Message   string                 `json:"message"`
	Warning   string                 `json:"warning"`
	Namespace string                 `json:"namespace"`
	Object    map[string]interface{} `json:"object"`
}

// reportJSON is the part of the report the catalogue reads.
type reportJSON struct {
	Results []struct {
		Namespace string `json:"namespace"`
		Source    struct {
			File     string `json:"file"`
			Document int    `json:"document"`
			Item     *int   `json:"item"`
			Line     int    `json:"line"`
		} `json:"source"`
		Action string                 `json:"action"`
		Object map[string]interface{} `json:"object"`
		Error  *struct {
			Code    int    `json:"code"`
			Reason  string `json:"reason"`
			Message string `json:"message"`
			Path    string `json:"path"`
			Line    int    `json:"line"`
		} `json:"error"`
		Warnings []string `json:"warnings"`
	} `json:"results"`
}

const catalogueNow = "2026-12-02T10:00:00Z"

const companionManifest = `apiVersion: v1
kind: ConfigMap
metadata:
  name: companion
  namespace: bad-catalogue
data:
  x: new
`

func TestBadInput(t *testing.T) {
	bin := buildBinary(t)
	t.Run("catalogue", func(t *testing.T) { badInputCatalogue(t, bin) })
	t.Run("generated", func(t *testing.T) { badInputGenerated(t, bin) })
}

func badInputCatalogue(t *testing.T, bin string) {
	root := filepath.Join(repoRoot(t), "testdata", "bad")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		n++
		name := d.Name()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runBadCase(t, bin, filepath.Join(root, name))
		})
	}
	if n < 50 {
		t.Errorf("only %d cases in %s", n, root)
	}
}

func runBadCase(t *testing.T, bin, dir string) {
	raw, err := os.ReadFile(filepath.Join(dir, "want.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c badCase
	if err := yaml.UnmarshalStrict(raw, &c); err != nil {
		t.Fatalf("want.yaml: %v", err)
	}
	if c.Description == "" {
		t.Error("want.yaml has no description")
	}
	if c.Result != nil {
		c.Results = append([]badResult{*c.Result}, c.Results...)
	}
	if len(c.Results) == 0 {
		t.Fatal("want.yaml names no result")
	}

	// Run in a copy: file names in messages are then the case's own, and the inputs can be
	// checked to be untouched afterwards.
	work := t.TempDir()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "companion.yaml"), []byte(companionManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(c.Manifests) == 0 {
		c.Manifests = []string{"manifest.yaml"}
	}
	if c.Live == "" {
		if _, err := os.Stat(filepath.Join(work, "live.json")); err == nil {
			c.Live = "live.json"
		}
	}
	before := snapshot(t, work)
	args := func(output string, companion bool) []string {
		a := append([]string{"--now", catalogueNow, "-o", output}, c.Args...)
		for _, m := range c.Manifests {
			a = append(a, "-f", m)
		}
		if companion {
			a = append(a, "-f", "companion.yaml")
		}
		if c.Live != "" {
			a = append(a, c.Live)
		}
		return a
	}

	// -o json: every field.
	out, stderr, code := runBinary(t, bin, work, args("json", false)...)
	noCrash(t, out+stderr)
	if code != c.Exit {
		t.Errorf("exit %d, want %d\nstderr: %s", code, c.Exit, stderr)
	}
	if c.Stderr != "" && !strings.Contains(stderr, c.Stderr) {
		t.Errorf("stderr lacks %q:\n%s", c.Stderr, stderr)
	}
	var rep reportJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the report is not JSON: %v\n%s\nstderr: %s", err, out, stderr)
	}
	for _, w := range c.Results {
		checkBadResult(t, rep, w, true)
	}
	for _, w := range c.Others {
		checkBadResult(t, rep, w, false)
	}
	if c.Fixture != "" {
		checkFixtureAnswer(t, rep, c)
	}

	// -o text: what a person reads.
	text, stderr, code := runBinary(t, bin, work, args("text", false)...)
	noCrash(t, text+stderr)
	if code != c.Exit {
		t.Errorf("-o text: exit %d, want %d", code, c.Exit)
	}
	for _, w := range c.Results {
		for _, frag := range textFragments(w) {
			if !strings.Contains(text, frag) {
				t.Errorf("-o text lacks %q:\n%s", frag, text)
			}
		}
	}

	// With a good companion manifest, which must still be predicted.
	if c.Companion == nil || *c.Companion {
		out, stderr, code := runBinary(t, bin, work, args("json", true)...)
		noCrash(t, out+stderr)
		if want := worstExit(c.Exit, 1); code != want {
			t.Errorf("with the companion: exit %d, want %d\nstderr: %s", code, want, stderr)
		}
		var rep reportJSON
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("with the companion, the report is not JSON: %v", err)
		}
		found := false
		for _, r := range rep.Results {
			if r.Source.File == "companion.yaml" {
				found = true
				if r.Action != "create" && r.Action != "update" {
					t.Errorf("the companion was not predicted: %s %+v", r.Action, r.Error)
				}
			}
		}
		if !found {
			t.Error("the companion has no result")
		}
		for _, w := range c.Results {
			checkBadResult(t, rep, w, true)
		}
	}

	if after := snapshot(t, work); !reflect.DeepEqual(before, after) {
		t.Errorf("the inputs changed, or files were written:\nbefore %v\nafter  %v", before, after)
	}
}

// worstExit is the exit status of a run with results of both statuses: 2 wins over 3,
// 3 over 1, 1 over 0.
func worstExit(a, b int) int {
	rank := map[int]int{0: 0, 1: 1, 3: 2, 2: 3}
	if rank[a] >= rank[b] {
		return a
	}
	return b
}

func noCrash(t *testing.T, output string) {
	t.Helper()
	for _, bad := range []string{"panic:", "goroutine ", "runtime error", "internal error in ssa-diff", "stack overflow"} {
		if strings.Contains(output, bad) {
			t.Fatalf("the output shows a crash (%q):\n%s", bad, output)
		}
	}
}

func checkBadResult(t *testing.T, rep reportJSON, w badResult, full bool) {
	t.Helper()
	var candidates []string
	for _, r := range rep.Results {
		if filepath.Base(r.Source.File) != w.File || r.Source.Document != w.Document {
			continue
		}
		if w.Item != nil && (r.Source.Item == nil || *r.Source.Item != *w.Item) {
			continue
		}
		if r.Action != w.Action {
			candidates = append(candidates, r.Action)
			continue
		}
		if !full {
			return
		}
		msg, code, path, line := "", 0, "", r.Source.Line
		if r.Error != nil && r.Error.Line != 0 {
			line = r.Error.Line
		}
		if r.Error != nil {
			msg, code, path = r.Error.Message, r.Error.Code, r.Error.Path
		}
		if w.Code != 0 && code != w.Code {
			t.Errorf("%s document %d: code %d, want %d (%s)", w.File, w.Document, code, w.Code, msg)
		}
		if w.Message != "" && !strings.Contains(msg, w.Message) {
			t.Errorf("%s document %d: message %q lacks %q", w.File, w.Document, msg, w.Message)
		}
		if w.Path != "" && path != w.Path {
			t.Errorf("%s document %d: path %q, want %q", w.File, w.Document, path, w.Path)
		}
		if w.Line != 0 && line != w.Line {
			t.Errorf("%s document %d: line %d, want %d (%s)", w.File, w.Document, line, w.Line, msg)
		}
		if w.Action == "error" && !strings.Contains(msg, w.File) {
			t.Errorf("%s document %d: the message does not name the file: %q", w.File, w.Document, msg)
		}
		if w.Warning != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), w.Warning) {
			t.Errorf("%s document %d: warnings %q lack %q", w.File, w.Document, r.Warnings, w.Warning)
		}
		if w.Namespace != "" && r.Namespace != w.Namespace {
			t.Errorf("%s document %d: namespace %q, want %q", w.File, w.Document, r.Namespace, w.Namespace)
		}
		if w.Object != nil && !containsSubset(r.Object, w.Object) {
			got, _ := json.Marshal(r.Object)
			t.Errorf("%s document %d: the predicted object %s lacks %v", w.File, w.Document, got, w.Object)
		}
		return
	}
	t.Errorf("no %s result for %s document %d (item %v); results of that document: %v", w.Action, w.File, w.Document, w.Item, candidates)
}

// containsSubset reports whether got holds every value of want (maps compared key by key).
func containsSubset(got, want interface{}) bool {
	wm, ok := want.(map[string]interface{})
	if !ok {
		return reflect.DeepEqual(got, want)
	}
	gm, ok := got.(map[string]interface{})
	if !ok {
		return false
	}
	for k, v := range wm {
		if !containsSubset(gm[k], v) {
			return false
		}
	}
	return true
}

// textFragments is what -o text must show about a result.
func textFragments(w badResult) []string {
	var frags []string
	if w.Action == "error" {
		loc := fmt.Sprintf("%s, document %d", w.File, w.Document)
		if w.Item != nil {
			loc += fmt.Sprintf(", item %d", *w.Item)
		}
		if w.Line != 0 {
			loc += fmt.Sprintf(", line %d", w.Line)
		}
		if !strings.Contains(w.Message, w.File+": ") { // not a whole-file error
			frags = append(frags, loc)
		}
		if w.Path != "" {
			frags = append(frags, w.Path+": ")
		}
	}
	if w.Message != "" {
		frags = append(frags, w.Message)
	}
	return frags
}

// checkFixtureAnswer compares the prediction with the recorded server answer.
func checkFixtureAnswer(t *testing.T, rep reportJSON, c badCase) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testkit.RecordedCase(t, c.Fixture), "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Kind    string `json:"kind"`
		Code    int    `json:"code"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if filepath.Base(r.Source.File) != c.Results[0].File || r.Source.Document != c.Results[0].Document {
			continue
		}
		if want.Kind != "Status" {
			if r.Error != nil {
				t.Errorf("the server accepted the request (fixture %s); predicted %+v", c.Fixture, r.Error)
			}
			return
		}
		if r.Error == nil || r.Error.Code != want.Code || r.Error.Reason != want.Reason || r.Error.Message != want.Message {
			t.Errorf("fixture %s: the server answered %d %q %q; predicted %+v", c.Fixture, want.Code, want.Reason, want.Message, r.Error)
		}
		return
	}
	t.Errorf("fixture %s: no result", c.Fixture)
}

// snapshot is every file under dir: name, size, modification time and contents.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %s %x", d.Name(), info.Size(), info.ModTime().Format(time.RFC3339Nano), sha256.Sum256(data)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// Limits that take generated input, too big to keep in testdata: 100,000 levels of
// nesting, a document right at the depth limit through the whole engine, directory walks
// with links that loop.
func badInputGenerated(t *testing.T, bin string) {
	work := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(work, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const n = 100000
	write("deep.json", []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep","namespace":"ns"},"data":`+strings.Repeat("[", n)+strings.Repeat("]", n)+"}"))
	write("deep.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\n  namespace: ns\ndata: "+strings.Repeat("{a: ", n)+"1"+strings.Repeat("}", n)+"\n"))
	for _, f := range []string{"deep.json", "deep.yaml"} {
		start := time.Now()
		out, stderr, code := runBinary(t, bin, work, "-o", "json", f)
		noCrash(t, out+stderr)
		if code != 2 || !strings.Contains(out, "maps and lists nest deeper than 1000 levels") || !strings.Contains(out, f+", document 0") {
			t.Errorf("%s: exit %d\n%s", f, code, out)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s took %v", f, d)
		}
	}

	// At the limit, the document goes through the engine (a custom resource without a
	// schema: every level is a map structured-merge-diff recurses into) and the outputs.
	deep := func(depth int, leaf string) string {
		return strings.Repeat(`{"a":`, depth) + leaf + strings.Repeat("}", depth)
	}
	// The object and spec are two of the levels; the live object's fieldsV1 owning the
	// deepest field nests four levels deeper than the field (metadata, managedFields, the
	// entry, fieldsV1) and must fit too.
	const d = 1000 - 6
	write("limit/m.json", []byte(`{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"ns"},"spec":`+deep(d, `"new"`)+"}"))
	write("limit/l.json", []byte(`{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"ns","managedFields":[{"manager":"other","operation":"Update","apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":`+strings.Repeat(`{"f:a":`, d)+"{}"+strings.Repeat("}", d)+`}}]},"spec":`+deep(d, `"old"`)+"}"))
	for _, o := range []string{"json", "text"} {
		start := time.Now()
		out, stderr, code := runBinary(t, bin, work, "--now", catalogueNow, "-o", o, "limit/m.json", "limit/l.json")
		noCrash(t, out+stderr)
		if code != 3 || !strings.Contains(out, "conflict") {
			t.Errorf("depth %d, -o %s: exit %d\n%.2000s\n%s", d+2, o, code, out, stderr)
		}
		t.Logf("depth %d through the engine, -o %s: %v", d+2, o, time.Since(start))
	}

	// Directory walks: a link back up the tree, a link to itself, a pipe that would block.
	write("tree/a.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: ns\n"))
	write("tree/sub/b.txt", []byte("not read"))
	if err := os.Symlink("..", filepath.Join(work, "tree", "sub", "up")); err != nil {
		t.Skip(err)
	}
	os.Symlink("self.yaml", filepath.Join(work, "tree", "self.yaml"))
	out, stderr, code := runBinary(t, bin, work, "-o", "json", "tree")
	noCrash(t, out+stderr)
	if code != 2 || strings.Count(out, `"action": "create"`) != 1 || !strings.Contains(out, "self.yaml: cannot read: too many levels of symbolic links") {
		t.Errorf("tree: exit %d\n%s\n%s", code, out, stderr)
	}
	if !bytes.Contains([]byte(out), []byte(`"name": "a"`)) {
		t.Errorf("tree: a.yaml not read")
	}
}
