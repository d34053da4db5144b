package merge_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// The field manager's steps that range over Go maps besides the updater's conversions
// (stableupdater.go): each orders what it ranged over before the order shows, or the
// prediction does. Each test asks the same request many times, with the engine's shortcuts
// and without, and fails if the answers differ.

// oneAnswer makes the request of ask 30 times with each engine and returns its one answer
// as JSON, failing when there are several.
func oneAnswer(t *testing.T, ask func(e *merge.Engine) (*merge.Result, error)) *merge.Result {
	t.Helper()
	reg := schema.MustNewRegistry(kube.Default())
	engines := []*merge.Engine{
		merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithCompactManagedFields()),
		merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithoutShortcuts()),
	}
	answers := map[string]int{}
	var last *merge.Result
	for _, e := range engines {
		for range 30 {
			res, err := ask(e)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res)
			answers[string(b)]++
			last = res
		}
	}
	if len(answers) != 1 {
		t.Fatalf("the same request answered %d ways: %v", len(answers), answers)
	}
	return last
}

// configMapWith is a live ConfigMap with data keys k0…k<n-1>, each owned by manager m<i>
// with the entry entry(i) gives (its manager, operation, apiVersion, time).
func configMapWith(t *testing.T, n int, entry func(i int) string) map[string]any {
	var data, entries []string
	for i := range n {
		data = append(data, fmt.Sprintf("k%d: v", i))
		entries = append(entries, fmt.Sprintf(`  - {%s, fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:k%d": {}}}}`, entry(i), i))
	}
	return merge.ObjFromYAML(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  namespace: ns
  uid: 00000000-0000-0000-0000-000000000001
  resourceVersion: "10"
  managedFields:
`+strings.Join(entries, "\n")+`
data: {`+strings.Join(data, ", ")+`}
`)
}

// TestCappedEntriesOneWay: the field manager folds the oldest Update entries past ten into
// ancient-changes, collected from a Go map and sorted by time, then by identity (rules.md
// cap.update-entries). Eleven entries of one time and an update make twelve: the three
// whose identities sort first become one ancient-changes entry, every time.
func TestCappedEntriesOneWay(t *testing.T) {
	res := oneAnswer(t, func(e *merge.Engine) (*merge.Result, error) {
		live := configMapWith(t, 11, func(i int) string {
			return fmt.Sprintf(`manager: m%02d, operation: Update, apiVersion: v1, time: "2026-12-01T00:00:00Z"`, 10-i)
		})
		next := merge.FuzzCopy(live)
		next["data"].(map[string]any)["new"] = "v"
		return e.Update(merge.Request{Live: live, Object: next, Manager: "writer", Now: merge.VersionsNow})
	})
	var names []string
	for _, en := range res.ManagedFields {
		names = append(names, en.Manager)
	}
	if got, want := strings.Join(names, " "), "ancient-changes m03 m04 m05 m06 m07 m08 m09 m10 writer"; got != want {
		t.Errorf("entries %s, want %s", got, want)
	}
}

// TestConflictCausesOneWay: the updater collects the conflicts from a Go map of managers,
// so the server lists the causes of several managers in any order (rules.md
// conflict.cause-order); the prediction lists them by manager, every time.
func TestConflictCausesOneWay(t *testing.T) {
	res := oneAnswer(t, func(e *merge.Engine) (*merge.Result, error) {
		live := configMapWith(t, 4, func(i int) string {
			return fmt.Sprintf(`manager: m%d, operation: Apply, apiVersion: v1, time: "2026-12-01T00:00:00Z"`, 3-i)
		})
		cfg := merge.ObjFromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\ndata: {k0: x, k1: x, k2: x, k3: x}")
		return e.Apply(merge.Request{Live: live, Object: cfg, Manager: "ci", Now: merge.VersionsNow})
	})
	if res.Rejection == nil || res.Rejection.Details == nil {
		t.Fatalf("not refused with conflicts: %+v", res.Rejection)
	}
	var causes []string
	for _, c := range res.Rejection.Details.Causes {
		causes = append(causes, c.Message+" "+c.Field)
	}
	if got, want := strings.Join(causes, ", "), `conflict with "m0" .data.k3, conflict with "m1" .data.k2, conflict with "m2" .data.k1, conflict with "m3" .data.k0`; got != want {
		t.Errorf("causes %s, want %s", got, want)
	}
}

// TestEncodedEntriesOneWay: the field manager encodes the entries of a Go map and sorts
// them by operation, time, manager, apiVersion and subresource, which no two entries share
// all of (rules.md encode.order): entries of one time come out in one order.
func TestEncodedEntriesOneWay(t *testing.T) {
	res := oneAnswer(t, func(e *merge.Engine) (*merge.Result, error) {
		live := configMapWith(t, 6, func(i int) string {
			op, sub := []string{"Update", "Apply"}[i%2], []string{"", ", subresource: status"}[i/3]
			return fmt.Sprintf(`manager: m%d, operation: %s, apiVersion: v1, time: "2026-12-01T00:00:00Z"%s`, i%3, op, sub)
		})
		cfg := merge.ObjFromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns, labels: {a: b}}")
		return e.Apply(merge.Request{Live: live, Object: cfg, Manager: "ci", Now: merge.VersionsNow})
	})
	var got []string
	for _, en := range res.ManagedFields {
		got = append(got, fmt.Sprintf("%s/%s/%s", en.Operation, en.Manager, en.Subresource))
	}
	if want := "Apply/m0/status Apply/m1/ Apply/m2/status Apply/ci/ Update/m0/ Update/m1/status Update/m2/"; strings.Join(got, " ") != want {
		t.Errorf("entries %s, want %s", strings.Join(got, " "), want)
	}
}
