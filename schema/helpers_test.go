package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/yaml"
)

// atomAt resolves the SMD atom at a path below a type: field names, "[]"
// for the elements of a list and "{}" for the values of a map. Element
// relationship overrides on references are applied, as SMD does.
func atomAt(t *testing.T, typ *Type, path ...string) smdschema.Atom {
	t.Helper()
	s := typ.Parseable.Schema
	a, ok := s.Resolve(typ.Parseable.TypeRef)
	if !ok {
		t.Fatalf("%v: type does not resolve", typ.GVK)
	}
	for i, step := range path {
		var next smdschema.TypeRef
		switch {
		case step == "[]":
			if a.List == nil {
				t.Fatalf("%v: %s is not a list", typ.GVK, strings.Join(path[:i], "."))
			}
			next = a.List.ElementType
		case step == "{}":
			if a.Map == nil {
				t.Fatalf("%v: %s is not a map", typ.GVK, strings.Join(path[:i], "."))
			}
			next = a.Map.ElementType
		default:
			if a.Map == nil {
				t.Fatalf("%v: %s is not a map", typ.GVK, strings.Join(path[:i], "."))
			}
			f, ok := a.Map.FindField(step)
			if !ok {
				t.Fatalf("%v: %s has no field %q", typ.GVK, strings.Join(path[:i], "."), step)
			}
			next = f.Type
		}
		a, ok = s.Resolve(next)
		if !ok {
			t.Fatalf("%v: %s does not resolve", typ.GVK, strings.Join(path[:i+1], "."))
		}
	}
	return a
}

// fieldDefault returns the schema default of a field of the struct at path.
func fieldDefault(t *testing.T, typ *Type, field string, path ...string) any {
	t.Helper()
	a := atomAt(t, typ, path...)
	f, ok := a.Map.FindField(field)
	if !ok {
		t.Fatalf("%v: no field %s at %v", typ.GVK, field, path)
	}
	return f.Default
}

func mustLookup(t *testing.T, r *Registry, apiVersion, kind string) *Type {
	t.Helper()
	typ, ok := r.Lookup(GVKFromAPIVersionKind(apiVersion, kind))
	if !ok {
		t.Fatalf("%s %s: not in the registry", apiVersion, kind)
	}
	return typ
}

// fromYAML decodes one YAML object the way the CLI does.
func fromYAML(t *testing.T, text string) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := decodeJSONObject(j)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

// fieldSetPaths returns the paths of a field set in the server's notation,
// sorted.
func fieldSetPaths(s *fieldpath.Set) []string {
	var out []string
	s.Iterate(func(p fieldpath.Path) { out = append(out, p.String()) })
	sort.Strings(out)
	return out
}

// toJSONString formats a value as indented JSON for failure messages.
func toJSONString(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// fixtureCase is one recorded case.
type fixtureCase struct {
	name     string
	dir      string
	meta     map[string]any // case.yaml
	live     map[string]any // nil for a create
	manifest map[string]any
	want     map[string]any
	crds     []byte
}

func loadCase(t *testing.T, dir string) fixtureCase {
	t.Helper()
	c := fixtureCase{name: filepath.Base(dir), dir: dir}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			t.Fatal(err)
		}
		return b
	}
	decode := func(b []byte) map[string]any {
		if b == nil {
			return nil
		}
		if j := bytes.TrimSpace(b); len(j) > 0 && j[0] != '{' {
			var err error
			if b, err = yaml.YAMLToJSON(b); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		obj, err := decodeJSONObject(b)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		return obj
	}
	c.meta = decode(read("case.yaml"))
	c.live = decode(read("live.json"))
	c.manifest = decode(read("manifest.yaml"))
	c.want = decode(read("want.json"))
	c.crds = read("crds.yaml")
	return c
}

func (c fixtureCase) request(key string) any {
	req, _ := c.meta["request"].(map[string]any)
	return req[key]
}

func (c fixtureCase) responseCode() int64 {
	resp, _ := c.meta["response"].(map[string]any)
	code, _ := resp["code"].(int64)
	return code
}

// allCases loads every recorded case.
func allCases(t *testing.T) []fixtureCase {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(testkit.RecordedDir(t), "*", "case.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []fixtureCase
	for _, d := range dirs {
		out = append(out, loadCase(t, filepath.Dir(d)))
	}
	if len(out) == 0 {
		t.Fatal("no recorded cases")
	}
	return out
}
