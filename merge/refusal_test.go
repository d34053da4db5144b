package merge_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestRefusedVersionsAnswerOneWay: a custom resource whose live entries were recorded at
// two versions its CRD does not list. The server's updater converts the live object to
// each entry's version in Go's map order and fails at the first refusal, so it answers
// either refusal; the prediction answers one, the same every time, with the shortcuts and
// without (rules.md version.conversion; FuzzEngine found the two paths disagreeing). An
// update is made all the same, its refusal a warning.
func TestRefusedVersionsAnswerOneWay(t *testing.T) {
	reg := backupRegistry(t)
	engines := withAndWithoutShortcuts(reg)
	var live, object map[string]any
	if err := json.Unmarshal([]byte(`{"apiVersion":"ops.example.com/v1","kind":"Backup","metadata":{"name":"nightly","namespace":"ns","resourceVersion":"10","uid":"00000000-0000-0000-0000-000000000001",
		"managedFields":[
		{"manager":"kubectl","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:schedule":{}}}},
		{"manager":"a","operation":"Apply","apiVersion":"apps/v1beta2","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:retentionDays":{}}}},
		{"manager":"b","operation":"Update","apiVersion":"batch/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:parallelism":{}}}}]},
		"spec":{"schedule":"0 3 * * *","retentionDays":7,"parallelism":2}}`), &live); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"apiVersion":"ops.example.com/v1","kind":"Backup","metadata":{"name":"nightly","namespace":"ns"},"spec":{"schedule":"0 4 * * *","retentionDays":7,"parallelism":2}}`), &object); err != nil {
		t.Fatal(err)
	}
	refusals := map[string]bool{
		"request to convert CR to an invalid group/version: /v1":          true,
		"request to convert CR to an invalid group/version: apps/v1beta2": true,
		"request to convert CR to an invalid group/version: batch/v1":     true,
	}
	for _, write := range []string{"apply", "update"} {
		answers := map[string]int{}
		for name, e := range engines {
			for range 30 {
				req := merge.Request{Live: merge.FuzzCopy(live), Object: merge.FuzzCopy(object), Manager: "ci", Force: true,
					Endpoint: merge.Endpoint{GVK: schema.GVK{Group: "ops.example.com", Version: "v1", Kind: "Backup"}, Namespace: "ns", Name: "nightly"}}
				res, err := written(e, write, req)
				if err != nil {
					t.Fatalf("%s (%s): %v", write, name, err)
				}
				// An apply is refused; an update is made and keeps the live entries, with the
				// refusal in its warning (rules.md supplied.errors-keep-entries).
				answer, refused := "", false
				if res.Rejection != nil {
					answer = res.Rejection.Message
					refused = refusals[answer]
				} else if len(res.Warnings) == 1 {
					answer = res.Warnings[0]
					for r := range refusals {
						refused = refused || strings.Contains(answer, ": "+r+"): ")
					}
				}
				if !refused || (write == "apply") != (res.Rejection != nil) {
					b, _ := json.Marshal(res)
					t.Fatalf("%s (%s): answered %s, not the refusal of a version", write, name, b)
				}
				answers[answer]++
			}
		}
		if len(answers) != 1 {
			t.Errorf("%s: the same request answered several ways: %v", write, answers)
		}
	}
}

// TestFailedConversionsWarnOneWay: the warnings of the conversions the updater made before
// it failed are those of the order it ranged over the entries in; the prediction gives
// those of the stable order (rules.md version.conversion). A Widget converted by a webhook
// (by structure, with a warning) whose entries are at v2, converted, and at v9, refused:
// the manager at v9 sorts first, so the conversion to v2 is never made and nothing warns of it.
func TestFailedConversionsWarnOneWay(t *testing.T) {
	reg := merge.WidgetRegistry(t, true)
	engines := withAndWithoutShortcuts(reg)
	live := `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  namespace: shop
  uid: 00000000-0000-0000-0000-000000000001
  resourceVersion: "10"
  managedFields:
  - {manager: a, operation: Update, apiVersion: example.com/v9, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:size": {}}}}
  - {manager: b, operation: Update, apiVersion: example.com/v2, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:size": {}}}}
spec: {size: 3}
`
	cfg := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: shop}\nspec: {size: 4}"
	const refusal = "request to convert CR to an invalid group/version: example.com/v9"
	for _, write := range []string{"apply", "update"} {
		answers := map[string]int{}
		for name, e := range engines {
			for range 40 {
				req := merge.Request{Live: merge.ObjFromYAML(t, live), Object: merge.ObjFromYAML(t, cfg), Manager: "ci", Force: true, Now: merge.VersionsNow}
				res, err := written(e, write, req)
				if err != nil {
					t.Fatalf("%s (%s): %v", write, name, err)
				}
				b, _ := json.Marshal(res)
				if !strings.Contains(string(b), refusal) || strings.Contains(string(b), "webhook") {
					t.Fatalf("%s (%s): answered %s, not the refusal of v9 alone", write, name, b)
				}
				answers[string(b)]++
			}
		}
		if len(answers) != 1 {
			t.Errorf("%s: the same request answered several ways: %v", write, answers)
		}
	}
}

// TestPruneChainWarnsOneWay: an apply whose prune converts the merged object through the
// versions of the managers' entries in the order of a Go map; a Widget converted by a
// webhook warns of each conversion, naming the version it converted from, which is the
// one met before. The prediction's warnings are those of the versions in sorted order
// (rules.md version.conversion), the same every time, with the shortcuts and without.
func TestPruneChainWarnsOneWay(t *testing.T) {
	reg := merge.WidgetRegistry(t, true)
	engines := withAndWithoutShortcuts(reg)
	live := `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  namespace: shop
  uid: 00000000-0000-0000-0000-000000000001
  resourceVersion: "10"
  managedFields:
  - {manager: team, operation: Apply, apiVersion: example.com/v1, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:size": {}}}}
  - {manager: a, operation: Update, apiVersion: example.com/v2, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:size": {}}}}
  - {manager: b, operation: Update, apiVersion: example.com/v1beta1, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:size": {}}}}
spec: {size: 3}
`
	cfg := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: shop}\nspec: {size: 4}"
	// Each conversion: the version of the entries compared, the version converted from.
	want := [][2]string{{"v1", "v2"}, {"v1beta1", "v1"}, {"v2", "v1"}, {"v2", "v1beta1"}}
	for name, e := range engines {
		for range 40 {
			res, err := e.Apply(merge.Request{Live: merge.ObjFromYAML(t, live), Object: merge.ObjFromYAML(t, cfg), Manager: "team", Force: true, Now: merge.VersionsNow})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var got [][2]string
			for _, w := range res.Warnings {
				var at, from string
				if _, err := fmt.Sscanf(w, "managedFields entries recorded at example.com/%s were compared after converting the object from example.com/%s by structure:", &at, &from); err != nil {
					t.Fatalf("%s: warning %q", name, w)
				}
				got = append(got, [2]string{at, from})
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: warnings of the conversions %v, want %v", name, got, want)
			}
		}
	}
}

// TestMalformedEntryVersion: an entry whose apiVersion has two slashes names no
// group/version; the server's converter says so, an error that fails the field manager's
// step, before it looks for a type (rules.md version.malformed). kube-apiserver 1.37.2, a
// PUT of a ConfigMap whose body adds an entry at v1/x/y: the object is written and the
// stored entries are kept, the server logging "failed to update ManagedFields
// (default/cm1; /v1, Kind=ConfigMap): unexpected GroupVersion string: v1/x/y". An apply
// over such an entry is refused with that error.
func TestMalformedEntryVersion(t *testing.T) {
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithCompactManagedFields())
	live := `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm1
  namespace: default
  uid: 00000000-0000-0000-0000-000000000001
  resourceVersion: "10"
  managedFields:
  - {manager: kubectl-create, operation: Update, apiVersion: v1, time: "2026-12-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:data": {".": {}, "f:a": {}}}}
data: {a: "1"}
`
	put := merge.ObjFromYAML(t, live)
	put["data"] = map[string]any{"a": "2", "b": "3"}
	merge.MetadataOf(put)["managedFields"] = append(merge.MetadataOf(put)["managedFields"].([]any),
		map[string]any{"manager": "odd", "operation": "Update", "apiVersion": "v1/x/y", "time": "2026-12-01T00:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{"f:b": map[string]any{}}}})
	res, err := e.Update(merge.Request{Live: merge.ObjFromYAML(t, live), Object: put, Manager: "kubectl-replace", Now: merge.VersionsNow})
	if err != nil {
		t.Fatal(err)
	}
	mf, _ := json.Marshal(res.ManagedFields)
	if res.Rejection != nil || len(res.ManagedFields) != 1 || res.ManagedFields[0].Manager != "kubectl-create" ||
		!strings.Contains(strings.Join(res.Warnings, "\n"), "unexpected GroupVersion string: v1/x/y") {
		t.Errorf("update: rejection %v, entries %s, warnings %q", res.Rejection, mf, res.Warnings)
	}

	withEntry := merge.ObjFromYAML(t, live)
	merge.MetadataOf(withEntry)["managedFields"] = append(merge.MetadataOf(withEntry)["managedFields"].([]any),
		map[string]any{"manager": "odd", "operation": "Update", "apiVersion": "v1/x/y", "time": "2026-12-01T00:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{"f:a": map[string]any{}}}})
	cfg := merge.ObjFromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1, namespace: default}\ndata: {a: \"4\"}")
	res, err = e.Apply(merge.Request{Live: withEntry, Object: cfg, Manager: "ci", Now: merge.VersionsNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rejection == nil || res.Rejection.Code != 500 || res.Rejection.Message != "unexpected GroupVersion string: v1/x/y" {
		t.Errorf("apply: %+v", res.Rejection)
	}
}

// withAndWithoutShortcuts are two engines over reg at the default minor, one with the
// shortcuts the CLI uses and one without: a request must be answered the same by both.
func withAndWithoutShortcuts(reg *schema.Registry) map[string]*merge.Engine {
	return map[string]*merge.Engine{
		"default":      merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithCompactManagedFields()),
		"no shortcuts": merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithoutShortcuts()),
	}
}

// written is e's answer to req as an apply or, for any other write, an update.
func written(e *merge.Engine, write string, req merge.Request) (*merge.Result, error) {
	if write == "apply" {
		return e.Apply(req)
	}
	return e.Update(req)
}
