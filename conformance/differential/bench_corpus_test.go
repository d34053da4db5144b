package differential

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"github.com/ssa-diff/ssa-diff/internal/recorded"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// corpusRequests are the applies of the generated GitOps corpus (make bench-corpus, 1,000
// objects) whose kinds the oracle serves: every manifest of a built-in kind against its
// object of the live dump, applied by "kubectl" without force.
func corpusRequests(b *testing.B) []oracle.Request {
	dir := filepath.Join("..", "..", "testdata", "bench-corpus", "1000")
	raw, err := os.ReadFile(filepath.Join(dir, "live.json"))
	if err != nil {
		b.Skipf("no corpus (make bench-corpus): %v", err)
	}
	list, _ := recorded.DecodeJSON(b, raw).(map[string]any)
	items, _ := list["items"].([]any)
	live := map[string]map[string]any{}
	for _, it := range items {
		if obj, ok := it.(map[string]any); ok {
			live[identity(obj)] = obj
		}
	}
	served := map[k8sschema.GroupVersionKind]bool{}
	for _, k := range Kinds {
		if k.GVK.Group != "example.com" {
			served[k.GVK] = true
		}
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var reqs []oracle.Request
	err = filepath.WalkDir(filepath.Join(dir, "repo"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, doc := range bytes.Split(text, []byte("\n---\n")) {
			js, err := yaml.YAMLToJSON(doc)
			if err != nil {
				return err
			}
			obj, ok := recorded.DecodeJSON(b, js).(map[string]any)
			if !ok {
				continue
			}
			gvk := k8sschema.FromAPIVersionAndKind(str(obj["apiVersion"]), str(obj["kind"]))
			l := live[identity(obj)]
			if !served[gvk] || l == nil {
				continue
			}
			reqs = append(reqs, oracle.Request{GVK: gvk, Live: l, Object: obj, Manager: "kubectl", Now: now})
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return reqs
}

func identity(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	return strings.Join([]string{str(obj["apiVersion"]), str(obj["kind"]), str(md["namespace"]), str(md["name"])}, "/")
}

func str(v any) string { s, _ := v.(string); return s }

// BenchmarkSideBySideCorpus is BenchmarkSideBySide on the applies of a realistic
// repository instead of one Deployment: most re-apply what the live objects already hold,
// some change or drop fields, some conflict. It reports the time per apply.
func BenchmarkSideBySideCorpus(b *testing.B) {
	reqs := corpusRequests(b)
	if len(reqs) < 500 {
		b.Fatalf("only %d applies of served kinds in the corpus", len(reqs))
	}
	srv, err := NewOracle()
	if err != nil {
		b.Fatal(err)
	}
	fm, err := NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	full := merge.New(schema.NewRegistry())
	mreqs := make([]merge.Request, len(reqs))
	for i, r := range reqs {
		mreqs[i] = fm.request(r)
	}
	perApply := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reqs)), "ns/apply")
	}
	b.Run("kubernetes", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range reqs {
				if _, err := srv.Apply(r); err != nil {
					b.Fatal(err)
				}
			}
		}
		perApply(b)
	})
	b.Run("ssa-diff/fm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range reqs {
				if _, err := fm.Apply(r); err != nil {
					b.Fatal(err)
				}
			}
		}
		perApply(b)
	})
	b.Run("ssa-diff/full", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range mreqs {
				if _, err := full.Apply(r); err != nil {
					b.Fatal(err)
				}
			}
		}
		perApply(b)
	})
}
