package oracle

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

var cmGVK = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
var deployGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

func newServer() *Server {
	tc := BuiltinConverter()
	return NewServer(&Kind{GVK: cmGVK, Converter: tc},
		&Kind{GVK: deployGVK, Converter: tc, Reset: StatusReset(smdpath.MakePathOrDie("spec"), smdpath.MakePathOrDie("metadata", "labels"))})
}

func cm(data map[string]any) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "c", "namespace": "default"}, "data": data}
}

func entries(t *testing.T, obj map[string]any) []string {
	t.Helper()
	es, err := ManagedFields(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		ts := ""
		if e.Time != nil {
			ts = e.Time.UTC().Format(time.RFC3339)
		}
		out = append(out, e.Manager+"/"+string(e.Operation)+"@"+ts)
	}
	return out
}

// The server stamps the request's logical time, not the wall clock, and keeps it when a
// write changes nothing.
func TestLogicalTime(t *testing.T) {
	s := newServer()
	t0 := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	r, err := s.Apply(Request{GVK: cmGVK, Object: cm(map[string]any{"a": "1"}), Manager: "m", Now: t0})
	if err != nil || r.Error != nil {
		t.Fatal(err, r.Error)
	}
	if got := entries(t, r.Object); len(got) != 1 || got[0] != "m/Apply@2021-03-04T05:06:07Z" {
		t.Fatalf("entries after create: %v", got)
	}
	live := r.Object
	r, err = s.Apply(Request{GVK: cmGVK, Live: live, Object: cm(map[string]any{"a": "1"}), Manager: "m", Now: t0.Add(time.Hour)})
	if err != nil || r.Error != nil {
		t.Fatal(err, r.Error)
	}
	if got := entries(t, r.Object); got[0] != "m/Apply@2021-03-04T05:06:07Z" {
		t.Fatalf("a no-op apply re-stamped: %v", got)
	}
	r, err = s.Apply(Request{GVK: cmGVK, Live: live, Object: cm(map[string]any{"a": "2"}), Manager: "m", Now: t0.Add(time.Hour)})
	if err != nil || r.Error != nil {
		t.Fatal(err, r.Error)
	}
	if got := entries(t, r.Object); got[0] != "m/Apply@2021-03-04T06:06:07Z" {
		t.Fatalf("a changing apply kept the old time: %v", got)
	}
}

func TestConflict(t *testing.T) {
	s := newServer()
	now := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	r, _ := s.Apply(Request{GVK: cmGVK, Object: cm(map[string]any{"a": "1"}), Manager: "one", Now: now})
	r, err := s.Apply(Request{GVK: cmGVK, Live: r.Object, Object: cm(map[string]any{"a": "2"}), Manager: "two", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error == nil || r.Error.Code != 409 || r.Error.Message != `Apply failed with 1 conflict: conflict with "one": .data.a` {
		t.Fatalf("want the 409, got %+v", r.Error)
	}
	if len(r.Error.Causes) != 1 || r.Error.Causes[0].Field != ".data.a" || r.Error.Causes[0].Reason != "FieldManagerConflict" {
		t.Fatalf("causes: %+v", r.Error.Causes)
	}
}

// Through /status, a Deployment's spec is neither owned nor conflicted on.
func TestStatusResetFields(t *testing.T) {
	s := newServer()
	now := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	obj := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "d", "namespace": "default", "uid": "u"},
		"spec":     map[string]any{"replicas": int64(1)}, "status": map[string]any{"replicas": int64(2)}}
	r, err := s.Update(Request{GVK: deployGVK, Subresource: "status", Live: obj, Object: obj, Manager: "ctrl", Now: now})
	if err != nil || r.Error != nil {
		t.Fatal(err, r.Error)
	}
	// The live object is untracked (it has a uid and no entries): it stays untracked.
	if got := entries(t, r.Object); len(got) != 0 {
		t.Fatalf("untracked object got entries: %v", got)
	}
	r, err = s.Apply(Request{GVK: deployGVK, Subresource: "status", Live: obj, Object: obj, Manager: "ctrl", Now: now})
	if err != nil || r.Error != nil {
		t.Fatal(err, r.Error)
	}
	es, _ := ManagedFields(r.Object)
	for _, e := range es {
		if e.Manager == "ctrl" && strings.Contains(e.FieldsV1.GetRawString(), "f:spec") {
			t.Fatalf("the status applier owns spec: %s", e.FieldsV1.GetRawString())
		}
	}
}
