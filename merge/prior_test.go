package merge

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// TestSequencePriorAgrees replays every scenario as one sequence, each request's live
// object the previous answer's, on engines that take the previous answer's field sets and
// fieldsV1 (decodeLive, Result.knownText) — with compact managedFields and with trees —
// and on one that decodes and writes everything again (noShortcuts), at every minor (whose
// fieldsV1 texts differ from 1.38): the answers must be the same, and some entries must
// have been taken from the previous answer (the path is tested).
func TestSequencePriorAgrees(t *testing.T) {
	for _, minor := range kube.Minors() {
		t.Run(minor.String(), func(t *testing.T) { sequencePriorAgrees(t, minor) })
	}
}

func sequencePriorAgrees(t *testing.T, minor kube.Minor) {
	reg := schema.MustNewRegistry(kube.Default())
	model := func() *kubeapiserver.Model { return kubeapiserver.MustNew(kubeapiserver.Config{Minor: minor}) }
	full := New(reg, model())
	full.noShortcuts = true
	for _, fast := range []*Engine{New(reg, model()), New(reg, model(), WithCompactManagedFields())} {
		full.compactManagedFields = fast.compactManagedFields
		taken := 0
		for _, sc := range append(append([]scenario{}, scenarios...), edgeScenarios...) {
			var seqs [2]*Sequence
			var last [2]*Result
			var live map[string]any
			now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
			for i, o := range sc.ops {
				if o.sub != "" {
					break
				}
				now = now.Add(time.Minute)
				req := Request{Live: live, Object: objFromYAML(t, o.body), Manager: o.manager, Force: o.force, Now: now}
				if !o.apply && live != nil {
					md := metadataOf(req.Object)
					for _, k := range []string{"uid", "creationTimestamp", "resourceVersion"} {
						if v, ok := metadataOf(live)[k]; ok {
							md[k] = v
						}
					}
				}
				var res [2]*Result
				for j, e := range []*Engine{fast, full} {
					r := req
					r.Live = unstructured.DeepCopyObject(live)
					r.Object = unstructured.DeepCopyObject(req.Object)
					if seqs[j] == nil {
						s, refused, err := e.Begin(r, ClientRaw)
						if refused != nil || err != nil {
							break
						}
						seqs[j] = s
					}
					var err error
					switch {
					case o.apply:
						res[j], err = seqs[j].Apply(r)
					case live == nil:
						res[j], err = seqs[j].Create(r)
					default:
						res[j], err = seqs[j].Update(r)
					}
					if err != nil {
						res[j] = nil
					}
				}
				ja, _ := json.Marshal(res[0])
				jb, _ := json.Marshal(res[1])
				if string(ja) != string(jb) {
					t.Errorf("%s op %d (compact %v):\nfrom the previous answer %s\ndecoded again %s", sc.name, i, fast.compactManagedFields, ja, jb)
				}
				if res[0] == nil || res[0].Object == nil {
					continue
				}
				taken += sharedEntries(last[0], res[0])
				last = res
				live = res[0].Object
				if res[0].Action == ActionCreate {
					metadataOf(live)["uid"] = "00000000-0000-0000-0000-000000000001"
					metadataOf(live)["creationTimestamp"] = now.Format(time.RFC3339)
				}
			}
		}
		if taken == 0 {
			t.Errorf("compact %v: no request took an entry's fieldsV1 from the previous answer", fast.compactManagedFields)
		}
		t.Logf("compact %v: %d entries' fieldsV1 taken from the previous answer", fast.compactManagedFields, taken)
	}
}

// sharedEntries counts the entries of res whose fieldsV1 are the very bytes of an entry of
// prev.
func sharedEntries(prev, res *Result) int {
	if prev == nil {
		return 0
	}
	n := 0
	for _, e := range res.ManagedFields {
		for _, p := range prev.ManagedFields {
			if len(e.FieldsV1) > 0 && unsafe.SliceData(e.FieldsV1) == unsafe.SliceData(p.FieldsV1) {
				n++
			}
		}
	}
	return n
}

// decodeLive takes the previous answer's sets only for the very entries it decoded or
// encoded: entries whose fieldsV1 changed since (a client that edits managedFields) are
// decoded, and their sets are not the previous answer's.
func TestDecodeLiveMissesChangedEntries(t *testing.T) {
	engine := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), WithCompactManagedFields())
	live := objFromYAML(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  namespace: ns
  uid: u
  resourceVersion: "1"
  creationTimestamp: "2026-12-01T09:00:00Z"
  managedFields:
  - {manager: edit, operation: Update, apiVersion: v1, time: "2026-12-01T10:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:b": {}}}}
data: {a: "1", b: "2"}
`)
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	req := Request{Live: live, Object: objFromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\ndata: {a: \"3\"}\n"), Manager: "ci", Now: now}
	seq, refused, err := engine.Begin(req, ClientRaw)
	if refused != nil || err != nil {
		t.Fatal(refused, err)
	}
	first, err := seq.Apply(req)
	if err != nil || first.Rejection != nil || first.decodedOwn == nil {
		t.Fatalf("%v, %+v", err, first)
	}
	entries, _, err := fieldpath.EntriesOf(first.Object)
	if err != nil {
		t.Fatal(err)
	}
	setOfEdit := func(m fieldpath.Managed) any {
		for k, vs := range m.Fields {
			if m.Ref(k).Manager == "edit" {
				return vs.Set()
			}
		}
		return nil
	}
	r, err := engine.newRequest(admitted{Request: Request{Live: first.Object, Object: req.Object, Now: now}, prior: first})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.decodeLive(entries)
	if err != nil {
		t.Fatal(err)
	}
	prev, _ := first.ManagedFieldsDecoded(entries)
	if setOfEdit(got) != setOfEdit(prev) || setOfEdit(got) == nil {
		t.Errorf("the previous answer's entries were decoded again")
	}
	want, _ := fieldpath.Decode(entries)
	if d := decodedDiff(got, want); d != "" {
		t.Errorf("taken from the previous answer: %s", d)
	}
	// The same entries with another field set for "edit".
	changed := append([]fieldpath.Entry(nil), entries...)
	for i := range changed {
		if changed[i].Manager == "edit" {
			changed[i].FieldsV1 = []byte(`{"f:data":{"f:b":{},"f:c":{}}}`)
		}
	}
	got, err = r.decodeLive(changed)
	if err != nil {
		t.Fatal(err)
	}
	if setOfEdit(got) == setOfEdit(prev) {
		t.Errorf("changed entries were taken from the previous answer")
	}
	want, _ = fieldpath.Decode(changed)
	if d := decodedDiff(got, want); d != "" {
		t.Errorf("changed entries: %s", d)
	}
	// Another writer's text is never taken: the engine that wrote it compacts, this one
	// would write trees.
	w := r.fieldsWriter()
	if first.knownText(w) == nil {
		t.Errorf("the writer's own text is not offered")
	}
	w.canonical = !w.canonical
	if first.knownText(w) != nil {
		t.Errorf("another writer's text is offered")
	}
}

func decodedDiff(got, want fieldpath.Managed) string {
	if len(got.Fields) != len(want.Fields) || len(got.Times) != len(want.Times) {
		return "not the same managers"
	}
	for k, vs := range want.Fields {
		g, ok := got.Fields[k]
		if !ok || !g.Set().Equals(vs.Set()) || g.APIVersion() != vs.APIVersion() || g.Applied() != vs.Applied() {
			return "the fields of " + k + " differ"
		}
		if (got.Times[k] == nil) != (want.Times[k] == nil) || want.Times[k] != nil && !got.Times[k].Equal(*want.Times[k]) {
			return "the time of " + k + " differs"
		}
	}
	return ""
}

// A manager's set a write leaves as it was, the very set, is not walked for the fields it
// gained or lost; another set of the same fields is, to the same answer.
func TestPathsOfDifferenceOfTheSameSet(t *testing.T) {
	s := smdpath.NewSet(smdpath.MakePathOrDie("spec", "replicas"), smdpath.MakePathOrDie("data", "a"))
	if got := pathsOfDifference(s, s); got != nil {
		t.Errorf("the same set: %v", got)
	}
	if n := testing.AllocsPerRun(10, func() { pathsOfDifference(s, s) }); n != 0 {
		t.Errorf("the same set: %v allocations", n)
	}
	other := smdpath.NewSet(smdpath.MakePathOrDie("spec", "replicas"))
	if got := pathsOfDifference(s, other); len(got) != 1 || got[0] != ".data.a" {
		t.Errorf("another set: %v", got)
	}
	if got := pathsOfDifference(other, s.Union(other)); got != nil {
		t.Errorf("a set of the same fields: %v", got)
	}
}

// updateObject changes the new object in place: Update, Create and Patch hand it a copy
// of their own, and leave the caller's objects as they were.
func TestWritesLeaveTheCallersObjects(t *testing.T) {
	engine := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := objFromYAML(t, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  namespace: ns
  uid: u
  resourceVersion: "3"
  creationTimestamp: "2026-12-01T09:00:00Z"
  managedFields:
  - {manager: ci, operation: Apply, apiVersion: apps/v1, time: "2026-12-01T10:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}
spec:
  replicas: 2
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec:
      containers: [{name: app, image: "app:1", resources: {limits: {cpu: "0.5"}}}]
status:
  replicas: 2
  conditions: [{type: Available, status: "True", lastUpdateTime: "2026-12-01T10:00:00.5+01:00"}]
`)
	// As a reader gives it (int64 numbers): the engine takes it as it is, without a copy.
	live = unstructured.CopyAsDecoded(live)
	body := unstructured.DeepCopyObject(live)
	body["spec"].(map[string]any)["replicas"] = int64(3)
	delete(metadataOf(body), "managedFields")
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	applied := objFromYAML(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ns}\nspec: {replicas: 3}\n")
	appliedSame := objFromYAML(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ns}\nspec: {replicas: 2}\n")
	for _, c := range []struct {
		name string
		run  func(live, body map[string]any) (*Result, error)
	}{
		{"update", func(live, body map[string]any) (*Result, error) {
			return engine.Update(Request{Live: live, Object: body, Manager: "edit", Now: now})
		}},
		{"create", func(_, body map[string]any) (*Result, error) {
			return engine.Create(Request{Object: body, Manager: "edit", Now: now})
		}},
		{"patch", func(live, _ map[string]any) (*Result, error) {
			return engine.Patch(Request{Live: live, Patch: Patch{Type: MergePatch, Body: []byte(`{"spec":{"replicas":4}}`)}, Manager: "edit", Now: now})
		}},
		// The live object above is not what the server would store (a quantity not in its
		// canonical form, a time with a fraction): the writes'
		// defaulting, in place, must rewrite copies.
		{"apply", func(live, _ map[string]any) (*Result, error) {
			return engine.Apply(Request{Live: live, Object: applied, Manager: "ci", Now: now})
		}},
		{"apply of the same", func(live, _ map[string]any) (*Result, error) {
			return engine.Apply(Request{Live: live, Object: appliedSame, Manager: "ci", Now: now})
		}},
		{"status update", func(live, body map[string]any) (*Result, error) {
			return engine.Update(Request{Endpoint: Endpoint{GVK: schema.GVKOf(live), Namespace: "ns", Name: "d", Subresource: "status"}, Live: live, Object: body, Manager: "ctl", Now: now})
		}},
	} {
		l, b := unstructured.DeepCopyObject(live), unstructured.DeepCopyObject(body)
		a, as := unstructured.DeepCopyObject(applied), unstructured.DeepCopyObject(appliedSame)
		res, err := c.run(l, b)
		if !reflect.DeepEqual(a, applied) || !reflect.DeepEqual(as, appliedSame) {
			t.Errorf("%s: the caller's applied configuration changed", c.name)
		}
		if err != nil || res.Rejection != nil || res.Action == ActionUnchanged && c.name != "apply of the same" {
			t.Fatalf("%s: %v, %+v", c.name, err, res)
		}
		if !reflect.DeepEqual(l, live) || !reflect.DeepEqual(b, body) {
			t.Errorf("%s: the caller's objects changed", c.name)
		}
	}
}
