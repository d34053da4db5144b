package kubeapiserver_test

import (
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
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
	reg := schema.MustNewRegistry(kube.Default())
	manifest := decode(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"api","namespace":"shop"},
	  "spec":{"ipFamilyPolicy":"RequireDualStack","selector":{"app":"api"},"ports":[{"port":443}]}}`)
	req := merge.Request{Object: manifest, Manager: "gitops", Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)}

	families, err := kubeapiserver.ParseServiceIPFamilies("IPv4,IPv6")
	if err != nil {
		log.Fatal(err)
	}
	dual := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default(), ServiceIPFamilies: families}))
	res, err := dual.Apply(req)
	if err != nil {
		log.Fatal(err)
	}
	spec := res.Object["spec"].(map[string]any)
	fmt.Println(res.Action, spec["ipFamilies"], res.Assigned[3:])

	res, err = merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})).Apply(req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Rejection.Code, res.Rejection.Message)
	// Output:
	// create [IPv4 IPv6] [.spec.clusterIP .spec.clusterIPs]
	// 422 Service "api" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services
}

// The default admission plugins fill in what every kube-apiserver adds to a new Pod — its
// priority, preemption policy and the not-ready and unreachable tolerations — without an
// owner in managedFields, and refuse a priority its class does not give (403).
func ExampleModel_Admit() {
	reg := schema.MustNewRegistry(kube.Default())
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	engine := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	res, err := engine.Apply(merge.Request{Manager: "gitops", Now: now, Object: decode(`{"apiVersion":"v1","kind":"Pod",
	  "metadata":{"name":"app","namespace":"shop"},"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}`)})
	if err != nil {
		log.Fatal(err)
	}
	spec := res.Object["spec"].(map[string]any)
	fmt.Println(res.Action, spec["priority"], spec["preemptionPolicy"], len(spec["tolerations"].([]any)))

	res, err = engine.Apply(merge.Request{Manager: "gitops", Now: now, Object: decode(`{"apiVersion":"v1","kind":"Pod",
	  "metadata":{"name":"app","namespace":"shop"},"spec":{"priority":1000,"containers":[{"name":"app","image":"nginx:1.27"}]}}`)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Rejection.Code, res.Rejection.Message)
	// Output:
	// create 0 PreemptLowerPriority 2
	// 403 pods "app" is forbidden: the integer value of priority (1000) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name
}

// A cluster whose kube-apiserver runs with --runtime-config serves other versions than its
// minor's defaults: here 1.34's MutatingAdmissionPolicy at v1beta1, off by default.
func ExampleRuntimeConfig_ApplyTo() {
	reg := schema.MustNewRegistry(34)
	map1beta1 := schema.GVK{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "MutatingAdmissionPolicy"}
	fmt.Println("default:", reg.Serving(map1beta1) == schema.Served)

	var rc kubeapiserver.RuntimeConfig
	_ = rc.Set("admissionregistration.k8s.io/v1beta1=true")
	if err := rc.ApplyTo(reg); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("with", rc.String()+":", reg.Serving(map1beta1) == schema.Served)

	var bad kubeapiserver.RuntimeConfig
	_ = bad.Set("autoscaling/v2beta3=true")
	fmt.Println(bad.ApplyTo(schema.MustNewRegistry(34)))
	// Output:
	// default: false
	// with admissionregistration.k8s.io/v1beta1=true: true
	// --runtime-config of kube-apiserver 1.34.4: group version autoscaling/v2beta3 that has not been registered
}

// Which models may start the helper program ssa-diff-admission, so that a program looks
// for it only then: a cluster state (its admission policies, PodSecurity), or a 1.32 or
// 1.33 server, whose refusal of a changed ephemeral container carries go-cmp's diff, which
// the helper prints.
func ExampleConfig_NeedsHelper() {
	for _, minor := range []kube.Minor{32, 33, 34, 37} {
		fmt.Println(minor, kubeapiserver.Config{Minor: minor}.NeedsHelper())
	}
	// Output:
	// 1.32 true
	// 1.33 true
	// 1.34 false
	// 1.37 false
}
