package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/heapwatch"
	"github.com/ssa-diff/ssa-diff/internal/input"
)

func TestLimitFlags(t *testing.T) {
	cfg, code := parseFlags("ssa-diff", []string{"--max-input-bytes", "1Mi", "--max-document-bytes", "4Ki", "--max-depth", "50",
		"--max-yaml-alias-nodes", "7", "--max-files", "9", "--max-objects", "11", "m.yaml"}, io.Discard, io.Discard)
	if cfg == nil {
		t.Fatalf("exit %d", code)
	}
	if want := (input.Limits{MaxInputBytes: 1 << 20, MaxDocumentBytes: 4 << 10, MaxDepth: 50, MaxAliasNodes: 7, MaxFiles: 9, MaxObjects: 11}); cfg.limits != want {
		t.Errorf("limits = %+v, want %+v", cfg.limits, want)
	}
	if cfg, _ := parseFlags("ssa-diff", []string{"m.yaml"}, io.Discard, io.Discard); cfg.limits != input.DefaultLimits() {
		t.Errorf("default limits = %+v", cfg.limits)
	}
	var stderr bytes.Buffer
	if _, code := parseFlags("ssa-diff", []string{"--max-depth", "20000", "m.yaml"}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "more than 10000") {
		t.Errorf("--max-depth 20000: exit %d, %s", code, stderr.String())
	}
	var help bytes.Buffer
	parseFlags("ssa-diff", []string{"--help"}, &help, io.Discard)
	for _, f := range []string{"--max-input-bytes SIZE", "Default: 128Mi.", "--max-document-bytes SIZE", "Default: 32Mi.", "--max-depth N", "Default: 1000.", "--max-yaml-alias-nodes N", "--max-files N", "--max-objects N", "Default: 50000."} {
		if !strings.Contains(strings.Join(strings.Fields(help.String()), " "), f) { // lines wrap anywhere
			t.Errorf("--help lacks %q", f)
		}
	}
}

// The worst cases the default limits allow, each run through the whole command. Each
// reports the most the Go heap held (peak-heap-MiB); the process's resident size is that
// plus the runtime's slack. They take minutes: set SSA_DIFF_BENCH_WORST=1 to run them.
//
//	SSA_DIFF_BENCH_WORST=1 go test -run '^$' -bench WorstCase -benchtime 1x ./cli
func BenchmarkWorstCase(b *testing.B) {
	if os.Getenv("SSA_DIFF_BENCH_WORST") == "" {
		b.Skip("set SSA_DIFF_BENCH_WORST=1")
	}
	dir := b.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	cm := func(name, value string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: ns\ndata:\n  a: " + value + "\n"
	}
	one := write("one.yaml", cm("c5", `"2"`))

	// A YAML List of live Deployments just under the document limit: the YAML decoder
	// costs the most per byte.
	var list strings.Builder
	list.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := 0; list.Len() < input.DefaultMaxDocumentBytes-4096; i++ {
		fmt.Fprintf(&list, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: d%d
    namespace: ns
    managedFields:
    - {manager: kubectl, operation: Apply, apiVersion: apps/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}
  spec:
    replicas: 2
    selector: {matchLabels: {app: a%d}}
    template:
      metadata: {labels: {app: a%d}}
      spec:
        containers:
        - {name: app, image: "nginx:1.27", env: [{name: A, value: aaaaaaaaaaaaaaaaaaaa}, {name: B, value: bbbbbbbbbbbbbbbbbbbbbbb}]}
`, i, i, i)
	}
	yamlList := write("list.yaml", list.String())

	// The input limit filled with documents at the document limit: four ConfigMaps with
	// one value of 32 MiB, predicted and diffed.
	var big strings.Builder
	for i := 0; i < 4; i++ {
		if i > 0 {
			big.WriteString("---\n")
		}
		big.WriteString(cm(fmt.Sprintf("big%d", i), strings.Repeat("x", input.DefaultMaxDocumentBytes-200)))
	}
	bigValues := write("big.yaml", big.String())

	// The object limit filled with small manifests, each predicted.
	var many strings.Builder
	for i := 0; i < input.DefaultMaxObjects; i++ {
		many.WriteString(cm(fmt.Sprintf("c%d", i), `"1"`) + "---\n")
	}
	manyManifests := write("many.yaml", many.String())

	// A "billion laughs": ten levels of aliases, each expanding the previous one ten
	// times, refused before anything expands.
	var laughs strings.Builder
	laughs.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol, namespace: ns}\nl0: &l0 [lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&laughs, "l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	laughs.WriteString("data: {a: *l9}\n")
	billionLaughs := write("laughs.yaml", laughs.String())

	// 100,000 levels of nesting, in YAML flow style and in JSON, refused before anything
	// recurses.
	deepYAML := write("deep.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep, namespace: ns}\ndata: "+
		strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+"\n")
	deepJSON := write("deep.json", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "deep", "namespace": "ns"}, "data": `+
		strings.Repeat(`{"a":`, 100000)+"1"+strings.Repeat("}", 100000)+"}")

	cases := []struct {
		name  string
		stdin io.Reader
		args  []string
	}{
		{"billion-laughs", nil, []string{one, billionLaughs}},
		{"nesting-100000-yaml", nil, []string{one, deepYAML}},
		{"nesting-100000-json", nil, []string{one, deepJSON}},
		{"endless-stdin-1GiB", &endless{n: 1 << 30}, []string{"-"}},
		// A live dump that never ends: a JSON List of Deployments read item by item until
		// the object limit (or the input limit) stops it.
		{"endless-json-list-1GiB", &endless{n: 1 << 30, head: `{"apiVersion":"v1","kind":"List","items":[`,
			line: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"ns","managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]},"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}},` + "\n"},
			[]string{one, "-"}},
		{"yaml-list-32MiB", nil, []string{one, yamlList}},
		{"four-32MiB-values", nil, []string{bigValues}},
		{"50000-manifests", nil, []string{manyManifests}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				args := append([]string{"-o", "json", "--now", catalogueNow}, c.args...)
				var code int
				start := time.Now()
				_, peak := heapwatch.Peak(func() { code = Run(args, c.stdin, io.Discard, io.Discard) })
				b.ReportMetric(float64(peak>>20), "peak-heap-MiB")
				b.Logf("%s: exit %d, peak heap %d MiB, %v", c.name, code, peak>>20, time.Since(start).Round(time.Millisecond))
			}
		})
	}
}

// endless is n bytes of one YAML line repeated, never ending in a document separator.
// With head and line set, head first, then line repeated.
type endless struct {
	n, read    int64
	head, line string
}

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= e.n {
		return 0, io.EOF
	}
	line := e.line
	if line == "" {
		line = "key: value\n"
	}
	for i := range p {
		if off := e.read + int64(i); off < int64(len(e.head)) {
			p[i] = e.head[off]
		} else {
			p[i] = line[(off-int64(len(e.head)))%int64(len(line))]
		}
	}
	e.read += int64(len(p))
	return len(p), nil
}
