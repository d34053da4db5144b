package defaults

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// fixturesDir locates the recorded server cases (shared/fixtures beside the
// repository, or $SSA_DIFF_FIXTURES).
func fixturesDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SSA_DIFF_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "fixtures")
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Skipf("recorded fixtures not found at %s", dir)
	}
	return dir
}

// decodeJSON decodes JSON into the unstructured form: integers as int64.
func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decoding JSON: %v", err)
	}
	return fromNumbers(v)
}

func fromNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = fromNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = fromNumbers(e)
		}
	}
	return v
}

func readObject(t *testing.T, file string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(file, ".yaml") {
		if b, err = yaml.YAMLToJSON(b); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	m, _ := decodeJSON(t, b).(map[string]any)
	return m
}

// storedObjects returns every object a server returned in the fixtures
// (live.json, want.json and after.json of successful cases), by name.
func storedObjects(t *testing.T) map[string]map[string]any {
	dir := fixturesDir(t)
	out := map[string]map[string]any{}
	cases, _ := filepath.Glob(filepath.Join(dir, "*", "case.yaml"))
	for _, c := range cases {
		cd := filepath.Dir(c)
		for _, f := range []string{"live.json", "want.json", "after.json"} {
			p := filepath.Join(cd, f)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			obj := readObject(t, p)
			if obj["kind"] == "Status" || obj["kind"] == "Scale" {
				continue
			}
			out[filepath.Base(cd)+"/"+f] = obj
		}
	}
	if len(out) == 0 {
		t.Fatal("no stored objects in the fixtures")
	}
	return out
}

func diffJSON(a, b any) string {
	ja, _ := json.MarshalIndent(a, "", " ")
	jb, _ := json.MarshalIndent(b, "", " ")
	la, lb := strings.Split(string(ja), "\n"), strings.Split(string(jb), "\n")
	var out []string
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			out = append(out, "- "+x, "+ "+y)
			if len(out) > 20 {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// Every object the server stored is a fixed point: normalising or defaulting
// it again changes nothing (the server itself re-defaults on every read).
func TestStoredObjectsAreFixedPoints(t *testing.T) {
	objs := storedObjects(t)
	names := make([]string, 0, len(objs))
	for n := range objs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		obj := objs[name]
		av, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		if !Known(av, kind) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			for _, step := range []struct {
				name string
				fn   func(string, string, map[string]any) error
			}{{"Normalize", Normalize}, {"Default", Default}} {
				got := deepCopy(obj).(map[string]any)
				if err := step.fn(av, kind, got); err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
				if !reflect.DeepEqual(got, obj) {
					t.Errorf("%s changed a stored object:\n%s", step.name, diffJSON(obj, got))
				}
			}
		})
	}
}
