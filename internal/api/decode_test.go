package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
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
		t.Errorf("roleRef prints %s (rules.md valid.builtin's example)", b)
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

// directCases are objects whose quantities, int-or-strings, times and label selectors
// take direct's way or, at its edges, encoding/json's: one value per object, so that no
// error of another field stops the decoding before it.
var directCases = directEdges()

func directEdges() []string {
	var out []string
	for _, q := range []string{`"1Gi"`, `" 1 "`, `"1e3m"`, `"12345678901234567890"`, `"1<2"`, `"x"`, `"\u00e9"`, `"1Mi "`, `"1.5Gi"`, `1`, `null`, `"\t1"`} {
		out = append(out, `{"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"memory":`+q+`}}}]}}}}`)
	}
	for _, v := range []string{`3`, `"25%"`, `3000000000`, `-2147483648`, `2147483648`, `-2147483649`, `"\u003c\ufffd"`, `"\u2028"`, `1.5`, `2.0`, `null`, `"\ud800"`} {
		out = append(out, `{"spec":{"strategy":{"rollingUpdate":{"maxSurge":`+v+`}}}}`)
	}
	for _, ts := range []string{`"2026-12-01T12:00:00+01:00"`, `"2026-12-01T12:00:00Z"`, `"null"`, `""`, `"2026-13-01T00:00:00Z"`, `1`, `"\u0032026-12-01T12:00:00Z"`, `"2026-12-01T12:00:00.5Z"`} {
		out = append(out, `{"metadata":{"creationTimestamp":`+ts+`,"name":"a"}}`, `{"lastTimestamp":`+ts+`}`)
	}
	for _, sel := range []string{`{"matchLabels":{"app":"a","é":"ü"}}`, `{"matchLabels":{}}`, `{"matchLabels":null}`, `{}`, `{"MatchLabels":{"a":"b"}}`, `{"matchLabels":{"a":1}}`,
		`{"matchLabels":{"a":"b"},"matchExpressions":[{"key":"k","operator":"In","values":["v"]}]}`, `{"matchLabels":{"a":"\ud800"}}`} {
		out = append(out, `{"spec":{"selector":`+sel+`}}`)
	}
	return append(out, `{"metadata":{"creationTimestamp":"2026-12-01T12:00:00Z","ownerReferences":[{"name":"o"}],"generation":"x"}}`)
}

func FuzzDecode(f *testing.F) {
	f.Add(deployment)
	for _, s := range directCases {
		f.Add(s)
	}
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
			// Never a panic, and what decoding by reflection at every value gives.
			err := Decode(m, out)
			fresh := func() any { return reflect.New(reflect.TypeOf(out).Elem()).Interface() }
			want := fresh()
			wantErr := decodeByReflection(m, want)
			if !sameDecodeError(m, err, wantErr, fresh) || err == nil && !reflect.DeepEqual(out, want) {
				t.Fatalf("Decode gives %v, %+v; by reflection %v, %+v", err, out, wantErr, want)
			}
			checkDecodeToValidate(t, m, out, err, fresh())
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

// checkDecodeToValidate holds DecodeToValidate(m) to Decode's answer, decoded and err:
// refused alike, or the same object but for the FieldsV1 of its own managedFields entries,
// which it leaves nil.
func checkDecodeToValidate(t *testing.T, m map[string]any, decoded any, err error, out any) {
	t.Helper()
	vErr := DecodeToValidate(m, out)
	if (vErr == nil) != (err == nil) {
		t.Fatalf("DecodeToValidate gives %v; Decode %v", vErr, err)
	}
	if err != nil {
		return
	}
	if own, ok := out.(interface{ GetObjectMeta() metav1.Object }); ok {
		for _, e := range own.GetObjectMeta().GetManagedFields() {
			if e.FieldsV1 != nil {
				t.Fatalf("DecodeToValidate made the fields of %+v", e)
			}
		}
		for i := range decoded.(interface{ GetObjectMeta() metav1.Object }).GetObjectMeta().GetManagedFields() {
			decoded.(interface{ GetObjectMeta() metav1.Object }).GetObjectMeta().GetManagedFields()[i].FieldsV1 = nil
		}
	}
	if !reflect.DeepEqual(out, decoded) {
		t.Fatalf("DecodeToValidate gives %+v; Decode %+v", out, decoded)
	}
}

// DecodeToValidate leaves out the fields of the object's own managedFields entries, as a
// tree or as text, and keeps everything else, a pod template's managedFields included; a
// fieldsV1 Decode refuses (a number encoding/json cannot write) it refuses too.
func TestDecodeToValidate(t *testing.T) {
	const entries = `[{"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","time":"2026-12-01T12:00:00Z",
	  "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]`
	src := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","managedFields":` + entries + `},
	  "spec":{"template":{"metadata":{"labels":{"app":"web"},"managedFields":` + entries + `}}}}`
	tree := decodeJSON(t, src)
	text := decodeJSON(t, src)
	own := text["metadata"].(map[string]any)["managedFields"].([]any)[0].(map[string]any)
	own["fieldsV1"] = json.RawMessage(`{"f:spec":{"f:replicas":{}}}`)
	for name, obj := range map[string]map[string]any{"tree": tree, "text": text} {
		var d, v apps.Deployment
		if err := Decode(obj, &d); err != nil {
			t.Fatal(err)
		}
		checkDecodeToValidate(t, obj, &d, nil, &v)
		if got := v.Spec.Template.ManagedFields; len(got) != 1 || got[0].FieldsV1 == nil || got[0].FieldsV1.GetRawString() != `{"f:spec":{"f:replicas":{}}}` {
			t.Errorf("%s: the template's managedFields decode as %+v", name, got)
		}
		if len(v.ManagedFields) != 1 || v.ManagedFields[0].Manager != "kubectl" || v.ManagedFields[0].Operation != "Apply" || v.ManagedFields[0].FieldsType != "FieldsV1" {
			t.Errorf("%s: the object's managedFields decode as %+v", name, v.ManagedFields)
		}
	}
	for _, bad := range []any{math.NaN(), map[string]any{"f:a": math.Inf(1)}, []any{json.RawMessage(`{`)}, map[string]any{"f:a": make(chan int)}} {
		obj := decodeJSON(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","managedFields":[{"manager":"m","operation":"Apply"}]}}`)
		obj["metadata"].(map[string]any)["managedFields"].([]any)[0].(map[string]any)["fieldsV1"] = bad
		var cm, vcm core.ConfigMap
		err, vErr := Decode(obj, &cm), DecodeToValidate(obj, &vcm)
		if err == nil || vErr == nil || err.Error() != vErr.Error() {
			t.Errorf("fieldsV1 %v: Decode gives %v, DecodeToValidate %v; want the same error", bad, err, vErr)
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

// kindsForTest are the group/version/kind of every kind with an internal type, read from
// the generated switch of New.
func kindsForTest(t testing.TB) [][3]string {
	t.Helper()
	src, err := os.ReadFile("zz_generated.kinds.go")
	if err != nil {
		t.Fatal(err)
	}
	var kinds [][3]string
	for _, m := range regexp.MustCompile(`case "([^"/]*)/([^"/]*)/([^"/]*)":`).FindAllStringSubmatch(string(src), -1) {
		kinds = append(kinds, [3]string{m[1], m[2], m[3]})
	}
	if len(kinds) < 50 {
		t.Fatalf("read %d kinds from zz_generated.kinds.go", len(kinds))
	}
	return kinds
}

// sameDecoding decodes obj into a new object of every kind both ways, the reflective
// decoder being the reference, and reports the first difference in results or errors.
func sameDecoding(t *testing.T, kinds [][3]string, name string, obj map[string]any) {
	t.Helper()
	for _, k := range kinds {
		got, want := New(k[0], k[1], k[2]), New(k[0], k[1], k[2])
		err, wantErr := Decode(obj, got), decodeByReflection(obj, want)
		if !sameDecodeError(obj, err, wantErr, func() any { return New(k[0], k[1], k[2]) }) || err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s as %v: Decode gives %v, %+v; by reflection %v, %+v", name, k, err, got, wantErr, want)
		}
	}
}

// Decode's plans change nothing: every object of the recorded cases and of the
// examples, decoded as every kind (mostly as the wrong one: errors at all depths), gives
// what decoding by reflection at every value gives.
func TestDecodeMatchesReflection(t *testing.T) {
	kinds := kindsForTest(t)
	sameDecoding(t, kinds, "deployment", decodeJSON(t, deployment))
	// Values decoded without their JSON text (direct) and the edges where they are not.
	for i, s := range directCases {
		sameDecoding(t, kinds, fmt.Sprintf("directCases[%d]", i), decodeJSON(t, s))
		sameDecoding(t, kinds, fmt.Sprintf("directCases[%d] with int64 and float64", i), engineNumbers(decodeJSON(t, s)).(map[string]any))
	}
	// Invalid UTF-8, which no JSON decoding makes but a tree built otherwise may hold.
	for _, bad := range []any{"\xff", map[string]any{"a": "\xff"}, map[string]any{"\xff": "a"}} {
		sameDecoding(t, kinds, fmt.Sprintf("time %q", bad), map[string]any{"metadata": map[string]any{"creationTimestamp": bad}})
		sameDecoding(t, kinds, fmt.Sprintf("selector %q", bad), map[string]any{"spec": map[string]any{"selector": map[string]any{"matchLabels": bad}}})
		sameDecoding(t, kinds, fmt.Sprintf("int-or-string %q", bad), map[string]any{"spec": map[string]any{"strategy": map[string]any{"rollingUpdate": map[string]any{"maxSurge": bad}}}})
	}
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	more, _ := filepath.Glob("../../testdata/examples/*/*.json")
	files = append(files, more...)
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		if d.Decode(&obj) != nil {
			continue
		}
		objs := []map[string]any{obj}
		if items, ok := obj["items"].([]any); ok {
			for _, it := range items {
				if m, ok := it.(map[string]any); ok {
					objs = append(objs, m)
				}
			}
		}
		for _, o := range objs {
			sameDecoding(t, kinds, f, o)
			sameDecoding(t, kinds, f+" with int64 and float64", engineNumbers(o).(map[string]any))
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d objects compared", n)
	}
	t.Logf("%d objects compared as %d kinds", n, len(kinds))
}

// sameDecodeError reports whether err is an error decoding by reflection gives. Of a map
// with several bad values, the one reported depends on Go's random map order (both ways):
// when the first two errors differ, the reflective decoder's possible errors are gathered
// from many more tries.
func sameDecodeError(obj map[string]any, err, want error, fresh func() any) bool {
	if fmt.Sprint(err) == fmt.Sprint(want) {
		return true
	}
	if err == nil || want == nil {
		return false
	}
	for range 500 {
		if e := decodeByReflection(obj, fresh()); e != nil && e.Error() == err.Error() {
			return true
		}
	}
	return false
}

// engineNumbers is v with its json.Numbers as the engine's trees hold numbers: int64 when
// integers, float64 otherwise.
func engineNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = engineNumbers(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = engineNumbers(x)
		}
		return out
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

// A map whose members fail to decode is answered with the first of them in key order, every
// time: Go ranges over maps in random order.
func TestDecodeMapErrorsInKeyOrder(t *testing.T) {
	obj := decodeJSON(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},
		"data":{"d":"!!!!","b":"****","c":"eA==","a":"eA=="},"type":"Opaque"}`)
	var first string
	for i := 0; i < 50; i++ {
		var s core.Secret
		err := Decode(obj, &s)
		if err == nil {
			t.Fatal("bad base64 decoded")
		}
		if i == 0 {
			first = err.Error()
			if !strings.Contains(first, ".data.b") {
				t.Fatalf("error %q: want the member b, the first bad one in key order", first)
			}
		} else if err.Error() != first {
			t.Fatalf("the same object answered %q, then %q", first, err.Error())
		}
	}
}

// An object with few of its struct's fields is decoded member by member; with several in
// error the one reported is still the first declared (a PodSpec declares containers before
// hostname and restartPolicy), and the object decoded after it is as decoding in
// declaration order leaves it.
func TestDecodeFewMembersErrorsInDeclarationOrder(t *testing.T) {
	obj := decodeJSON(t, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
		"spec":{"restartPolicy":1,"hostname":2,"containers":3,"nodeName":"n"}}`)
	for i := 0; i < 50; i++ {
		var p core.Pod
		err := Decode(obj, &p)
		if err == nil || !strings.HasPrefix(err.Error(), ".spec.containers: ") {
			t.Fatalf("error %v: want the containers', the first declared in error", err)
		}
	}
	good := decodeJSON(t, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
		"spec":{"restartPolicy":"Always","hostname":"h","containers":[{"name":"c","image":"i"}],"nodeName":"n"}}`)
	var got, want core.Pod
	if err := Decode(good, &got); err != nil {
		t.Fatal(err)
	}
	if err := decodeByReflection(good, &want); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %+v; by reflection %+v, %v", got, want, err)
	}
}
