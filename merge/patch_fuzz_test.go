package merge

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// FuzzPatch: any patch of any type is answered — a result or a refusal, never a panic nor
// an error of the engine — the same way twice, without changing the live object given.
func FuzzPatch(f *testing.F) {
	for _, s := range []struct {
		typ  string
		body string
	}{
		{"merge", `{"spec":{"replicas":3}}`},
		{"merge", `{"metadata":{"labels":null}}`},
		{"strategic", `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","$patch":"delete"}]}}}}`},
		{"strategic", `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`},
		{"strategic", `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"nginx"}]}}}}`},
		{"json", `[{"op":"replace","path":"/spec/replicas","value":4}]`},
		{"json", `[{"op":"move","from":"/metadata/labels","path":"/spec/x"}]`},
		{"json", `[{"op":"test","path":"/kind","value":"Deployment"},{"op":"remove","path":"/spec/selector"}]`},
		{"merge", `[1,2]`},
		{"strategic", `{"metadata":{"managedFields":[{}]}}`},
	} {
		f.Add(s.typ, s.body)
	}
	e := verbsEngine()
	live := func() map[string]any {
		var obj map[string]any
		res, err := e.Apply(Request{Object: objFromYAML(f, verbsDeployment), Manager: "deployer", Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil || res.Rejection != nil {
			f.Fatalf("apply: %v %v", err, res.Rejection)
		}
		b, _ := json.Marshal(res.Object)
		_ = json.Unmarshal(b, &obj)
		obj["metadata"].(map[string]any)["uid"] = "u-1"
		return obj
	}()
	f.Fuzz(func(t *testing.T, typ, body string) {
		given, _ := json.Marshal(live)
		req := Request{Live: live, Manager: "fuzzer", Now: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), Patch: Patch{Type: PatchType(typ), Body: []byte(body)}}
		a, err1 := e.Patch(req)
		b, err2 := e.Patch(req)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s patch %q: %v %v", typ, body, err1, err2)
		}
		if a.Action != b.Action || !reflect.DeepEqual(a.Rejection, b.Rejection) || !reflect.DeepEqual(a.ManagedFields, b.ManagedFields) {
			t.Fatalf("%s patch %q answered twice differently", typ, body)
		}
		if after, _ := json.Marshal(live); string(after) != string(given) {
			t.Fatalf("%s patch %q changed the live object", typ, body)
		}
	})
}
