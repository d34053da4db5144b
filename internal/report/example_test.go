package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/judge/gate"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// A prediction straight to its verdict: `kubectl apply --server-side` of a Deployment
// whose replicas an autoscaler owns (testdata/examples/hpa-owns-replicas) is refused with
// a conflict, which the policy (--fail-on conflicts) fails; the refusal itself is only a
// warning, rejected not being failed on.
func ExampleVerdict_Predicted() {
	minor, _ := kube.ParseMinor("1.37")
	reg := schema.MustNewRegistry(minor)
	run := &predict.Run{
		Predictor: predict.Engine{Engine: merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: minor}))},
		Applier:   appliers.KubectlApply{FieldManager: "kubectl"},
		Schemas:   reg,
		Judge:     &judge.Judge{Schemas: reg},
		Now:       time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
	}
	var live, manifest map[string]any
	b, _ := os.ReadFile("../../testdata/examples/hpa-owns-replicas/live.json")
	_ = json.Unmarshal(b, &live)
	b, _ = os.ReadFile("../../testdata/examples/hpa-owns-replicas/manifest.yaml")
	_ = yaml.Unmarshal(b, &manifest)
	pred, err := run.Predict(predict.Apply{Manifest: manifest, Live: live, GVK: schema.GVKOf(manifest),
		Namespace: "kubectl-conflict-without-force", Name: "chat"})
	if err != nil {
		fmt.Println(err)
		return
	}

	failOn, _ := gate.ParseFailOn([]string{"conflicts"})
	v := report.Verdict{Manager: "kubectl", Applies: true, Policy: report.Policy{FailOn: failOn}}
	res := v.Predicted(input.Source{File: "manifest.yaml"}, manifest, pred)
	fmt.Println(res.Kind, res.Name, res.Action, res.Error.Code)
	for _, f := range res.Findings {
		fmt.Println(f.Level, f.Category, f.Manager, f.Paths)
	}
	// Output:
	// Deployment chat rejected 409
	// warning rejected  []
	// failure conflict hpa-controller [.spec.replicas]
}
