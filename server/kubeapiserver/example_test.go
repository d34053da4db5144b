package kubeapiserver_test

import (
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

func decode(s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		log.Fatal(err)
	}
	return m
}

// A dual-stack cluster declared (its service IP families, the primary first): a Service
// requiring dual stack gets both families, and its two cluster IPs are the server's to
// allocate. Undeclared, the recording server (an IPv4 cluster) refuses it.
func ExampleConfig_serviceIPFamilies() {
	reg := schema.NewRegistry()
	manifest := decode(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"api","namespace":"shop"},
	  "spec":{"ipFamilyPolicy":"RequireDualStack","selector":{"app":"api"},"ports":[{"port":443}]}}`)
	req := merge.Request{Object: manifest, Manager: "gitops", Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)}

	families, err := kubeapiserver.ParseServiceIPFamilies("IPv4,IPv6")
	if err != nil {
		log.Fatal(err)
	}
	dual := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{ServiceIPFamilies: families}))
	res, err := dual.Apply(req)
	if err != nil {
		log.Fatal(err)
	}
	spec := res.Object["spec"].(map[string]any)
	fmt.Println(res.Action, spec["ipFamilies"], res.Assigned[3:])

	res, err = merge.New(reg, kubeapiserver.Latest()).Apply(req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Rejection.Code, res.Rejection.Message)
	// Output:
	// create [IPv4 IPv6] [.spec.clusterIP .spec.clusterIPs]
	// 422 Service "api" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services
}
