package predict_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// A run's loop: three manifests, two of them of one ConfigMap, predicted on two workers.
// The second apply of the ConfigMap is predicted against the object the first leaves, and
// the outcomes come in the manifests' order.
func ExampleRun_PredictAll() {
	minor := kube.Default()
	reg := schema.MustNewRegistry(minor)
	model := kubeapiserver.MustNew(kubeapiserver.Config{Minor: minor})
	run := &predict.Run{
		Predictor: predict.Engine{Engine: merge.New(reg, model)},
		Applier:   appliers.KubectlApply{FieldManager: "kubectl"},
		Schemas:   reg,
		Now:       time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
	}
	configMap := func(data string) func() (map[string]any, error) {
		return func() (map[string]any, error) {
			return map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "settings", "namespace": "web"},
				"data":     map[string]any{"mode": data}}, nil
		}
	}
	step := func(name string, manifest func() (map[string]any, error)) predict.Step {
		return predict.Step{Object: predict.Identity{Kind: "ConfigMap", Namespace: "web", Name: "settings"}, Manifest: manifest, Name: name,
			Apply: predict.Apply{GVK: schema.GVK{Version: "v1", Kind: "ConfigMap"}, Namespace: "web", Name: "settings"}}
	}
	steps := []predict.Step{
		step("base.yaml:1", configMap("fast")),
		{Name: "broken.yaml:3"}, // not predicted: an input that could not be read
		step("overlay.yaml:1", configMap("safe")),
	}
	for i, o := range run.PredictAll(context.Background(), steps, predict.Schedule{Jobs: 2}) {
		if o.Prediction == nil {
			fmt.Println(i, steps[i].Name, "passed through")
			continue
		}
		fmt.Println(i, steps[i].Name, o.Prediction.Result.Action, "against", o.LiveFrom)
		for _, w := range o.Warnings {
			fmt.Println("  ", w)
		}
	}
	// Output:
	// 0 base.yaml:1 create against -1
	// 1 broken.yaml:3 passed through
	// 2 overlay.yaml:1 update against 0
	//    the same object is also applied by base.yaml:1; this apply is predicted against the object that one leaves
}
