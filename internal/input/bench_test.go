package input

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// listOf is a kubectl get -o json List of n Deployments.
func listOf(n int) []byte {
	var items []string
	for i := 0; i < n; i++ {
		items = append(items, fmt.Sprintf(`    {
      "apiVersion": "apps/v1",
      "kind": "Deployment",
      "metadata": {"name": "app-%d", "namespace": "shop", "labels": {"app": "x"}},
      "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "app", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}]}}}
    }`, i))
	}
	return []byte("{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [\n" + strings.Join(items, ",\n") + "\n  ]\n}\n")
}

func TestListItemLines(t *testing.T) {
	objs, errs := Split(Parse("l.json", listOf(3)))
	if len(errs) != 0 || len(objs) != 3 {
		t.Fatal(errs)
	}
	for i, o := range objs {
		if want := 5 + 6*i; o.Source.Line != want {
			t.Errorf("item %d at line %d, want %d", i, o.Source.Line, want)
		}
		// The quick scan and the full index agree.
		if got := o.doc.line(o.base); got != o.Source.Line {
			t.Errorf("item %d: index says line %d, scan %d", i, got, o.Source.Line)
		}
	}
}

func BenchmarkParseList(b *testing.B) {
	data := listOf(500)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse("l.json", data)
	}
}

func BenchmarkParseYAMLStream(b *testing.B) {
	doc := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\n  namespace: shop\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n"
	data := []byte(strings.Repeat(doc+"---\n", 500))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse("m.yaml", data)
	}
}

// BenchmarkLoadLiveDump reads the 1,000-object corpus's dump (make bench-corpus; kubectl
// get -o json, indented) as a live dump is read (gather's readsLive): items kept as
// compact text, checked for warnings, not decoded.
func BenchmarkLoadLiveDump(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "bench-corpus", "1000", "live.json"))
	if err != nil {
		b.Skip("no corpus (make bench-corpus):", err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l := Loader{Stdin: bytes.NewReader(data), NoFieldLines: true, CompactManagedFields: true, DeferDecoding: true}
		objs, errs := Split(l.Load("-"))
		deferred := 0
		for _, o := range objs {
			if o.Deferred() {
				deferred++
			}
		}
		if len(errs) != 0 || len(objs) < 1000 || deferred < len(objs)/2 {
			b.Fatal(len(objs), deferred, errs)
		}
	}
}
