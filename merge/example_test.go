package merge_test

import (
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// decode is how an embedder holds objects: map[string]any as encoding/json decodes them.
func decode(s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		log.Fatal(err)
	}
	return m
}

// The README's snippet: an apply of a manifest against the live object. The HPA owns
// spec.replicas through /scale, so an apply that sets another value is refused with 409;
// with Force it takes the field.
func Example() {
	reg := schema.MustNewRegistry(kube.Default())                                                // every built-in kind of Kubernetes 1.37
	engine := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})) // defaulting and registry rules included
	live := decode(`{"apiVersion":"apps/v1","kind":"Deployment",
	  "metadata":{"name":"web","namespace":"shop","uid":"6d1b7a52-0000-4000-8000-000000000001","resourceVersion":"7","generation":1,
	    "creationTimestamp":"2026-12-01T09:00:00Z",
	    "managedFields":[
	      {"manager":"ci","operation":"Apply","apiVersion":"apps/v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1",
	       "fieldsV1":{"f:spec":{"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}},
	      {"manager":"hpa-controller","operation":"Update","apiVersion":"apps/v1","time":"2026-12-01T10:00:00Z","fieldsType":"FieldsV1",
	       "fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"}]},
	  "spec":{"replicas":5,"selector":{"matchLabels":{"app":"web"}},
	    "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"shop/web:1.0"}]}}}}`)
	manifest := decode(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},
	  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
	    "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"shop/web:1.1"}]}}}}`)
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

	res, err := engine.Apply(merge.Request{Live: live, Object: manifest, Manager: "ci", Now: now})
	if err != nil {
		log.Fatal(err) // ssa-diff could not predict
	}
	fmt.Println(res.Action, res.Rejection.Code)
	for _, c := range res.Conflicts {
		fmt.Printf("conflict: %s owned by %s: %v → %v\n", c.Path, c.Manager.Manager, c.Live, c.Applied)
	}

	res, err = engine.Apply(merge.Request{Live: live, Object: manifest, Manager: "ci", Force: true, Now: now})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Action)
	for _, o := range res.Ownership {
		fmt.Printf("%s: taken %v, gained %v\n", o.Manager.Manager, o.Taken, o.Gained)
	}
	for _, e := range res.ManagedFields {
		fmt.Println(e.Manager, e.Operation, e.Subresource, string(e.FieldsV1))
	}
	// Output:
	// rejected 409
	// conflict: .spec.replicas owned by hpa-controller: 5 → 2
	// update
	// ci: taken [], gained [.spec.replicas]
	// hpa-controller: taken [.spec.replicas], gained []
	// ci Apply  {"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}
}

// A client of one's own that sends two requests for an object: a patch that takes the
// entry of a retired manager out of managedFields, then its apply, which no longer sets
// the key both managers owned. The Sequence predicts each request on the previous one's
// answer, and Summarize describes both as one Result: with its co-owner gone, the key is
// deleted (alone, the apply would leave it to the retired manager).
func ExampleSequence() {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := decode(`{"apiVersion":"v1","kind":"ConfigMap",
	  "metadata":{"name":"settings","namespace":"shop","uid":"6d1b7a52-0000-4000-8000-000000000002","resourceVersion":"3",
	    "creationTimestamp":"2026-12-01T09:00:00Z",
	    "managedFields":[
	      {"manager":"old-operator","operation":"Apply","apiVersion":"v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:legacy":{}}}},
	      {"manager":"operator","operation":"Apply","apiVersion":"v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:legacy":{},"f:mode":{}}}}]},
	  "data":{"legacy":"1","mode":"fast"}}`)
	manifest := decode(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"shop"},"data":{"mode":"fast"}}`)
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

	seq, refused, err := engine.Begin(merge.Request{Live: live, Object: manifest, Manager: "operator", Now: now}, merge.ClientRaw)
	if err != nil || refused != nil {
		log.Fatal(err, refused)
	}
	req := seq.Request()
	entries, _, err := fieldpath.EntriesOf(seq.Live())
	if err != nil {
		log.Fatal(err)
	}
	patch, err := seq.WithManagedFields(seq.Live(), entries[1:]) // without old-operator's entry
	if err != nil {
		log.Fatal(err)
	}
	patched, err := seq.Update(merge.Request{Live: seq.Live(), Object: patch, Endpoint: req.Endpoint, Manager: "operator", Now: now})
	if err != nil {
		log.Fatal(err)
	}
	applied, err := seq.Apply(merge.Request{Live: patched.Object, Object: manifest, Endpoint: req.Endpoint, Manager: "operator", Now: now})
	if err != nil {
		log.Fatal(err)
	}
	res := seq.Summarize(merge.Outcome{Manager: "operator", Final: applied.Object, First: applied, Steps: []merge.Step{
		{Description: "managedFields patch", Manager: "operator", Code: patched.StatusCode()},
		{Description: "apply", Manager: "operator", Code: applied.StatusCode()},
	}})
	fmt.Println(res.Action, res.Object["data"], res.Deleted)
	for _, o := range res.Ownership {
		if len(o.Taken) > 0 {
			fmt.Printf("%s: taken %v\n", o.Manager.Manager, o.Taken)
		}
	}
	// Output:
	// update map[mode:fast] [.data.legacy]
	// old-operator: taken [.data.legacy]
}

// A controller's strategic merge patch of one container's image: the patch is applied to
// the object as the server encodes it and written as an update, so the patcher owns the
// image it changed and the applier no longer does.
func ExampleEngine_Patch() {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	applied, err := engine.Apply(merge.Request{Object: decode(`{"apiVersion":"apps/v1","kind":"Deployment",
	  "metadata":{"name":"web","namespace":"shop"},
	  "spec":{"selector":{"matchLabels":{"app":"web"}},
	    "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"shop/web:1.0"},{"name":"proxy","image":"envoy:1"}]}}}}`),
		Manager: "ci", Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		log.Fatal(err)
	}
	live := applied.Object
	live["metadata"].(map[string]any)["uid"] = "6d1b7a52-0000-4000-8000-000000000003"

	res, err := engine.Patch(merge.Request{Live: live, Manager: "image-updater", Now: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC),
		Patch: merge.Patch{Type: merge.StrategicPatch, Body: []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"shop/web:1.1"}]}}}}`)}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Action)
	for _, e := range res.ManagedFields {
		fmt.Println(e.Manager, e.Operation, string(e.FieldsV1))
	}
	// Output:
	// update
	// ci Apply {"f:spec":{"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"proxy\"}":{".":{},"f:image":{},"f:name":{}},"k:{\"name\":\"web\"}":{".":{},"f:name":{}}}}}}}
	// image-updater Update {"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{"f:image":{}}}}}}}
}

// A POST: the creator owns every field it sets and every field defaulting sets, as an
// Update entry; a name that exists would be 409 AlreadyExists.
func ExampleEngine_Create() {
	engine := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	res, err := engine.Create(merge.Request{Object: decode(`{"apiVersion":"v1","kind":"ConfigMap",
	  "metadata":{"name":"settings","namespace":"shop"},"data":{"mode":"fast"}}`),
		Manager: "kubectl-create", Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Action, res.StatusCode())
	for _, e := range res.ManagedFields {
		fmt.Println(e.Manager, e.Operation, string(e.FieldsV1))
	}
	// Output:
	// create 201
	// kubectl-create Update {"f:data":{".":{},"f:mode":{}}}
}

// Defaulted is a body as the server decodes and defaults it: what a manifest that leaves a
// field out gets there.
func ExampleEngine_Defaulted() {
	reg := schema.MustNewRegistry(kube.Default())
	engine := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	manifest := decode(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"shop"},
	  "spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}`)
	d, ok := engine.Defaulted(schema.GVK{Version: "v1", Kind: "Service"}, manifest)
	if !ok {
		log.Fatal("not defaulted")
	}
	spec := d["spec"].(map[string]any)
	fmt.Println(spec["type"], spec["sessionAffinity"], spec["ports"].([]any)[0].(map[string]any)["protocol"])
	_, changed := manifest["spec"].(map[string]any)["type"]
	fmt.Println("manifest changed:", changed)
	// Output:
	// ClusterIP None TCP
	// manifest changed: false
}
