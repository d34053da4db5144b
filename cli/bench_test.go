package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/schemafiles"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// The benchmarks here run on the generated corpora of testdata/bench-corpus (make
// bench-corpus; another root with $SSA_DIFF_BENCH_CORPUS) and skip without them.

func benchCorpus(b *testing.B, n string) string {
	b.Helper()
	root := os.Getenv("SSA_DIFF_BENCH_CORPUS")
	if root == "" {
		root = filepath.Join(repoRoot(b), "testdata", "bench-corpus")
	}
	dir := filepath.Join(root, n)
	if _, err := os.Stat(filepath.Join(dir, "live.json")); err != nil {
		b.Skipf("no corpus at %s (make bench-corpus)", dir)
	}
	return dir
}

// BenchmarkCLI runs the whole command in-process on a generated repository and live dump:
// reading, matching, predicting, judging and printing, per format and applier.
func BenchmarkCLI(b *testing.B) {
	for _, c := range []struct {
		n    string
		args []string
	}{
		{"1000", []string{"-o", "json"}},
		{"1000", []string{"-o", "text"}},
		{"1000", []string{"-o", "html"}},
		{"1000", []string{"--applier", "argocd", "--argocd-app", "platform", "-o", "github"}},
		{"1000", []string{"--applier", "flux", "--flux-kustomization", "flux-system/apps", "-o", "markdown"}},
		// A 10,000-object dump is one List of about 100 MiB, read item by item.
		{"10000", []string{"--applier", "argocd", "--argocd-app", "platform", "-o", "junit"}},
	} {
		b.Run(c.n+"/"+strings.Join(c.args, " "), func(b *testing.B) {
			dir := benchCorpus(b, c.n)
			argv := append(append([]string{"--now", "2026-12-01T12:00:00Z"}, c.args...), filepath.Join(dir, "repo"), filepath.Join(dir, "live.json"))
			b.ReportAllocs()
			for b.Loop() {
				if code := Run(argv, nil, io.Discard, io.Discard); code == 2 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// BenchmarkEngineCorpus is the engine alone on the corpus: every manifest applied to its
// live object by each applier, the inputs read and matched beforehand. It reports the
// time per object.
func BenchmarkEngineCorpus(b *testing.B) {
	dir := benchCorpus(b, "1000")
	reg := schema.MustNewRegistry(kube.Default())
	loader := &input.Loader{}
	manifests, errs := input.Split(loader.Load(filepath.Join(dir, "repo")))
	live, errs2 := input.Split(loader.Load(filepath.Join(dir, "live.json")))
	if len(errs)+len(errs2) > 0 {
		b.Fatal(append(errs, errs2...))
	}
	for _, o := range append(live, manifests...) {
		if schemafiles.IsCRD(o.GVK()) {
			if err := reg.AddCRDObject(o.Source.String(), o.Object); err != nil {
				b.Fatal(err)
			}
		}
	}
	m := input.Match(manifests, live, func(gvk schema.GVK) (bool, bool) {
		if t, ok := reg.Lookup(gvk); ok {
			return t.Namespaced, true
		}
		return false, false
	}, "default")
	eng := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	request := func(p *input.Pair, manager string) merge.Request {
		var l map[string]any
		if p.Live != nil {
			l = p.Live.Object
		}
		return merge.Request{Live: l, Object: p.Manifest.Object, Manager: manager, Now: now,
			Endpoint: merge.Endpoint{GVK: p.GVK, Namespace: p.ID.Namespace, Name: p.ID.Name}}
	}
	for _, a := range []struct {
		name  string
		apply func(*input.Pair) (*merge.Result, error)
	}{
		{"api", func(p *input.Pair) (*merge.Result, error) { return eng.Apply(request(p, "kubectl")) }},
		{"kubectl", func(p *input.Pair) (*merge.Result, error) { return appliers.Kubectl(eng, request(p, "kubectl")) }},
		{"argocd", func(p *input.Pair) (*merge.Result, error) {
			return appliers.ArgoCD(eng, request(p, ""), appliers.ArgoCDOptions{Application: "platform"})
		}},
		{"flux", func(p *input.Pair) (*merge.Result, error) {
			return appliers.Flux(eng, request(p, ""), appliers.FluxOptions{Normalize: appliers.NormalizeAsGoTypes})
		}},
	} {
		b.Run(a.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range m.Pairs {
					if _, err := a.apply(&m.Pairs[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(m.Pairs)), "ns/object")
		})
	}
}

// BenchmarkStartup is what a run pays before reading input: the schema registry of every
// built-in kind, ready to resolve types, and the engine on it.
func BenchmarkStartup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		reg := schema.MustNewRegistry(kube.Default())
		if _, ok := reg.Lookup(schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}); !ok {
			b.Fatal("no Deployment")
		}
		_ = merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	}
}

// BenchmarkFlags is a plain run's command line read: the flag set defined, parsed and
// checked, the applier made (each process pays it once, before reading input).
func BenchmarkFlags(b *testing.B) {
	dir := filepath.Join(repoRoot(b), "testdata", "examples", "hpa-owns-replicas")
	args := []string{"--now", "2026-01-01T00:00:00Z", "-o", "json", filepath.Join(dir, "manifest.yaml"), filepath.Join(dir, "live.json")}
	b.ReportAllocs()
	for b.Loop() {
		if cfg, code := parseFlags("ssa-diff", args, io.Discard, io.Discard); cfg == nil {
			b.Fatalf("exit %d", code)
		}
	}
}
