package appliers_test

import (
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
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

// A ConfigMap written so far by client-side `kubectl apply`, applied now with
// `kubectl apply --server-side`: kubectl's sequence moves the client-side owner's fields to
// the manager "kubectl", so the key the manifest no longer has is deleted.
func ExampleKubectl() {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := decode(`{"apiVersion":"v1","kind":"ConfigMap",
	  "metadata":{"name":"settings","namespace":"shop","uid":"6d1b7a52-0000-4000-8000-000000000002","resourceVersion":"3",
	    "creationTimestamp":"2026-12-01T09:00:00Z",
	    "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"data\":{\"mode\":\"fast\",\"old\":\"x\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"settings\",\"namespace\":\"shop\"}}\n"},
	    "managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1",
	      "fieldsV1":{"f:data":{".":{},"f:mode":{},"f:old":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}}]},
	  "data":{"mode":"fast","old":"x"}}`)
	manifest := decode(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"shop"},"data":{"mode":"safe"}}`)

	res, err := appliers.Kubectl(engine, merge.Request{Live: live, Object: manifest, Now: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Action)
	for _, s := range res.Steps {
		fmt.Printf("%d %s (%s)\n", s.Code, s.Description, s.Manager)
	}
	fmt.Println("data:", res.Object["data"], "deleted:", res.Deleted)
	for _, e := range res.ManagedFields {
		fmt.Println(e.Manager, e.Operation, string(e.FieldsV1))
	}
	// Output:
	// update
	// 200 apply (kubectl)
	// 200 apply of the last-applied annotation (kubectl-last-applied)
	// 200 managedFields migration patch (kubectl)
	// 200 apply (kubectl)
	// data: map[mode:safe] deleted: [.data.old]
	// kubectl-last-applied Apply {"f:metadata":{"f:annotations":{"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}
	// kubectl Apply {"f:data":{"f:mode":{}}}
}

// Argo CD always forces: the sync takes spec.replicas from the HorizontalPodAutoscaler's
// /scale writes, and the result says what it overrode.
func ExampleArgoCD() {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := decode(`{"apiVersion":"apps/v1","kind":"Deployment",
	  "metadata":{"name":"web","namespace":"shop","uid":"6d1b7a52-0000-4000-8000-000000000001","resourceVersion":"7","generation":1,
	    "creationTimestamp":"2026-12-01T09:00:00Z",
	    "managedFields":[
	      {"manager":"argocd-controller","operation":"Apply","apiVersion":"apps/v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1",
	       "fieldsV1":{"f:spec":{"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}},
	      {"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1","time":"2026-12-01T10:00:00Z","fieldsType":"FieldsV1",
	       "fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"}]},
	  "spec":{"replicas":5,"selector":{"matchLabels":{"app":"web"}},
	    "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"shop/web:1.0"}]}}}}`)
	manifest := decode(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},
	  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
	    "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"shop/web:1.1"}]}}}}`)

	res, err := appliers.ArgoCD(engine, merge.Request{Live: live, Object: manifest, Now: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)},
		appliers.ArgoCDOptions{Application: "shop"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Action)
	for _, c := range res.Conflicts {
		fmt.Printf("overrode %s of %s: %v → %v\n", c.Path, c.Manager.Manager, c.Live, c.Applied)
	}
	for _, o := range res.Ownership {
		if len(o.Taken) > 0 {
			fmt.Printf("%s loses %v\n", o.Manager.Manager, o.Taken)
		}
	}
	fmt.Println(res.Object["metadata"].(map[string]any)["annotations"])
	// Output:
	// update
	// overrode .spec.replicas of kube-controller-manager: 5 → 2
	// kube-controller-manager loses [.spec.replicas]
	// map[argocd.argoproj.io/tracking-id:shop:apps/Deployment:shop/web]
}

// `kubectl scale` and `kubectl label` on a Deployment its CI applies: the scale patches
// /scale without a fieldManager, so the server names the entry after kubectl's User-Agent
// and takes spec.replicas from the applier; the label is kubectl-label's.
func ExampleKubectlCommand() {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	applied, err := engine.Apply(merge.Request{Object: decode(`{"apiVersion":"apps/v1","kind":"Deployment",
	  "metadata":{"name":"web","namespace":"shop"},
	  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
	    "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"shop/web:1.0"}]}}}}`),
		Manager: "ci", Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		log.Fatal(err)
	}
	live := applied.Object // as the server stores it: defaulted
	live["metadata"].(map[string]any)["uid"] = "6d1b7a52-0000-4000-8000-000000000004"
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, line := range []string{"scale deployment web --replicas=5", "label deploy/web tier=gold"} {
		cmd, err := appliers.ParseKubectlCommandLine(line)
		if err != nil {
			log.Fatal(err)
		}
		res, err := cmd.Apply(engine, merge.Request{Live: live, Now: now})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("kubectl %s: %s\n", line, res.Action)
		for _, e := range res.ManagedFields {
			if e.Manager != "ci" {
				fmt.Println(" ", e.Manager, e.Operation, e.Subresource, string(e.FieldsV1))
			}
		}
	}
	// Output:
	// kubectl scale deployment web --replicas=5: update
	//   kubectl Update scale {"f:spec":{"f:replicas":{}}}
	// kubectl label deploy/web tier=gold: update
	//   kubectl-label Update  {"f:metadata":{"f:labels":{".":{},"f:tier":{}}}}
}

// `kubectl debug` on a running Pod: kubectl patches /ephemeralcontainers without a
// fieldManager, adding the container its general profile builds (SYS_PTRACE to trace the
// target's processes); the entry is kubectl's, with subresource ephemeralcontainers.
func ExampleKubectlCommand_debug() {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	applied, err := engine.Apply(merge.Request{Object: decode(`{"apiVersion":"v1","kind":"Pod",
	  "metadata":{"name":"web","namespace":"shop"},"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}`),
		Manager: "ci", Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		log.Fatal(err)
	}
	live := applied.Object
	live["metadata"].(map[string]any)["uid"] = "6d1b7a52-0000-4000-8000-000000000005"
	cmd, err := appliers.ParseKubectlCommandLine("debug web -n shop --image=busybox:1.36 -c debugger --target=app")
	if err != nil {
		log.Fatal(err)
	}
	res, err := cmd.Apply(engine, merge.Request{Live: live, Now: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Action, res.Endpoint.Subresource)
	ec := res.Object["spec"].(map[string]any)["ephemeralContainers"].([]any)[0].(map[string]any)
	fmt.Println(ec["name"], ec["image"], ec["securityContext"], ec["imagePullPolicy"])
	for _, e := range res.ManagedFields {
		if e.Manager != "ci" {
			fmt.Println(e.Manager, e.Operation, e.Subresource)
		}
	}
	// Output:
	// update ephemeralcontainers
	// debugger busybox:1.36 map[capabilities:map[add:[SYS_PTRACE]]] IfNotPresent
	// kubectl Update ephemeralcontainers
}

// `kubectl debug --copy-to` makes a copy of the Pod instead: kubectl reads it, then POSTs
// the copy without a fieldManager — the labels and probes dropped by the general profile,
// the debug container added, the process namespace shared. The result is the new Pod.
func ExampleKubectlCommand_debugCopy() {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	applied, err := engine.Apply(merge.Request{Object: decode(`{"apiVersion":"v1","kind":"Pod",
	  "metadata":{"name":"web","namespace":"shop","labels":{"app":"web"}},
	  "spec":{"containers":[{"name":"app","image":"nginx:1.27","readinessProbe":{"tcpSocket":{"port":80}}}]}}`),
		Manager: "ci", Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		log.Fatal(err)
	}
	cmd, err := appliers.ParseKubectlCommandLine("debug web -n shop --copy-to=web-debug --image=busybox:1.36 -c debugger")
	if err != nil {
		log.Fatal(err)
	}
	res, err := cmd.Apply(engine, merge.Request{Live: applied.Object, Now: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		log.Fatal(err)
	}
	md, spec := res.Object["metadata"].(map[string]any), res.Object["spec"].(map[string]any)
	fmt.Println(res.Action, md["name"], md["labels"], spec["shareProcessNamespace"])
	for _, c := range spec["containers"].([]any) {
		c := c.(map[string]any)
		fmt.Println(c["name"], c["image"], c["readinessProbe"], c["securityContext"])
	}
	for _, e := range res.ManagedFields {
		fmt.Println(e.Manager, e.Operation)
	}
	// Output:
	// create web-debug <nil> true
	// app nginx:1.27 <nil> <nil>
	// debugger busybox:1.36 <nil> map[capabilities:map[add:[SYS_PTRACE]]]
	// kubectl Update
}
