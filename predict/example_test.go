package predict_test

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/judge/advice"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// A run at the minor of the cluster the live state was read from: `kubectl apply
// --server-side` of a Deployment whose replicas an autoscaler owns (the example
// testdata/examples/hpa-owns-replicas) is refused with a conflict; the prediction says who
// owns the field, advises, and predicts what forcing would do.
func Example() {
	minor, _, err := predict.MinorChoice{Option: "--kube-version"}.For("v1.36.3", "the dump")
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := schema.MustNewRegistry(minor)
	model := kubeapiserver.MustNew(kubeapiserver.Config{Minor: minor})
	run := &predict.Run{
		Predictor:  predict.Engine{Engine: merge.New(reg, model)},
		Applier:    appliers.KubectlApply{FieldManager: "kubectl"},
		Schemas:    reg,
		Judge:      &judge.Judge{Schemas: reg},
		ForcedAlso: true,
		Now:        time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Advice:     &advice.Options{Schemas: reg, Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
	}

	var live, manifest map[string]any
	b, _ := os.ReadFile("../testdata/examples/hpa-owns-replicas/live.json")
	_ = json.Unmarshal(b, &live)
	b, _ = os.ReadFile("../testdata/examples/hpa-owns-replicas/manifest.yaml")
	_ = yaml.Unmarshal(b, &manifest)

	p, err := run.Predict(predict.Apply{Manifest: manifest, Live: live, GVK: schema.GVKOf(manifest),
		Namespace: "kubectl-conflict-without-force", Name: "chat"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("kube-apiserver", minor, "answers", p.Result.Rejection.Code)
	for _, c := range p.Result.Conflicts {
		fmt.Printf("conflict on %s with %s\n", c.Path, c.Manager.Manager)
	}
	for _, a := range p.Advice {
		fmt.Println("advice", a.ID)
	}
	fmt.Println("with force:", p.WithForce.Action)
	// Output:
	// kube-apiserver 1.36 answers 409
	// conflict on .spec.replicas with hpa-controller
	// advice fights-controller
	// with force: update
}
