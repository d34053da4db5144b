package testkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// RecordedDir is the directory of the recorded cases: $SSA_DIFF_FIXTURES when it is set,
// else testdata/recorded of the repository. The test fails when the directory holds no
// recorded cases: a test that needs them never passes without them.
func RecordedDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("SSA_DIFF_FIXTURES")
	if dir == "" {
		dir = filepath.Join(RepoRoot(t), "testdata", "recorded")
	}
	if cases, _ := filepath.Glob(filepath.Join(dir, "*", "case.yaml")); len(cases) == 0 {
		t.Fatalf("no recorded cases in %s (make refresh-recorded copies them from ../shared/fixtures)", dir)
	}
	return dir
}

// RecordedCases lists the directories of the recorded cases, sorted by name.
func RecordedCases(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(RecordedDir(t), "*", "case.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dirs := make([]string, len(files))
	for i, f := range files {
		dirs[i] = filepath.Dir(f)
	}
	sort.Strings(dirs)
	return dirs
}

// RecordedCase is the directory of the named recorded case; the test fails when it is absent.
func RecordedCase(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(RecordedDir(t), name)
	if _, err := os.Stat(filepath.Join(dir, "case.yaml")); err != nil {
		t.Fatalf("recorded case %s: %v", name, err)
	}
	return dir
}

// RepoRoot is the root of the ssa-diff repository (the directory of the main module's
// go.mod), found upwards from the test's working directory; the separate modules under
// conformance/ find it too.
func RepoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module "+modulePath+"\n")) {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatalf("the go.mod of %s is in no parent of %s", modulePath, wd)
			return ""
		}
	}
}

const modulePath = "github.com/ssa-diff/ssa-diff"

// DecodeJSON decodes JSON into the unstructured form: integers as int64.
func DecodeJSON(t testing.TB, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decoding JSON: %v", err)
	}
	return FromNumbers(v)
}

// FromNumbers turns the json.Numbers of v, decoded with UseNumber, into the unstructured
// form's numbers in place: int64 where the text is an integer int64 holds, float64 otherwise.
func FromNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = FromNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = FromNumbers(e)
		}
	}
	return v
}

// ReadObject reads a JSON or YAML (.yaml) file holding one object.
func ReadObject(t testing.TB, file string) map[string]any {
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
	m, _ := DecodeJSON(t, b).(map[string]any)
	return m
}

// CaseFile reads one file of a recorded case directory; nil when it is absent.
func CaseFile(t testing.TB, dir, name string) map[string]any {
	t.Helper()
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		return nil
	}
	return ReadObject(t, p)
}

// StoredObjects returns every object the server returned in the recorded cases (live.json,
// want.json and after.json; not Status or Scale answers), by case and file name.
func StoredObjects(t testing.TB) map[string]map[string]any {
	t.Helper()
	dir := RecordedDir(t)
	out := map[string]map[string]any{}
	cases, _ := filepath.Glob(filepath.Join(dir, "*", "case.yaml"))
	for _, c := range cases {
		cd := filepath.Dir(c)
		for _, f := range []string{"live.json", "want.json", "after.json"} {
			obj := CaseFile(t, cd, f)
			if obj == nil || obj["kind"] == "Status" || obj["kind"] == "Scale" {
				continue
			}
			out[filepath.Base(cd)+"/"+f] = obj
		}
	}
	if len(out) == 0 {
		t.Fatal("no stored objects in the recorded cases")
	}
	return out
}

// Diff lists the first paths (up to 12) where want and got differ, with both values; ""
// when they are equal.
func Diff(want, got any) string {
	var out []string
	var walk func(p string, w, g any)
	walk = func(p string, w, g any) {
		if len(out) >= 12 {
			return
		}
		wm, wok := w.(map[string]any)
		gm, gok := g.(map[string]any)
		if wok && gok {
			keys := map[string]bool{}
			for k := range wm {
				keys[k] = true
			}
			for k := range gm {
				keys[k] = true
			}
			ks := make([]string, 0, len(keys))
			for k := range keys {
				ks = append(ks, k)
			}
			sort.Strings(ks)
			for _, k := range ks {
				_, win := wm[k]
				_, gin := gm[k]
				if win != gin {
					out = append(out, fmt.Sprintf("%s.%s: want present=%v %s, got present=%v %s", p, k, win, short(wm[k]), gin, short(gm[k])))
					continue
				}
				walk(p+"."+k, wm[k], gm[k])
			}
			return
		}
		wl, wok := w.([]any)
		gl, gok := g.([]any)
		if wok && gok && len(wl) == len(gl) {
			for i := range wl {
				walk(fmt.Sprintf("%s[%d]", p, i), wl[i], gl[i])
			}
			return
		}
		if !reflect.DeepEqual(w, g) {
			out = append(out, fmt.Sprintf("%s: want %s, got %s", p, short(w), short(g)))
		}
	}
	walk("", want, got)
	return strings.Join(out, "\n")
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 160 {
		return string(b[:160]) + "…"
	}
	return string(b)
}
