package advice_test

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ssa-diff/ssa-diff/judge/advice"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// A GitOps manifest sets spec.replicas of a Deployment that an HPA scales through /scale
// (the recorded case testdata/scale-then-apply-conflict): the engine predicts the 409, the
// advice says who owns the field and what to do.
func ExampleAnalyze() {
	var live, manifest map[string]any
	b, _ := os.ReadFile("testdata/scale-then-apply-conflict/live.json")
	_ = json.Unmarshal(b, &live)
	b, _ = os.ReadFile("testdata/scale-then-apply-conflict/manifest.yaml")
	_ = yaml.Unmarshal(b, &manifest)

	reg := schema.MustNewRegistry(kube.Default())
	res, err := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})).Apply(merge.Request{Live: live, Object: manifest, Manager: "gitops",
		Now: time.Date(2026, 12, 2, 9, 36, 22, 0, time.UTC)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range advice.Analyze(advice.Input{Live: live, Manifest: manifest, Result: res, Manager: "gitops"},
		advice.Options{Schemas: reg}) {
		fmt.Println(a)
	}
	// Output:
	// warning [fights-controller] the manifest sets .spec.replicas, which the autoscaler "hpa-controller" writes through /scale (live 10, manifest 4): the apply is refused with a conflict
	//   fix: remove spec.replicas from the manifest and let "hpa-controller" own it (set the floor in the autoscaler's minReplicas); only to hand it over deliberately, apply with force=true
}

// The state line of a DaemonSet whose rollout is stuck on one node.
func ExampleStateOf() {
	ds := map[string]any{"apiVersion": "apps/v1", "kind": "DaemonSet",
		"metadata": map[string]any{"name": "node-exporter", "namespace": "monitoring", "generation": 4},
		"status": map[string]any{"observedGeneration": 4, "desiredNumberScheduled": 3, "currentNumberScheduled": 3,
			"updatedNumberScheduled": 3, "numberReady": 2, "numberAvailable": 2}}
	if s, ok := advice.StateOf(ds, advice.Options{}); ok {
		fmt.Println(s)
	}
	// Output:
	// state: not converged (generation 4, observed 4, 3/3 scheduled, 3/3 updated, 2/3 ready, 2/3 available, 0 misscheduled)
}
