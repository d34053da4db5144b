package merge_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// A PUT whose managedFields have data after a key: structured-merge-diff v6.4 (1.37) refuses
// the entries and keeps the live ones, v6.3 (1.34-1.36) read past it and took them. The
// engine predicts 1.37's reading and says, for older minors, that it is not predicted.
func TestTrailingDataInSuppliedEntriesPerMinor(t *testing.T) {
	live := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "c", "namespace": "ns", "uid": "u1", "resourceVersion": "7", "creationTimestamp": "2026-01-01T00:00:00Z",
			"managedFields": []any{map[string]any{"manager": "old", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z",
				"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{"f:a": map[string]any{}}}}}},
		"data": map[string]any{"a": "1"}}
	body := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "c", "namespace": "ns", "resourceVersion": "7",
			"managedFields": []any{map[string]any{"manager": "mine", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z",
				"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{`k:{"name":"a"}junk`: map[string]any{}}}}}},
		"data": map[string]any{"a": "2"}}
	for minor, warned := range map[int]bool{36: true, 37: false} {
		e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Minor(minor)}))
		res, err := e.Update(merge.Request{Live: live, Object: body, Manager: "editor", Now: time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range res.Warnings {
			if strings.Contains(w, "reads past it and takes them, which is not predicted") {
				got = true
			}
		}
		if got != warned {
			t.Errorf("1.%d: warned %v, want %v (warnings %q)", minor, got, warned, res.Warnings)
		}
	}
}

// A kind the server does not serve is refused in the words of the minor predicted: with
// --kube-version 1.34, a FlowSchema at flowcontrol.apiserver.k8s.io/v1beta3 is "not served
// by kube-apiserver 1.34.4", not by the newest release (rules.md version.not-served).
func TestNotServedNamesTheMinorPredicted(t *testing.T) {
	fs := map[string]any{"apiVersion": "flowcontrol.apiserver.k8s.io/v1beta3", "kind": "FlowSchema",
		"metadata": map[string]any{"name": "f"}, "spec": map[string]any{"priorityLevelConfiguration": map[string]any{"name": "global-default"}}}
	for _, m := range kube.Minors() {
		e := merge.New(schema.MustNewRegistry(m), kubeapiserver.MustNew(kubeapiserver.Config{Minor: m}))
		res, err := e.Apply(merge.Request{Object: fs, Manager: "m", Now: time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		want := "kube-apiserver " + m.Release() + " does not serve FlowSchema flowcontrol.apiserver.k8s.io/v1beta3; it serves it at flowcontrol.apiserver.k8s.io/v1"
		if res.Action != merge.ActionRejected || len(res.Warnings) == 0 || res.Warnings[0] != want {
			t.Errorf("%s: %s, warnings %q; want %q", m, res.Action, res.Warnings, want)
		}
	}
}

// keysCRD has a list-map keyed by port (no default) and protocol.
const keysCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
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
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [protocol]
                  properties:
                    port: {type: integer}
                    protocol: {type: string}
`

// An item of a list-map that omits one key field without a default: structured-merge-diff
// v4 (1.33) refuses it, v6 (1.34 on) types it by the keys it has (rules.md
// request.schema-mismatch); an update that cannot be tracked is written with its
// managedFields cleared up to 1.36, the live ones kept from 1.37 (rules.md
// supplied.errors-keep-entries). Found by the differential harness at 1.33 against
// 1.33.13's field manager.
func TestOmittedKeyFieldPerMinor(t *testing.T) {
	now := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	obj := func() map[string]any {
		return map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g", "namespace": "ns"},
			"spec": map[string]any{"ports": []any{map[string]any{"protocol": "TCP"}}}}
	}
	live := map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget",
		"metadata": map[string]any{"name": "g", "namespace": "ns", "uid": "u1", "resourceVersion": "7", "creationTimestamp": "2026-01-01T00:00:00Z",
			"managedFields": []any{map[string]any{"manager": "old", "operation": "Update", "apiVersion": "example.com/v1", "time": "2026-01-01T00:00:00Z",
				"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{}}}}},
		"spec": map[string]any{}}
	for _, m := range []kube.Minor{33, 37} {
		reg := schema.MustNewRegistry(m)
		if err := reg.AddCRD("gadgets.yaml", []byte(keysCRD)); err != nil {
			t.Fatal(err)
		}
		e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: m}))
		res, err := e.Apply(merge.Request{Object: obj(), Manager: "m", Now: now})
		if err != nil {
			t.Fatal(err)
		}
		refused := res.Rejection != nil && strings.Contains(res.Rejection.Message, `.spec.ports: element 0: associative list with keys has an element that omits key field "port" (and doesn't have default value)`)
		if refused != (m == 33) {
			t.Errorf("%s apply: refused %v (%+v)", m, refused, res.Rejection)
		}
		body := obj()
		body["metadata"].(map[string]any)["resourceVersion"] = "7"
		res, err = e.Update(merge.Request{Live: live, Object: body, Manager: "editor", Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rejection != nil {
			t.Fatalf("%s update refused: %+v", m, res.Rejection)
		}
		md, _ := res.Object["metadata"].(map[string]any)
		_, tracked := md["managedFields"]
		if tracked != (m != 33) {
			t.Errorf("%s update: managedFields %v, want them only from 1.34", m, md["managedFields"])
		}
	}
}

// TestOmittedKeyFieldAfterInvalidItem: structured-merge-diff v4 (1.33) types a list-map's
// items in order and stops at the first that omits a key field, so the errors of the items
// before it are reported with it and those after it are not; v6 (1.34 on) reports every
// item's. A live object its CRD's schema no longer fits, applied over (found by the
// differential harness at 1.33 against 1.33.13's field manager, seed 3600749: the engine
// reported the key error alone). The lines are compared as a set: the prediction lists
// them sorted (internalError), the server in its walk's order.
func TestOmittedKeyFieldAfterInvalidItem(t *testing.T) {
	now := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	live := map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget",
		"metadata": map[string]any{"name": "g", "namespace": "ns", "uid": "u1", "resourceVersion": "7", "creationTimestamp": "2026-01-01T00:00:00Z"},
		"spec": map[string]any{"ports": []any{
			map[string]any{"port": "http", "protocol": "TCP"},
			map[string]any{"protocol": "UDP"},
			map[string]any{"port": "dns", "protocol": "SCTP"},
		}}}
	const (
		before = `.spec.ports[port="http",protocol="TCP"].port: expected numeric (int or float), got string`
		key    = `.spec.ports: element 1: associative list with keys has an element that omits key field "port" (and doesn't have default value)`
		after  = `.spec.ports[port="dns",protocol="SCTP"].port: expected numeric (int or float), got string`
	)
	for _, c := range []struct {
		minor kube.Minor
		want  []string
	}{
		{33, []string{before, key}},
		{37, []string{before, after}},
	} {
		reg := schema.MustNewRegistry(c.minor)
		if err := reg.AddCRD("gadgets.yaml", []byte(keysCRD)); err != nil {
			t.Fatal(err)
		}
		e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: c.minor}))
		obj := map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g", "namespace": "ns"}}
		res, err := e.Apply(merge.Request{Live: live, Object: obj, Manager: "kubectl", Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rejection == nil {
			t.Fatalf("%s: not refused", c.minor)
		}
		_, list, ok := strings.Cut(res.Rejection.Message, "errors:\n")
		if !ok {
			t.Fatalf("%s: refused with %q, not a list of errors", c.minor, res.Rejection.Message)
		}
		var got []string
		for _, l := range strings.Split(list, "\n") {
			got = append(got, strings.TrimPrefix(l, "  "))
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(c.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: refused with errors\n%s\nwant\n%s", c.minor, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
