package differential

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
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
	list, _ := testkit.DecodeJSON(b, raw).(map[string]any)
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
			obj, ok := testkit.DecodeJSON(b, js).(map[string]any)
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

// withoutManagedFields is obj without metadata.managedFields (a shallow copy), as both
// field managers type it.
func withoutManagedFields(obj map[string]any) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj
	}
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	m := make(map[string]any, len(md))
	for k, v := range md {
		if k != "managedFields" {
			m[k] = v
		}
	}
	c["metadata"] = m
	return c
}

func str(v any) string { s, _ := v.(string); return s }

// BenchmarkSideBySideCorpus is BenchmarkSideBySide on the applies of a realistic
// repository instead of one Deployment: most re-apply what the live objects already hold,
// some change or drop fields, some conflict. It reports the time per apply, and two floors
// no field manager built on structured-merge-diff goes below: smd-floor (typing, merge,
// field collection and comparison) and managedfields-codec (the live entries decoded into
// field sets and encoded back).
func BenchmarkSideBySideCorpus(b *testing.B) {
	reqs := corpusRequests(b)
	if len(reqs) < 500 {
		b.Fatalf("only %d applies of served kinds in the corpus", len(reqs))
	}
	srv, err := NewOracle()
	if err != nil {
		b.Fatal(err)
	}
	fm, err := NewEngine(InProcessMinor)
	if err != nil {
		b.Fatal(err)
	}
	full := merge.New(schema.MustNewRegistry(InProcessMinor), kubeapiserver.MustNew(kubeapiserver.Config{Minor: InProcessMinor}))
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
	// The floor: the structured-merge-diff walks any apply of a changed object needs, and
	// nothing else — the manifest and the live object typed, merged, the manifest's fields
	// collected, the result compared with the live object. Neither field manager can be
	// faster than this.
	types := map[k8sschema.GroupVersionKind]*typed.ParseableType{}
	for _, r := range reqs {
		if types[r.GVK] == nil {
			k, _ := srv.Kind(r.GVK)
			if types[r.GVK], err = k.Type(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("smd-floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range reqs {
				t := types[r.GVK]
				live, err := t.FromUnstructured(withoutManagedFields(r.Live), typed.AllowDuplicates)
				if err != nil {
					b.Fatal(err)
				}
				cfg, err := t.FromUnstructured(r.Object)
				if err != nil {
					b.Fatal(err)
				}
				merged, err := live.Merge(cfg)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := cfg.ToFieldSet(); err != nil {
					b.Fatal(err)
				}
				if _, err := live.Compare(merged); err != nil {
					b.Fatal(err)
				}
			}
		}
		perApply(b)
	})
	// What reading and writing the live object's managedFields costs (decoded into field
	// sets, encoded back), which either field manager pays on top of the floor.
	b.Run("managedfields-codec", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range reqs {
				entries, _, err := fieldpath.EntriesOf(r.Live)
				if err != nil {
					b.Fatal(err)
				}
				m, err := fieldpath.Decode(entries)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Encode(); err != nil {
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
