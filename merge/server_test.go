package merge

import (
	"reflect"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

var serverTestNow = time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)

// gatewayClassCRD is an excerpt of Gateway API's GatewayClass CRD: status subresource, and
// a status default the server applies when it reads the object back.
const gatewayClassCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gatewayclasses.gateway.networking.k8s.io
spec:
  group: gateway.networking.k8s.io
  names: {kind: GatewayClass, listKind: GatewayClassList, plural: gatewayclasses, singular: gatewayclass}
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              controllerName: {type: string}
              description: {type: string}
          status:
            type: object
            default:
              conditions:
              - {lastTransitionTime: "1970-01-01T00:00:00Z", message: Waiting for controller, reason: Pending, status: Unknown, type: Accepted}
            properties:
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  properties:
                    lastTransitionTime: {type: string, format: date-time}
                    message: {type: string}
                    observedGeneration: {type: integer, format: int64, minimum: 0}
                    reason: {type: string}
                    status: {type: string}
                    type: {type: string}
`

// widgetCRD has no status subresource: status is written through the main resource.
const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, minimum: 0, default: 1}
          status:
            type: object
            properties:
              ready: {type: boolean}
`

func crdEngine(t *testing.T, crds ...string) *Engine {
	t.Helper()
	reg := schema.MustNewRegistry(kube.Default())
	for i, c := range crds {
		if err := reg.AddCRD(string(rune('a'+i)), []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	return New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
}

// A custom resource created through the main resource loses the status of the request
// (rules.md sub.reset-fields), and is read back from storage with the schema's defaults: a status with a
// default comes back with it (recorded: conformance/testdata/fidelity/cr-status-default-on-create).
func TestCustomResourceStatusDefaultOnCreate(t *testing.T) {
	e := crdEngine(t, gatewayClassCRD)
	res, err := e.Apply(Request{Manager: "gateway-installer", Now: serverTestNow, Object: map[string]any{
		"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GatewayClass",
		"metadata": map[string]any{"name": "internal"},
		"spec":     map[string]any{"controllerName": "example.com/gateway-controller"},
		"status":   map[string]any{"conditions": []any{map[string]any{"type": "Accepted", "status": "True"}}}}})
	if err != nil || res.Rejection != nil {
		t.Fatal(err, res.Rejection)
	}
	want := []any{map[string]any{"lastTransitionTime": "1970-01-01T00:00:00Z", "message": "Waiting for controller",
		"reason": "Pending", "status": "Unknown", "type": "Accepted"}}
	if got := res.Object["status"].(map[string]any)["conditions"]; !reflect.DeepEqual(got, want) {
		t.Errorf("status.conditions = %v, want the schema's default %v", got, want)
	}
	if got := res.Assigned; !reflect.DeepEqual(got, []string{".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion"}) {
		t.Errorf("Assigned = %v", got)
	}
}

// A custom resource's generation moves when anything but metadata changes: status too when
// there is no status subresource, never for what /status writes (recorded:
// conformance/testdata/fidelity/cr-status-*).
func TestCustomResourceGeneration(t *testing.T) {
	e := crdEngine(t, widgetCRD)
	widget := func(status any) map[string]any {
		o := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w", "namespace": "ns"}, "spec": map[string]any{"replicas": int64(2)}}
		if status != nil {
			o["status"] = status
		}
		return o
	}
	created, err := e.Apply(Request{Object: widget(nil), Manager: "operator", Now: serverTestNow})
	if err != nil || created.Rejection != nil {
		t.Fatal(err, created.Rejection)
	}
	live := created.Object
	metadataOf(live)["uid"] = "u1"
	for _, tc := range []struct {
		name string
		req  Request
		want int64
	}{
		{"status through the main resource", Request{Live: live, Object: widget(map[string]any{"ready": true}), Manager: "operator"}, 2},
		{"metadata only", Request{Live: live, Object: func() map[string]any {
			o := widget(nil)
			metadataOf(o)["labels"] = map[string]any{"a": "b"}
			return o
		}(), Manager: "operator"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Now = serverTestNow.Add(time.Minute)
			res, err := e.Apply(tc.req)
			if err != nil || res.Rejection != nil {
				t.Fatal(err, res.Rejection)
			}
			if g := metadataOf(res.Object)["generation"]; g != tc.want {
				t.Errorf("generation %v, want %d", g, tc.want)
			}
		})
	}
}

// Quantities rewritten in other units are a semantic no-op: the store puts the live
// managedFields times back (rules.md time.store-ignores-time-only), though the new strings are written (recorded:
// conformance/testdata/fidelity/deployment-quantity-reformat-keeps-generation).
func TestSemanticNoopKeepsTimes(t *testing.T) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	dep := func(mem any) map[string]any {
		return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "web", "namespace": "ns"},
			"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
					"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27",
						"resources": map[string]any{"requests": map[string]any{"memory": mem}}}}}}}}
	}
	created, err := e.Apply(Request{Object: dep(int64(1073741824)), Manager: "deployer", Now: serverTestNow})
	if err != nil || created.Rejection != nil {
		t.Fatal(err, created.Rejection)
	}
	live := unstructured.DeepCopy(created.Object).(map[string]any)
	metadataOf(live)["uid"] = "u1"
	res, err := e.Apply(Request{Live: live, Object: dep("1Gi"), Manager: "deployer", Now: serverTestNow.Add(time.Hour)})
	if err != nil || res.Rejection != nil {
		t.Fatal(err, res.Rejection)
	}
	if res.Action != ActionUpdate {
		t.Errorf("action %s, want update (the memory string changes)", res.Action)
	}
	if got := res.ManagedFields[0].Time; got == nil || !got.Equal(serverTestNow) {
		t.Errorf("managedFields time %v, want the live one %v", got, serverTestNow)
	}
	if g := metadataOf(res.Object)["generation"]; g != int64(1) {
		t.Errorf("generation %v, want 1", g)
	}
}
