package input

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// Reading a directory's files ahead changes nothing: entries, errors, warnings and counts
// are those of reading the files one by one (GOMAXPROCS 1 reads no file ahead), whatever
// the limits on all input together cut, with each loader setting.
func TestReadAheadSameAsInOrder(t *testing.T) {
	dir := t.TempDir()
	cm := func(name string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  a: b\n"
	}
	list := `{"apiVersion":"v1","kind":"List","items":[` + strings.TrimSuffix(strings.Repeat(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"y","managedFields":[{"manager":"m","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}}]}},`, 6), ",") + "]}"
	files := map[string]string{
		"a.yaml":        cm("a") + "---\n" + cm("a2") + "---\n" + cm("a3"),
		"b.json":        list,
		"c.yaml":        "",
		"d.yaml":        "a: [\n",
		"e.yml":         cm("e") + "data: {x: 1}\n",
		"f/g.yaml":      cm("g") + "---\n# only a comment\n---\n" + cm("g2"),
		"f/h.json":      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"h"}}{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"h2"}}`,
		"i.yaml":        strings.Repeat(cm("i"), 1),
		"j.yaml":        "\xef\xbb\xbf" + cm("bom"),
		"k.yaml":        "kind: [unclosed\n---\n" + cm("k"),
		"l/m/n.yaml":    cm("n") + "---\n" + cm("n2") + "---\n" + cm("n3") + "---\n" + cm("n4"),
		"o.yaml":        cm("o"),
		"p.yaml":        "- 1\n- 2\n",
		"q.json":        `[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"q1"}},{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"q2"}}]`,
		"z.yaml":        cm("z"),
		"ignored.txt":   "not read",
		"l/m/zz.yaml":   cm("zz"),
		"l/m/zzz.yml":   cm("zzz") + "---\n" + cm("zzz2"),
		"r.yaml":        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: r\n  name: r2\n",
		"s.yaml":        cm("s") + "---\n" + cm("s2") + "---\n" + cm("s3") + "---\n" + cm("s4") + "---\n" + cm("s5"),
		"t.yaml":        cm("t"),
		"u/v/w/x.yaml":  cm("x"),
		"u/v/w/xx.json": list,
		// Read otherwise with RequestBodies, SourceCommentsInFiles.
		"rb.json":   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"rb",},"data":{"a":"b",},}`,
		"helm.yaml": "# Source: chart/templates/cm.yaml\n" + cm("helm") + "---\n# Source: chart/templates/other.yaml\n" + cm("helm2"),
	}
	testkit.WriteFiles(t, dir, files)
	total := 0
	for _, data := range files {
		total += len(data)
	}
	load := func(procs int, lim Limits, settings int) ([]Entry, int64, int) {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		l := &Loader{Limits: lim}
		applySettings(l, settings)
		entries := l.Load(dir)
		// What was read counts for the next path too.
		entries = append(entries, l.Load(filepath.Join(dir, "o.yaml"))...)
		return entries, l.read, l.objects
	}
	var limits []Limits
	for n := 0; n <= total+100; n += 97 {
		limits = append(limits, Limits{MaxInputBytes: int64(n)})
	}
	for n := 1; n <= 45; n += 2 {
		limits = append(limits, Limits{MaxObjects: n})
	}
	limits = append(limits, Limits{MaxDocumentBytes: 80}, Limits{MaxDepth: 2}, Limits{MaxFiles: 9})
	for _, lim := range limits {
		for settings := range loaderSettings {
			want, wantRead, wantObjects := load(1, lim, settings)
			got, read, objects := load(4, lim, settings)
			if read != wantRead || objects != wantObjects {
				t.Errorf("%+v, %s: read %d bytes and %d objects ahead, %d and %d in order", lim, loaderSettings[settings], read, objects, wantRead, wantObjects)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%+v, %s: read ahead\n%s\nin order\n%s", lim, loaderSettings[settings], describeEntries(got), describeEntries(want))
			}
		}
	}
}

// loaderSettings name the settings applySettings gives a loader: each changes how a file
// is read.
var loaderSettings = []string{"plain", "deferred", "request bodies", "source comments"}

func applySettings(l *Loader, settings int) {
	switch loaderSettings[settings] {
	case "deferred":
		l.DeferDecoding, l.CompactManagedFields, l.NoFieldLines = true, true, true
	case "request bodies":
		l.RequestBodies = true
	case "source comments":
		l.SourceCommentsInFiles, l.SourceRoot = true, "charts"
	}
}

// A file read ahead (ReadAhead: a run's live dump, while the manifests are read) changes
// nothing either: what Load reads of it and of the directory read meanwhile, the errors
// and the counts are those of reading them in order under every limit, whether Load
// reads it with the settings it was read ahead with or with others.
func TestReadAheadFileSameAsInOrder(t *testing.T) {
	dir := t.TempDir()
	item := func(i int) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c%d","namespace":"n","managedFields":[{"manager":"m","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]},"data":{"a":"%d"}}`, i, i)
	}
	var items []string
	for i := range 12 {
		items = append(items, item(i))
	}
	items[5] = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup2"}}`
	files := map[string]string{
		"repo/a.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a2\n",
		"repo/b/c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata: {x: 1}\n",
		"repo/d.json":   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d",},}`,
		"repo/e.yaml":   "a: [\n",
		"live.json":     `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + `]}`,
		"live.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n---\nnot: [closed\n",
	}
	testkit.WriteFiles(t, dir, files)
	total := 0
	for _, data := range files {
		total += len(data)
	}
	live := func(l *Loader) { l.DeferDecoding, l.CompactManagedFields, l.NoFieldLines = true, true, true }
	type run struct {
		entries []Entry
		read    int64
		objects int
	}
	load := func(procs int, lim Limits, settings int, dump string, same bool) run {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		l := &Loader{Limits: lim}
		l.ReadAhead(dump, live)
		applySettings(l, settings)
		entries := l.Load(filepath.Join(dir, "repo"))
		if same {
			live(l)
		} else {
			l.NoFieldLines = false
		}
		entries = append(entries, l.Load(dump)...)
		entries = append(entries, l.Load(filepath.Join(dir, "repo/a.yaml"))...)
		// Load takes it (unless the object limit stops Load first, or the settings differ:
		// live leaves RequestBodies and SourceCommentsInFiles as they were).
		takes := same && lim.MaxObjects == 0 && settings < 2
		if l.reserved != 0 && takes {
			t.Errorf("%+v, %s, %s: %d bytes still reserved once the file read ahead was taken", lim, dump, loaderSettings[settings], l.reserved)
		}
		return run{entries, l.read, l.objects}
	}
	var limits []Limits
	for n := 0; n <= total+100; n += 61 {
		limits = append(limits, Limits{MaxInputBytes: int64(n)})
	}
	for n := 1; n <= 20; n++ {
		limits = append(limits, Limits{MaxObjects: n})
	}
	limits = append(limits, Limits{MaxDocumentBytes: 300}, Limits{MaxDepth: 3})
	for _, lim := range limits {
		for _, dump := range []string{"live.json", "live.yaml"} {
			for settings := range loaderSettings {
				for _, same := range []bool{true, false} {
					path := filepath.Join(dir, dump)
					want := load(1, lim, settings, path, same)
					got := load(4, lim, settings, path, same)
					if got.read != want.read || got.objects != want.objects {
						t.Errorf("%+v, %s, %s, same settings %v: read %d bytes and %d objects ahead, %d and %d in order", lim, dump, loaderSettings[settings], same, got.read, got.objects, want.read, want.objects)
					}
					if !reflect.DeepEqual(got.entries, want.entries) {
						t.Errorf("%+v, %s, %s, same settings %v: read ahead\n%s\nin order\n%s", lim, dump, loaderSettings[settings], same, describeEntries(got.entries), describeEntries(want.entries))
					}
				}
			}
		}
	}
}

// ReadAhead takes nothing from a file when it should not read ahead: one CPU, standard
// input, a directory, a file that is not there or does not fit in what the limit leaves.
func TestReadAheadFileDeclines(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(file, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		procs int
		path  string
		lim   Limits
	}{
		{"one CPU", 1, file, Limits{}},
		{"standard input", 2, StdinName, Limits{}},
		{"a directory", 2, dir, Limits{}},
		{"not there", 2, filepath.Join(dir, "none.yaml"), Limits{}},
		{"past the limit", 2, file, Limits{MaxInputBytes: 10}},
	} {
		prev := runtime.GOMAXPROCS(c.procs)
		l := &Loader{Limits: c.lim}
		l.ReadAhead(c.path, func(*Loader) {})
		runtime.GOMAXPROCS(prev)
		if len(l.ahead) != 0 || l.reserved != 0 {
			t.Errorf("%s: read ahead (%d files, %d bytes reserved)", c.name, len(l.ahead), l.reserved)
		}
	}
}

func describeEntries(entries []Entry) string {
	var b strings.Builder
	for _, e := range entries {
		if e.Err != nil {
			fmt.Fprintf(&b, "  error %v\n", e.Err)
			continue
		}
		tree, err := e.Object.Decode()
		fmt.Fprintf(&b, "  %v %v %v %v\n", e.Object.Source, tree, err, e.Object.Warnings)
	}
	return b.String()
}

// A file read through a buffer of its own size (bufferFor) reads as through the whole
// streamBuffer: lines longer than sniffBytes, separators with long tails, a last line
// without its newline, JSON streams.
func TestBufferForSameAsStreamBuffer(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
	texts := []string{
		"", "\n", cm, cm + "---\n" + cm, strings.TrimSuffix(cm, "\n"),
		cm + "---" + strings.Repeat(" ", 5000) + "x\n" + cm,
		cm + "data:\n  big: " + strings.Repeat("y", 9000) + "\n",
		strings.Repeat(" ", 5000) + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"}}`,
		`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"l"}}]}`,
		strings.Repeat("# comment\n", 700) + cm,
	}
	files, _ := filepath.Glob("../../testdata/recorded/*/*.yaml")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	for _, text := range texts {
		for _, deferred := range []bool{false, true} {
			read := func(buffer int) []Entry {
				l := &Loader{DeferDecoding: deferred}
				l.init()
				entries, _ := l.parseStreamOpts("f.yaml", strings.NewReader(text), false, buffer)
				return entries
			}
			if got, want := read(bufferFor(int64(len(text)))), read(streamBuffer); !reflect.DeepEqual(got, want) {
				t.Errorf("%.60q: through %d bytes\n%s\nthrough %d\n%s", text, bufferFor(int64(len(text))), describeEntries(got), streamBuffer, describeEntries(want))
			}
		}
	}
}
