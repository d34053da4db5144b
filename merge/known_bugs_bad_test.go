package merge

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/schema"
)

// TestTypedErrorDeterministic: an apply body with two fields the schema does not declare,
// at two levels. structured-merge-diff's validation stops at the first undeclared field of
// a map, met in Go's random map order, so the 500 names ".bogus" or ".spec" from one run
// to the next (and, on a live object with one nested in the other, one or two fields).
// The API server shares the randomness, but a prediction must not change between runs.
// Found by FuzzEngine; fixed in package merge (parse validates maps in key order when it fails).
func TestTypedErrorDeterministic(t *testing.T) {
	e := New(schema.NewRegistry())
	seen := map[string]bool{}
	for i := 0; i < 200 && len(seen) < 2; i++ {
		res, err := e.Apply(Request{
			Object: map[string]interface{}{
				"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]interface{}{"name": "c", "namespace": "ns"},
				"spec":     map[string]interface{}{"x": "1"},
				"bogus":    "1",
			},
			Manager: "m",
			Now:     time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC),
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rejection != nil {
			seen[res.Rejection.Message] = true
		}
	}
	if len(seen) > 1 {
		var msgs []string
		for m := range seen {
			msgs = append(msgs, m)
		}
		sort.Strings(msgs)
		t.Errorf("the same request gets different answers:\n%q", msgs)
	}
}

// TestCreateWithMetadataNotAMap: an apply that creates an object of a kind without schema
// (the deduced type accepts anything) whose metadata is a string panics in
// KubernetesHooks.PrepareForCreate (server.go: metadataOf returns nil, and generation is
// assigned into it). Found by FuzzEngine; fixed in package merge (ensureMetadata). The CLI cannot reach it (it refuses a manifest whose
// metadata is not a map), the library can.
func TestCreateWithMetadataNotAMap(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("panic: %v", r)
		}
	}()
	e := New(schema.NewRegistry())
	_, err := e.Apply(Request{
		Object:   map[string]interface{}{"apiVersion": "example.com/v1", "kind": "Unknown", "metadata": "labels"},
		Endpoint: Endpoint{GVK: schema.GVK{Group: "example.com", Version: "v1", Kind: "Unknown"}, Namespace: "ns", Name: "u"},
		Manager:  "m",
		Now:      time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC),
	})
	t.Log(err)
}

// TestWarningOrderDeterministic: a live object with managedFields entries at two other
// versions (one not served, one served) gets one warning about each, in Go's random map
// order. Found by FuzzEngine; fixed in package merge (warnings are sorted).
func TestWarningOrderDeterministic(t *testing.T) {
	e := New(schema.NewRegistry())
	entry := func(manager, apiVersion string) map[string]interface{} {
		return map[string]interface{}{"manager": manager, "operation": "Update", "apiVersion": apiVersion, "fieldsType": "FieldsV1",
			"fieldsV1": map[string]interface{}{"f:metadata": map[string]interface{}{"f:labels": map[string]interface{}{"f:app": map[string]interface{}{}}}}}
	}
	obj := func() map[string]interface{} {
		return map[string]interface{}{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]interface{}{"name": "web", "namespace": "ns", "labels": map[string]interface{}{"app": "web"}}}
	}
	seen := map[string]bool{}
	for i := 0; i < 100 && len(seen) < 2; i++ {
		live := obj()
		live["metadata"].(map[string]interface{})["managedFields"] = []interface{}{entry("a", "v1"), entry("b", "apps/v1beta2")}
		res, err := e.Apply(Request{Live: live, Object: obj(), Manager: "m", Now: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		seen[fmt.Sprint(res.Warnings)] = true
	}
	if len(seen) > 1 {
		t.Errorf("the same request gets its warnings in different orders: %v", seen)
	}
}
