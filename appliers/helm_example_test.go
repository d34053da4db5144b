package appliers_test

import (
	"fmt"
	"log"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// A release Helm 3 installed (its record has no apply_method), upgraded with Helm 4's
// `helm upgrade --server-side=true`: Helm first patches managedFields to turn its
// client-side entry into its Apply entry, then applies; kubectl scale's replicas conflict.
func ExampleRunHelm() {
	reg := schema.MustNewRegistry(kube.Default())
	engine := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := decode(`{"apiVersion":"apps/v1","kind":"Deployment",
	  "metadata":{"name":"web","namespace":"shop","uid":"6d1b7a52-0000-4000-8000-000000000003","resourceVersion":"7","generation":2,
	    "creationTimestamp":"2026-12-01T09:00:00Z",
	    "labels":{"app.kubernetes.io/managed-by":"Helm"},"annotations":{"meta.helm.sh/release-name":"web","meta.helm.sh/release-namespace":"shop"},
	    "managedFields":[
	      {"manager":"helm","operation":"Update","apiVersion":"apps/v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1",
	       "fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:meta.helm.sh/release-name":{},"f:meta.helm.sh/release-namespace":{}},"f:labels":{".":{},"f:app.kubernetes.io/managed-by":{}}},
	         "f:spec":{"f:selector":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}},
	      {"manager":"kubectl","operation":"Update","apiVersion":"apps/v1","time":"2026-12-02T09:00:00Z","subresource":"scale","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]},
	  "spec":{"replicas":4,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}`)
	chart := decode(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
	  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}`)
	opts := appliers.HelmOptions{Command: appliers.HelmUpgrade, Release: "web", Namespace: "shop", ServerSide: "true",
		History: []appliers.HelmRevision{{Version: 1, Status: "deployed", Objects: []map[string]any{chart}}}}
	find := func(group, kind, ns, name string) map[string]any {
		if kind == "Deployment" && ns == "shop" && name == "web" {
			return live
		}
		return nil
	}
	out, err := appliers.RunHelm(engine, reg, opts, []appliers.HelmTarget{{Object: chart}}, find, time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC))
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range out.Objects[0].Result.Steps {
		fmt.Printf("%s → %d\n", s.Description, s.Code)
	}
	fmt.Println(out.Err.Message)
	fmt.Println("new revision:", out.Plan.NewRevision, out.Status, out.Plan.NewApplyMethod)
	// Output:
	// managedFields migration (JSON patch) → 200
	// apply (force=false) → 409
	// UPGRADE FAILED: conflict occurred while applying object shop/web apps/v1, Kind=Deployment: Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas
	// new revision: 2 failed ssa
}
