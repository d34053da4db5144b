package appliers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/conformance"
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestHelmAnswersWithoutWritesInServerKeyOrder: an object Helm sends nothing for — a
// client-side upgrade whose three-way patch is empty, a hook — is answered as the server
// holds it (rules.md encode.key-order), though the live object was read from kubectl's -o
// json, which prints a built-in kind's fieldsV1 in byte order. The live Service is recorded
// in conformance/testdata/fieldsorder: its ports 9, 80, 443 and 8125 must come out in the
// order of the server's GET (element order), not 443, 80, 8125, 9. (The third answer of that
// kind, a CRD of crds/ that a client-side install finds, goes through the same
// Sequence.AsStored; a CRD's lists are keyed by strings, whose byte and element orders agree,
// so no recorded view can tell them apart there.)
func TestHelmAnswersWithoutWritesInServerKeyOrder(t *testing.T) {
	views := filepath.Join("..", "conformance", "testdata", "fieldsorder", "views", "service-ports-element-order")
	raw, err := os.ReadFile(filepath.Join(views, "kubectl-get.json"))
	if err != nil {
		t.Fatal(err)
	}
	server, err := os.ReadFile(filepath.Join(views, "get.json"))
	if err != nil {
		t.Fatal(err)
	}
	// CompareFieldsV1Order reads the server's answer as a case's want.json.
	want := &conformance.Case{Dir: t.TempDir()}
	if err := os.WriteFile(filepath.Join(want.Dir, "want.json"), server, 0o644); err != nil {
		t.Fatal(err)
	}
	// The live Service as the command reads a dump: each fieldsV1 kept as its text, and the
	// release's label and annotations on it, as Helm put them.
	var text struct {
		Metadata struct {
			ManagedFields []struct{ FieldsV1 json.RawMessage }
		}
	}
	if err := json.Unmarshal(raw, &text); err != nil {
		t.Fatal(err)
	}
	liveOf := func() map[string]any {
		live := testkit.DecodeJSON(t, raw).(map[string]any)
		md := live["metadata"].(map[string]any)
		for i, e := range md["managedFields"].([]any) {
			e.(map[string]any)["fieldsV1"] = text.Metadata.ManagedFields[i].FieldsV1
		}
		md["labels"].(map[string]any)[appliers.HelmManagedByLabel] = appliers.HelmManagedByValue
		md["annotations"] = map[string]any{appliers.HelmReleaseNameAnnotation: "telemetry", appliers.HelmReleaseNSAnnotation: md["namespace"]}
		return live
	}
	// The chart renders what the Service holds, so Helm 3's three-way patch is empty.
	rendered := func() map[string]any {
		live := liveOf()
		md := live["metadata"].(map[string]any)
		spec := live["spec"].(map[string]any)
		return map[string]any{"apiVersion": "v1", "kind": "Service",
			"metadata": map[string]any{"name": md["name"], "namespace": md["namespace"], "labels": map[string]any{"team": "ops"}},
			"spec":     map[string]any{"ports": spec["ports"], "selector": spec["selector"]}}
	}
	hook := rendered()
	hook["metadata"].(map[string]any)["annotations"] = map[string]any{appliers.HelmHookAnnotation: "post-install"}

	reg := schema.MustNewRegistry(kube.Default())
	// As the command builds it: fieldsV1 held as text, which keeps an order.
	e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithCompactManagedFields())
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	lookup := func(string, string, string, string) map[string]any { return liveOf() }
	for _, c := range []struct {
		name   string
		target map[string]any
	}{
		{"client-side upgrade with an empty patch", rendered()},
		{"a hook", hook},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := appliers.HelmOptions{Command: appliers.HelmUpgrade, Release: "telemetry", Namespace: "service-ports-element-order",
				History: []appliers.HelmRevision{{Version: 1, Status: "deployed", Objects: []map[string]any{rendered()}}}}
			out, err := appliers.RunHelm(e, reg, opts, []appliers.HelmTarget{{Object: c.target}}, lookup, now)
			if err != nil {
				t.Fatal(err)
			}
			res, err := appliers.HelmApply{Outcome: out, Schemas: reg}.Apply(e, merge.Request{Object: c.target, Live: liveOf(), Manager: appliers.HelmManager, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != merge.ActionUnchanged || res.Object == nil {
				t.Fatalf("action %s, want unchanged with the live object (warnings %q)", res.Action, res.Warnings)
			}
			if problems := conformance.CompareFieldsV1Order(want, storedEntriesOf(t, res)); len(problems) > 0 {
				t.Errorf("%q", problems)
			}
		})
	}
}

// storedEntriesOf is res with ManagedFields read from its object's entries, the text each
// fieldsV1 holds there.
func storedEntriesOf(t *testing.T, res *merge.Result) *merge.Result {
	t.Helper()
	if len(res.ManagedFields) > 0 {
		return res
	}
	md, _ := res.Object["metadata"].(map[string]any)
	list, _ := md["managedFields"].([]any)
	entries, ok := fieldpath.EntriesFromUnstructured(list)
	if !ok || len(entries) == 0 {
		t.Fatalf("the answer's object has no managedFields entries: %v", md["managedFields"])
	}
	return &merge.Result{Action: res.Action, Object: res.Object, ManagedFields: entries}
}
