package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestDecodeJSONIntegers(t *testing.T) {
	v := DecodeJSON(t, []byte(`{"a":1,"b":1.5,"c":[2]}`)).(map[string]any)
	if _, ok := v["a"].(int64); !ok {
		t.Errorf("a = %T, want int64", v["a"])
	}
	if _, ok := v["b"].(float64); !ok {
		t.Errorf("b = %T, want float64", v["b"])
	}
	if _, ok := v["c"].([]any)[0].(int64); !ok {
		t.Errorf("c[0] = %T, want int64", v["c"].([]any)[0])
	}
}

func TestDiff(t *testing.T) {
	want := map[string]any{"spec": map[string]any{"replicas": int64(1), "a": "x"}, "l": []any{"p"}}
	got := map[string]any{"spec": map[string]any{"replicas": int64(2)}, "l": []any{"q"}}
	d := Diff(want, got)
	for _, s := range []string{".l[0]: want \"p\", got \"q\"", ".spec.a: want present=true \"x\", got present=false", ".spec.replicas: want 1, got 2"} {
		if !strings.Contains(d, s) {
			t.Errorf("Diff lacks %q:\n%s", s, d)
		}
	}
	if d := Diff(want, want); d != "" {
		t.Errorf("Diff of equal objects = %q", d)
	}
}

func TestStoredObjects(t *testing.T) {
	objs := StoredObjects(t)
	for name, obj := range objs {
		if obj["kind"] == nil || obj["kind"] == "Status" {
			t.Errorf("%s: kind %v", name, obj["kind"])
		}
	}
}

// fatalTB records a Fatalf instead of failing the test that runs it.
type fatalTB struct {
	testing.TB
	fatal string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (f *fatalTB) Helper() {}

// call runs fn with a fatalTB and returns what it failed with, "" when it did not.
func call(t *testing.T, fn func(testing.TB)) string {
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f.fatal
}

// Without recorded cases a test fails, naming where it looked: it never skips.
func TestRecordedDirMissingFails(t *testing.T) {
	t.Setenv("SSA_DIFF_FIXTURES", filepath.Join(t.TempDir(), "none"))
	msg := call(t, func(tb testing.TB) { RecordedDir(tb) })
	if !strings.Contains(msg, "no recorded cases in") || !strings.Contains(msg, "none") {
		t.Errorf("RecordedDir without cases failed with %q", msg)
	}
	msg = call(t, func(tb testing.TB) { RecordedCase(tb, "no-such-case") })
	if msg == "" {
		t.Error("RecordedCase of a missing directory did not fail")
	}
}

// The repository's own copy is found from any package.
func TestRecordedDirDefault(t *testing.T) {
	t.Setenv("SSA_DIFF_FIXTURES", "")
	dir := RecordedDir(t)
	if want := filepath.Join(RepoRoot(t), "testdata", "recorded"); dir != want {
		t.Errorf("RecordedDir = %s, want %s", dir, want)
	}
	cases := RecordedCases(t)
	if len(cases) < 80 {
		t.Errorf("%d recorded cases", len(cases))
	}
	if c := RecordedCase(t, filepath.Base(cases[0])); c != cases[0] {
		t.Errorf("RecordedCase = %s, want %s", c, cases[0])
	}
}

func TestGolden(t *testing.T) {
	p := filepath.Join(t.TempDir(), "g", "out.txt")
	if msg := call(t, func(tb testing.TB) { Golden(tb, p, []byte("x\n")) }); !strings.Contains(msg, "go test -update") {
		t.Errorf("Golden of a missing file failed with %q", msg)
	}
	*update = true
	Golden(t, p, []byte("a\nb\n"))
	*update = false
	if b, err := os.ReadFile(p); err != nil || string(b) != "a\nb\n" {
		t.Fatalf("-update wrote %q, %v", b, err)
	}
	Golden(t, p, []byte("a\nb\n"))
}

func TestLineDiff(t *testing.T) {
	for _, c := range []struct{ want, got, diff string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\nc\n", "a\nx\nc\n", "first difference at line 2\n  a\n- b\n+ x\n"},
		{"a\n", "a\nb\n", "first difference at line 2\n  a\n+ b\n"},
		{"a", "a\n", "first difference at line 1\n- a⏎ (no newline at the end)\n+ a\n"},
	} {
		if d := LineDiff(c.want, c.got); d != c.diff {
			t.Errorf("LineDiff(%q, %q) = %q, want %q", c.want, c.got, d, c.diff)
		}
	}
	long := strings.Repeat("l\n", 20)
	if d := LineDiff("", long); !strings.Contains(d, "+ … 8 more lines") {
		t.Errorf("a long difference is not cut:\n%s", d)
	}
}
