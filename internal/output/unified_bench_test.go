package output

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

// corpusPairs renders, for every manifest of the benchmark corpus that has a live object,
// the live object and the manifest as the diff displays them: pairs of YAML texts with
// the changes a first apply shows (server defaults, status and metadata only on one side).
func corpusPairs(tb testing.TB) [][2]string {
	tb.Helper()
	dir := filepath.Join("..", "..", "testdata", "bench-corpus", "1000")
	if _, err := os.Stat(filepath.Join(dir, "live.json")); err != nil {
		tb.Skipf("no corpus at %s (make bench-corpus)", dir)
	}
	key := func(o map[string]any) string {
		md, _ := o["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		name, _ := md["name"].(string)
		av, _ := o["apiVersion"].(string)
		kind, _ := o["kind"].(string)
		return av + "/" + kind + "/" + ns + "/" + name
	}
	live := map[string]map[string]any{}
	ls, _ := input.Split((&input.Loader{}).Load(filepath.Join(dir, "live.json")))
	for _, o := range ls {
		live[key(o.Object)] = o.Object
	}
	ms, _ := input.Split((&input.Loader{}).Load(filepath.Join(dir, "repo")))
	var pairs [][2]string
	for _, m := range ms {
		l, ok := live[key(m.Object)]
		if !ok {
			continue
		}
		a, b := forDisplay(l, m.Object, Options{})
		ya, err := renderYAML(a)
		if err != nil {
			tb.Fatal(err)
		}
		yb, err := renderYAML(b)
		if err != nil {
			tb.Fatal(err)
		}
		pairs = append(pairs, [2]string{ya, yb})
	}
	if len(pairs) < 500 {
		tb.Fatalf("only %d pairs in %s", len(pairs), dir)
	}
	return pairs
}

// BenchmarkUnifiedCorpus diffs every live object of the corpus with its manifest, as -o
// diff prints them.
func BenchmarkUnifiedCorpus(b *testing.B) {
	pairs := corpusPairs(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pairs {
			_ = unifiedBody(p[0], p[1], DefaultContext, palette{})
		}
	}
}
