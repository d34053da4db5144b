package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ssa-diff/ssa-diff/internal/api/apps"
	"github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/api/rbac"
)

func decodeJSON(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

const deployment = `{"apiVersion":"apps/v1","kind":"Deployment",
 "metadata":{"name":"web","namespace":"shop","labels":{"app":"web"},
   "annotations":{"deprecated.deployment.rollback.to":"3","team":"a"}},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
   "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},
   "template":{"metadata":{"labels":{"app":"web"}},
     "spec":{"serviceAccount":"old","containers":[{"name":"web","image":"nginx:1.27",
       "ports":[{"containerPort":8080,"protocol":"TCP"}],
       "resources":{"limits":{"memory":"1Gi"},"requests":{"cpu":"100m"}}}]}}}}`

// Decode fills the internal type by the served version's JSON names, converts what
// conversion converts (the rollback annotation becomes spec.rollbackTo and leaves the
// annotations), and prints as the server prints internal values.
func TestDecodeDeployment(t *testing.T) {
	var d apps.Deployment
	if err := Decode(decodeJSON(t, deployment), &d); err != nil {
		t.Fatal(err)
	}
	if d.Name != "web" || d.Spec.Replicas != 2 || d.Spec.Template.Spec.Containers[0].Ports[0].ContainerPort != 8080 {
		t.Errorf("decoded %+v", d)
	}
	if d.Spec.RollbackTo == nil || d.Spec.RollbackTo.Revision != 3 {
		t.Errorf("rollbackTo %+v, want revision 3 from the annotation", d.Spec.RollbackTo)
	}
	if _, ok := d.Annotations["deprecated.deployment.rollback.to"]; ok || d.Annotations["team"] != "a" {
		t.Errorf("annotations %v: the rollback annotation is consumed by conversion, the others stay", d.Annotations)
	}
	if got := d.Spec.Template.Spec.DeprecatedServiceAccount; got != "old" {
		t.Errorf("serviceAccount decodes into DeprecatedServiceAccount, got %q", got)
	}
	if q := d.Spec.Template.Spec.Containers[0].Resources.Limits[core.ResourceMemory]; q.String() != "1Gi" {
		t.Errorf("memory limit %v", q.String())
	}
	// A value printed as a validation error prints it: the internal type's Go names.
	b, _ := json.Marshal(d.Spec.Strategy)
	if string(b) != `{"Type":"RollingUpdate","RollingUpdate":{"MaxUnavailable":1,"MaxSurge":"25%"}}` {
		t.Errorf("strategy prints %s", b)
	}
	ref := rbac.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "admin-apps"}
	if b, _ := json.Marshal(ref); string(b) != `{"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"admin-apps"}` {
		t.Errorf("roleRef prints %s (catalog V1's example)", b)
	}
}

// A Secret's stringData is written over data; a value of the wrong type names its path.
func TestDecodeSecretAndErrors(t *testing.T) {
	var s core.Secret
	obj := decodeJSON(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},
		"data":{"a":"b2xk","b":"eA=="},"stringData":{"a":"new"},"type":"Opaque"}`)
	if err := Decode(obj, &s); err != nil {
		t.Fatal(err)
	}
	if string(s.Data["a"]) != "new" || string(s.Data["b"]) != "x" || s.Type != core.SecretTypeOpaque {
		t.Errorf("secret %+v", s)
	}
	var d apps.Deployment
	bad := decodeJSON(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"},"spec":{"template":{"spec":{"containers":[{"name":1}]}}}}`)
	err := Decode(bad, &d)
	if err == nil || !strings.Contains(err.Error(), ".spec.template.spec.containers[0].name: want a string, got a number") {
		t.Errorf("error %v", err)
	}
	if New("apps", "v1", "Deployment") == nil || New("apps", "v1beta1", "Deployment") != nil {
		t.Error("New knows served kinds at their served version only")
	}
}

// An events.k8s.io/v1 Event decodes into the internal Event the v1 Event shares.
func TestDecodeEventsV1(t *testing.T) {
	var e core.Event
	obj := decodeJSON(t, `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},
		"regarding":{"kind":"Pod","name":"p"},"note":"pulled","reportingController":"kubelet","deprecatedCount":3}`)
	if err := Decode(obj, &e); err != nil {
		t.Fatal(err)
	}
	if e.InvolvedObject.Name != "p" || e.Message != "pulled" || e.ReportingController != "kubelet" || e.Count != 3 {
		t.Errorf("event %+v", e)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(deployment)
	f.Add(`{"apiVersion":"v1","kind":"Secret","data":{"a":"!!"},"stringData":{"a":1}}`)
	f.Add(`{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"annotations":{"deprecated.daemonset.template.generation":"x"}}}`)
	f.Add(`{"apiVersion":"v1","kind":"Node","spec":{"podCIDR":"10.0.0.0/24","podCIDRs":["x"]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		var m map[string]any
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		if d.Decode(&m) != nil || m == nil {
			return
		}
		for _, out := range []any{&apps.Deployment{}, &apps.DaemonSet{}, &core.Secret{}, &core.Node{}, &core.Pod{}, &core.Event{}} {
			_ = Decode(m, out) // never a panic
		}
	})
}

// Metadata decodes as encoding/json decodes it whatever form managedFields' fieldsV1 takes:
// a tree of maps (decoded JSON) or its compact text (json.RawMessage, as the engine holds
// it).
func TestDecodeObjectMetaManagedFields(t *testing.T) {
	const meta = `{"name":"web","namespace":"shop","labels":{"app":"web"},"managedFields":[
	  {"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"2026-12-01T12:00:00Z","fieldsType":"FieldsV1",
	   "fieldsV1":{"f:data":{"f:a":{}},"f:metadata":{"f:labels":{"f:app":{}}}}},
	  {"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-12-01T12:01:00Z","fieldsType":"FieldsV1",
	   "subresource":"status","fieldsV1":{"f:status":{}}},
	  {"manager":"no-fields","operation":"Update","apiVersion":"v1"}]}`
	var want metav1.ObjectMeta
	if err := json.Unmarshal([]byte(meta), &want); err != nil {
		t.Fatal(err)
	}
	tree := decodeJSON(t, `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"},"metadata":`+meta+`}`)
	text := decodeJSON(t, `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"},"metadata":`+meta+`}`)
	for _, e := range text["metadata"].(map[string]any)["managedFields"].([]any) {
		e := e.(map[string]any)
		if f, ok := e["fieldsV1"]; ok {
			b, _ := json.Marshal(f)
			e["fieldsV1"] = json.RawMessage(b)
		}
	}
	for name, obj := range map[string]map[string]any{"tree": tree, "text": text} {
		var cm core.ConfigMap
		if err := Decode(obj, &cm); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(cm.ObjectMeta, want) {
			t.Errorf("%s: got %+v\nwant %+v", name, cm.ObjectMeta, want)
		}
	}
}

// A managedFields time that is no RFC 3339 time is refused as encoding/json refuses it,
// the empty string included.
func TestDecodeObjectMetaBadTime(t *testing.T) {
	for _, bad := range []string{`""`, `"null"`, `"yesterday"`} {
		obj := decodeJSON(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","managedFields":[{"manager":"m","operation":"Apply","time":`+bad+`}]}}`)
		var cm core.ConfigMap
		if err := Decode(obj, &cm); err == nil {
			t.Errorf("time %s: decoded %+v, want the JSON decoder's error", bad, cm.ManagedFields)
		}
	}
}
