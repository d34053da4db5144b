package merge

import (
	"reflect"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
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
	reg := schema.NewRegistry()
	for i, c := range crds {
		if err := reg.AddCRD(string(rune('a'+i)), []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	return New(reg)
}

// A custom resource created through the main resource loses the status of the request
// (catalog J3), and is read back from storage with the schema's defaults: a status with a
// default comes back with it (recorded: conformance/testdata/fidelity/cr-status-default-on-create).
func TestCustomResourceStatusDefaultOnCreate(t *testing.T) {
	e := crdEngine(t, gatewayClassCRD)
	res, err := e.Apply(Request{Manager: "gateway-installer", Now: serverTestNow, Object: map[string]interface{}{
		"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GatewayClass",
		"metadata": map[string]interface{}{"name": "internal"},
		"spec":     map[string]interface{}{"controllerName": "example.com/gateway-controller"},
		"status":   map[string]interface{}{"conditions": []interface{}{map[string]interface{}{"type": "Accepted", "status": "True"}}}}})
	if err != nil || res.Rejection != nil {
		t.Fatal(err, res.Rejection)
	}
	want := []interface{}{map[string]interface{}{"lastTransitionTime": "1970-01-01T00:00:00Z", "message": "Waiting for controller",
		"reason": "Pending", "status": "Unknown", "type": "Accepted"}}
	if got := res.Object["status"].(map[string]interface{})["conditions"]; !reflect.DeepEqual(got, want) {
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
	widget := func(status interface{}) map[string]interface{} {
		o := map[string]interface{}{"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]interface{}{"name": "w", "namespace": "ns"}, "spec": map[string]interface{}{"replicas": int64(2)}}
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
		{"status through the main resource", Request{Live: live, Object: widget(map[string]interface{}{"ready": true}), Manager: "operator"}, 2},
		{"metadata only", Request{Live: live, Object: func() map[string]interface{} {
			o := widget(nil)
			metadataOf(o)["labels"] = map[string]interface{}{"a": "b"}
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
// managedFields times back (catalog G5), though the new strings are written (recorded:
// conformance/testdata/fidelity/deployment-quantity-reformat-keeps-generation).
func TestSemanticNoopKeepsTimes(t *testing.T) {
	e := New(schema.NewRegistry())
	dep := func(mem interface{}) map[string]interface{} {
		return map[string]interface{}{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]interface{}{"name": "web", "namespace": "ns"},
			"spec": map[string]interface{}{"selector": map[string]interface{}{"matchLabels": map[string]interface{}{"app": "web"}},
				"template": map[string]interface{}{"metadata": map[string]interface{}{"labels": map[string]interface{}{"app": "web"}},
					"spec": map[string]interface{}{"containers": []interface{}{map[string]interface{}{"name": "web", "image": "nginx:1.27",
						"resources": map[string]interface{}{"requests": map[string]interface{}{"memory": mem}}}}}}}}
	}
	created, err := e.Apply(Request{Object: dep(int64(1073741824)), Manager: "deployer", Now: serverTestNow})
	if err != nil || created.Rejection != nil {
		t.Fatal(err, created.Rejection)
	}
	live := unstructured.DeepCopy(created.Object).(map[string]interface{})
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

// Every applier reports what the server assigns, from the object its sequence leaves: on a
// create, the uid, the creation time and what the allocators fill; on an update, the new
// resourceVersion; nothing when nothing is written.
func TestAssignedEveryApplier(t *testing.T) {
	e := New(schema.NewRegistry())
	svc := map[string]interface{}{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]interface{}{"name": "web", "namespace": "shop"},
		"spec": map[string]interface{}{"type": "NodePort", "selector": map[string]interface{}{"app": "web"},
			"ports": []interface{}{map[string]interface{}{"name": "http", "port": int64(80)}}}}
	created := []string{".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion", ".spec.clusterIP",
		".spec.clusterIPs", ".spec.ipFamilies", ".spec.ports[0].nodePort"}
	appliers := map[string]func(Request) (*Result, error){
		"api":     e.Apply,
		"kubectl": e.KubectlApply,
		"argocd":  func(r Request) (*Result, error) { return e.ArgoCDApply(r, ArgoCDOptions{Application: "shop"}) },
		"flux": func(r Request) (*Result, error) {
			return e.FluxApply(r, FluxOptions{KustomizationName: "apps", KustomizationNamespace: "flux-system"})
		},
	}
	for name, apply := range appliers {
		t.Run(name, func(t *testing.T) {
			res, err := apply(Request{Object: unstructured.DeepCopy(svc).(map[string]interface{}), Manager: "m", Now: serverTestNow})
			if err != nil || res.Rejection != nil {
				t.Fatal(err, res.Rejection)
			}
			if !reflect.DeepEqual(res.Assigned, created) {
				t.Errorf("create: Assigned = %v, want %v", res.Assigned, created)
			}
			// The server's answer, with what it assigned.
			live := unstructured.DeepCopy(res.Object).(map[string]interface{})
			md, spec := metadataOf(live), live["spec"].(map[string]interface{})
			md["uid"], md["creationTimestamp"], md["resourceVersion"] = "u1", "2026-12-03T10:00:00Z", "7"
			spec["clusterIP"], spec["clusterIPs"], spec["ipFamilies"] = "10.0.0.9", []interface{}{"10.0.0.9"}, []interface{}{"IPv4"}
			spec["ports"].([]interface{})[0].(map[string]interface{})["nodePort"] = int64(30080)

			res, err = apply(Request{Live: live, Object: unstructured.DeepCopy(svc).(map[string]interface{}), Manager: "m", Now: serverTestNow.Add(time.Hour)})
			if err != nil || res.Rejection != nil {
				t.Fatal(err, res.Rejection)
			}
			if res.Action != ActionUnchanged || res.Assigned != nil {
				t.Errorf("again: %s, Assigned = %v; want unchanged and none", res.Action, res.Assigned)
			}
			next := unstructured.DeepCopy(svc).(map[string]interface{})
			next["spec"].(map[string]interface{})["ports"] = append(next["spec"].(map[string]interface{})["ports"].([]interface{}),
				map[string]interface{}{"name": "https", "port": int64(443)})
			res, err = apply(Request{Live: live, Object: next, Manager: "m", Now: serverTestNow.Add(time.Hour)})
			if err != nil || res.Rejection != nil {
				t.Fatal(err, res.Rejection)
			}
			if want := []string{".metadata.resourceVersion", ".spec.ports[1].nodePort"}; res.Action != ActionUpdate || !reflect.DeepEqual(res.Assigned, want) {
				t.Errorf("a new port: %s, Assigned = %v; want update and %v", res.Action, res.Assigned, want)
			}
		})
	}
}
