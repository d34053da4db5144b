package predict_test

import (
	"fmt"
	"log"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// Read a manifest and a live dump (`kubectl get -o json`), pair them, and predict each
// manifest's `kubectl apply --server-side` in one run: here an HPA owns spec.replicas
// through /scale and the manifest sets it, so the server answers 409.
func Example_files() {
	manifests, err := predict.Files("../testdata/examples/hpa-owns-replicas/manifest.yaml")
	if err != nil {
		log.Fatal(err)
	}
	live, err := predict.Files("../testdata/examples/hpa-owns-replicas/live.json")
	if err != nil {
		log.Fatal(err)
	}
	reg := schema.MustNewRegistry(kube.Default())
	matching, err := predict.Match(manifests, live, reg, "default")
	if err != nil {
		log.Fatal(err)
	}
	run := &predict.Run{
		Predictor: predict.Engine{Engine: merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))},
		Applier:   appliers.KubectlApply{FieldManager: "kubectl"},
		Schemas:   reg,
		Now:       time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC),
	}
	for _, p := range matching.Pairs {
		a := predict.Apply{Manifest: p.Manifest.Object, GVK: schema.GVKOf(p.Manifest.Object), Source: p.Manifest.Source.File}
		if p.Live != nil {
			a.Live = p.Live.Object
			md, _ := p.Live.Object["metadata"].(map[string]any)
			a.Namespace, _ = md["namespace"].(string)
			a.Name, _ = md["name"].(string)
		}
		pred, err := run.Predict(a)
		if err != nil {
			log.Fatal(err)
		}
		res := pred.Result
		fmt.Printf("%s line %d: %s\n", p.Manifest.Source.File[len("../testdata/examples/"):], p.Manifest.Source.Line, res.Action)
		if res.Rejection != nil {
			fmt.Println(res.Rejection.Code, res.Rejection.Message)
		}
	}
	// Output:
	// hpa-owns-replicas/manifest.yaml line 1: rejected
	// 409 Apply failed with 1 conflict: conflict with "hpa-controller" with subresource "scale" using apps/v1: .spec.replicas
}

// Bytes reads objects held in memory; bad input is an error naming the document and line,
// beside the objects that could be read.
func ExampleBytes() {
	objs, err := predict.Bytes("inline.yaml", []byte(`apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {mode: fast}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
   namespace: ops
`))
	for _, o := range objs {
		fmt.Println(o.Source.File, o.Source.Document, o.Object["metadata"].(map[string]any)["name"])
	}
	fmt.Println(err)
	// Output:
	// inline.yaml 0 settings
	// inline.yaml, document 1, line 10: invalid YAML: mapping values are not allowed in this context
}
