package merge

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

var versionsNow = time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)

// widgetCRDs defines example.com Widget: v1 served (storage), v2 served, v1beta1 listed but
// not served; strategy None unless webhook.
func widgetRegistry(t *testing.T, webhook bool) *schema.Registry {
	t.Helper()
	conv := ""
	if webhook {
		conv = "  conversion: {strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig: {url: \"https://conv.example.com\"}}}\n"
	}
	reg := schema.MustNewRegistry(kube.Default())
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
` + conv + `  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}, tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}}}}}}
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}, tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}}}}}}
  - name: v1beta1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
`
	if err := reg.AddCRD("widgets.yaml", []byte(crd)); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestUnknownGroupFallsBackToDeduced: a group nobody told the registry about is predicted
// with the deduced type, and the warning says how to give its schema.
func TestUnknownGroupFallsBackToDeduced(t *testing.T) {
	e := New(widgetRegistry(t, false), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	res, err := e.Apply(Request{Object: objFromYAML(t, "apiVersion: ops.example.org/v1\nkind: Backup\nmetadata: {name: b, namespace: shop}\nspec: {keep: 3}"),
		Manager: "ops", Now: versionsNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != ActionCreate {
		t.Fatalf("action %s, %+v", res.Action, res.Rejection)
	}
	if len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, "\n"), "--crd") {
		t.Errorf("warnings %q do not name --crd", res.Warnings)
	}
}

const hpaAtV2 = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: front
  namespace: shop
  uid: 01551f69-58eb-41d4-8c2b-913318a26859
  resourceVersion: "95"
  generation: 1
  creationTimestamp: "2026-12-03T00:56:36Z"
  managedFields:
  - manager: platform
    operation: Apply
    apiVersion: autoscaling/v2
    time: "2026-12-03T00:56:36Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:maxReplicas": {}, "f:metrics": {}, "f:minReplicas": {}, "f:scaleTargetRef": {"f:apiVersion": {}, "f:kind": {}, "f:name": {}}}}
spec:
  scaleTargetRef: {kind: Deployment, name: front, apiVersion: apps/v1}
  minReplicas: 2
  maxReplicas: 8
  metrics:
  - type: Pods
    pods: {metric: {name: qps}, target: {type: AverageValue, averageValue: "10"}}
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
status:
  desiredReplicas: 0
  currentMetrics: null
`

// TestHPAV1OverV2 (rules.md version.conversion): a v1 apply over an HPA written at v2 is predicted at v1,
// against the live object read at v1; a conflict on v2's spec.metrics shows v2's values.
func TestHPAV1OverV2(t *testing.T) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := objFromYAML(t, hpaAtV2)
	cfg := objFromYAML(t, "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: front, namespace: shop}\nspec: {scaleTargetRef: {kind: Deployment, name: front, apiVersion: apps/v1}, maxReplicas: 8, targetCPUUtilizationPercentage: 60}")
	res, err := e.Apply(Request{Live: live, Object: cfg, Manager: "team-app", Now: versionsNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rejection == nil || res.Rejection.Message != `Apply failed with 1 conflict: conflict with "platform": .spec.metrics` {
		t.Fatalf("rejection %+v", res.Rejection)
	}
	if len(res.Conflicts) != 1 || res.Conflicts[0].Manager.APIVersion != "autoscaling/v2" {
		t.Fatalf("conflicts %+v", res.Conflicts)
	}
	c := res.Conflicts[0]
	if lv, _ := c.Live.([]any); len(lv) != 2 {
		t.Errorf("live value %v, want v2's two metrics", c.Live)
	}
	if av, _ := c.Applied.([]any); len(av) != 1 {
		t.Errorf("applied value %v, want the CPU metric of 60%%", c.Applied)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "by structure") {
			t.Errorf("warning %q: the conversion is the server's", w)
		}
	}

	// Forced: the object at v1, read back with the other metric in an annotation.
	res, err = e.Apply(Request{Live: live, Object: cfg, Manager: "team-app", Force: true, Now: versionsNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rejection != nil || res.Action != ActionUpdate {
		t.Fatalf("forced: %s %+v", res.Action, res.Rejection)
	}
	if av, _ := res.Object["apiVersion"].(string); av != "autoscaling/v1" {
		t.Errorf("answer at %s", av)
	}
	if got := annotations(res.Object)["autoscaling.alpha.kubernetes.io/metrics"]; got != `[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]` {
		t.Errorf("metrics annotation %v", got)
	}
	if av, _ := res.Live["apiVersion"].(string); av != "autoscaling/v1" {
		t.Errorf("Result.Live is %v, want the live object read at autoscaling/v1", res.Live["apiVersion"])
	}
	if live["apiVersion"] != "autoscaling/v2" {
		t.Error("the live object given was changed")
	}
}

// TestCRDConversions (rules.md version.conversion): strategy None rewrites apiVersion; a webhook cannot be
// run offline, which is said when the live object is at another version, and approximated
// (with a warning) for entries at another version otherwise.
func TestCRDConversions(t *testing.T) {
	live := func(av string) map[string]any {
		return objFromYAML(t, `apiVersion: `+av+`
kind: Widget
metadata:
  name: w
  namespace: shop
  uid: 00000000-0000-0000-0000-000000000001
  managedFields:
  - {manager: ops, operation: Apply, apiVersion: example.com/v2, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:size": {}}}}
spec: {size: 3}
`)
	}
	cfg := objFromYAML(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: shop}\nspec: {size: 4}")

	none := New(widgetRegistry(t, false), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	res, err := none.Apply(Request{Live: live("example.com/v2"), Object: cfg, Manager: "team", Now: versionsNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rejection == nil || res.Rejection.Message != `Apply failed with 1 conflict: conflict with "ops": .spec.size` {
		t.Fatalf("None: %+v", res.Rejection)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("None: warnings %q", res.Warnings)
	}

	webhook := New(widgetRegistry(t, true), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	if _, err := webhook.Apply(Request{Live: live("example.com/v2"), Object: cfg, Manager: "team", Now: versionsNow}); !errors.Is(err, ErrNotPredictable) || !strings.Contains(err.Error(), "webhook") {
		t.Errorf("webhook, live at another version: %v", err)
	}
	res, err = webhook.Apply(Request{Live: live("example.com/v1"), Object: cfg, Manager: "team", Force: true, Now: versionsNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rejection != nil || !strings.Contains(strings.Join(res.Warnings, "\n"), "webhook") {
		t.Errorf("webhook, live at the same version: %+v %q", res.Rejection, res.Warnings)
	}
}

// TestLiveAtUnservedVersion: no 1.37 server returns an object at a version it does not
// serve; such a live object is an input error, not a guess.
func TestLiveAtUnservedVersion(t *testing.T) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := objFromYAML(t, "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 1}")
	cfg := objFromYAML(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 2}")
	if _, err := e.Apply(Request{Live: live, Object: cfg, Manager: "m", Now: versionsNow}); !errors.Is(err, ErrNotPredictable) || !strings.Contains(err.Error(), "does not serve") {
		t.Errorf("got %v", err)
	}
}

// TestHubLiveIsTheStoredObject: the registry's rules run on the object as the server holds
// it, not as the request's version reads it. An HPA held without metrics (the differential
// test's oracle makes such objects: it does not default) reads at autoscaling/v1 without a
// CPU target, and reading that back would give it the default 80%; a /status write at v1
// keeps the spec the server holds: still no CPU target (rules.md version.conversion, sub.reset-fields).
func TestHubLiveIsTheStoredObject(t *testing.T) {
	e := New(schema.MustNewRegistry(kube.Default()), conversionOnly{})
	live := objFromYAML(t, `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: front
  namespace: shop
  uid: u1
  managedFields:
  - {manager: ops, operation: Apply, apiVersion: autoscaling/v2, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:maxReplicas": {}}}}
spec: {maxReplicas: 3, scaleTargetRef: {kind: Deployment, name: web}}`)
	body := objFromYAML(t, "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: front, namespace: shop}\nstatus: {currentReplicas: 2}")
	for name, call := range map[string]func(Request) (*Result, error){"apply": e.Apply, "update": e.Update} {
		res, err := call(Request{Live: live, Object: body, Manager: "ctrl", Endpoint: Endpoint{GVK: schema.GVK{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler"}, Namespace: "shop", Name: "front", Subresource: "status"}, Now: versionsNow})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rejection != nil {
			t.Fatalf("%s: %+v", name, res.Rejection)
		}
		spec, _ := res.Object["spec"].(map[string]any)
		if _, ok := spec["targetCPUUtilizationPercentage"]; ok {
			t.Errorf("%s: spec %v has the default CPU target the stored object does not have", name, spec)
		}
	}
}

// conversionOnly is field management with the server's conversion of built-in kinds between
// their versions, and nothing else of the server.
type conversionOnly struct{ server.FieldManagementOnly }

func (conversionOnly) Hub(t *schema.Type) string {
	return kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}).Hub(t)
}

func (conversionOnly) Convert(obj map[string]any, apiVersion string) (map[string]any, error) {
	return kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}).Convert(obj, apiVersion)
}

func (conversionOnly) DecodeBody(obj map[string]any) ([]string, error) {
	return kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}).DecodeBody(obj)
}

// TestNoopApplyKeepsTheStoredObject: an apply whose field management changes nothing
// leaves the object the server holds, not one read back from the request's version — even
// when kubectl's sync rewrites the last-applied annotation after field management (rules.md
// version.no-op-keeps-stored). Read back from autoscaling/v1, an HPA held without metrics
// would get the default CPU target of 80% (the differential test's oracle holds such
// objects: it does not default; seed 777834), and one held with its CPU target before
// another metric would have them swapped (v1 keeps the other metrics in an annotation and
// puts them first); kube-apiserver 1.37.2 keeps both as they are.
func TestNoopApplyKeepsTheStoredObject(t *testing.T) {
	const lastApplied = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"front","namespace":"shop"}}`
	head := `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: front
  namespace: shop
  uid: u1
  annotations: {kubectl.kubernetes.io/last-applied-configuration: '` + lastApplied + `'}
  managedFields:
  - {manager: ops, operation: Update, apiVersion: autoscaling/v2, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:maxReplicas": {}}}}
`
	body := objFromYAML(t, "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: front, namespace: shop}")
	for _, c := range []struct {
		name, spec string
		metrics    []string // the metrics' resources the registry's rules see
		cpu        any      // spec.targetCPUUtilizationPercentage of the answer
	}{
		{name: "no metrics", spec: "spec: {maxReplicas: 3, scaleTargetRef: {kind: Deployment, name: web}}", cpu: nil},
		{name: "cpu first", spec: `spec:
  maxReplicas: 3
  scaleTargetRef: {kind: Deployment, name: web}
  metrics:
  - {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}
  - {type: Resource, resource: {name: memory, target: {type: Utilization, averageUtilization: 60}}}`,
			metrics: []string{"cpu", "memory"}, cpu: int64(50)},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &preparedHub{}
			e := New(schema.MustNewRegistry(kube.Default()), m)
			res, err := e.Apply(Request{Live: objFromYAML(t, head+c.spec), Object: body, Manager: KubectlManager, Now: versionsNow})
			if err != nil {
				t.Fatal(err)
			}
			if res.Rejection != nil {
				t.Fatalf("%+v", res.Rejection)
			}
			spec, _ := res.Object["spec"].(map[string]any)
			if got := spec["targetCPUUtilizationPercentage"]; got != c.cpu {
				t.Errorf("targetCPUUtilizationPercentage %v, want %v (spec %v)", got, c.cpu, spec)
			}
			if got, _ := annotations(res.Object)[LastAppliedAnnotation].(string); !strings.Contains(got, `"apiVersion":"autoscaling/v1"`) {
				t.Errorf("last-applied annotation %q not synced to the apply", got)
			}
			if m.obj == nil {
				t.Fatal("the registry's rules did not run")
			}
			if got, _ := annotations(m.obj)[LastAppliedAnnotation].(string); !strings.Contains(got, `"apiVersion":"autoscaling/v1"`) {
				t.Errorf("the registry's rules saw the last-applied annotation %q, not the synced one", got)
			}
			mspec, _ := m.obj["spec"].(map[string]any)
			items, _ := mspec["metrics"].([]any)
			var names []string
			for _, it := range items {
				r, _ := it.(map[string]any)["resource"].(map[string]any)
				n, _ := r["name"].(string)
				names = append(names, n)
			}
			if strings.Join(names, ",") != strings.Join(c.metrics, ",") {
				t.Errorf("the registry's rules saw metrics %v, want %v as held", names, c.metrics)
			}
		})
	}
}

// preparedHub is conversionOnly recording the object the registry's update rules see.
type preparedHub struct {
	conversionOnly
	obj map[string]any
}

func (p *preparedHub) PrepareForUpdate(t *schema.Type, subresource string, decoded, obj, old map[string]any) error {
	p.obj = unstructured.DeepCopyObject(obj)
	return p.conversionOnly.PrepareForUpdate(t, subresource, decoded, obj, old)
}

// TestWriteAtV1DecodesTheBody: a PUT or a PATCH at autoscaling/v1 is decoded from that
// version even when it says what the server holds: an HPA held with its CPU target before
// another metric comes back with them swapped, a change of the spec, so the server writes
// it and moves the generation (kube-apiserver 1.37.2: a PUT of the object as read at v1,
// and a merge patch {}, both gave metrics memory, cpu and generation 2). Only an apply
// whose field management changed nothing keeps the object held (rules.md
// version.no-op-keeps-stored, version.conversion); a /status write keeps the spec held.
func TestWriteAtV1DecodesTheBody(t *testing.T) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	held := objFromYAML(t, `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: front
  namespace: shop
  uid: u1
  generation: 1
  resourceVersion: "7"
  creationTimestamp: "2026-12-01T00:00:00Z"
  managedFields:
  - {manager: ops, operation: Update, apiVersion: autoscaling/v2, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:maxReplicas": {}, "f:metrics": {}}}}
spec:
  maxReplicas: 3
  minReplicas: 1
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  metrics:
  - {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}
  - {type: Resource, resource: {name: memory, target: {type: Utilization, averageUtilization: 60}}}
status: {currentReplicas: 0, desiredReplicas: 0}`)
	atV1, err := e.model.Convert(held, "autoscaling/v1")
	if err != nil {
		t.Fatal(err)
	}
	ep := Endpoint{GVK: schema.GVK{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler"}, Namespace: "shop", Name: "front"}
	status := ep
	status.Subresource = "status"
	for _, c := range []struct {
		name       string
		verb       Verb
		ep         Endpoint
		action     Action
		generation int64
	}{
		{"put", VerbUpdate, ep, ActionUpdate, 2},
		{"merge patch {}", VerbPatch, ep, ActionUpdate, 2},
		{"put /status", VerbUpdate, status, ActionUnchanged, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Send(c.verb, Request{Live: held, Object: atV1, Endpoint: c.ep, Manager: "m", Patch: Patch{MergePatch, []byte(`{}`)}, Now: versionsNow})
			if err != nil {
				t.Fatal(err)
			}
			if res.Rejection != nil {
				t.Fatalf("%+v", res.Rejection)
			}
			gen, _ := metadataOf(res.Object)["generation"].(int64)
			if res.Action != c.action || gen != c.generation {
				t.Errorf("%s, generation %d; want %s, generation %d", res.Action, gen, c.action, c.generation)
			}
		})
	}
}
