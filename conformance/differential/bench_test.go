package differential

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// benchRequest is a realistic apply: a recorded Deployment with three managers and a
// manifest that drops a container and a volume (the engine's own benchmark input).
func benchRequest(b *testing.B) oracle.Request {
	var live, cfg map[string]any
	raw, err := os.ReadFile("../../merge/testdata/deployment-live.json")
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(raw, &live); err != nil {
		b.Fatal(err)
	}
	raw, err = os.ReadFile("../../merge/testdata/deployment-manifest.yaml")
	if err != nil {
		b.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		b.Fatal(err)
	}
	return oracle.Request{GVK: k8sschema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
		Live: live, Object: cfg, Manager: "deployer", Now: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
}

// BenchmarkSideBySide runs the same apply through the Kubernetes field manager
// (k8s.io/apimachinery, as kube-apiserver builds it) and through ssa-diff's engine, in the
// same process, so that the ratio of their ns/op is an honest comparison:
//
//	kubernetes      the API server's field manager chain (no defaulting, no registry)
//	ssa-diff/fm     the engine doing the same work (field management only)
//	ssa-diff/full   the engine's whole prediction: plus defaulting, registry rules,
//	                conflicts with values, ownership moves and deleted fields
func BenchmarkSideBySide(b *testing.B) {
	req := benchRequest(b)
	srv, err := NewOracle()
	if err != nil {
		b.Fatal(err)
	}
	fm, err := NewEngine(InProcessMinor)
	if err != nil {
		b.Fatal(err)
	}
	full := merge.New(schema.MustNewRegistry(InProcessMinor), kubeapiserver.MustNew(kubeapiserver.Config{Minor: InProcessMinor}))
	mreq := fm.request(req)
	b.Run("kubernetes", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if res, err := srv.Apply(req); err != nil || res.Error != nil {
				b.Fatal(err, res.Error)
			}
		}
	})
	b.Run("ssa-diff/fm", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if res, err := fm.Apply(req); err != nil || res.Error != nil {
				b.Fatal(err, res.Error)
			}
		}
	})
	b.Run("ssa-diff/full", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if res, err := full.Apply(mreq); err != nil || res.Rejection != nil {
				b.Fatal(err, res.Rejection)
			}
		}
	})
}
