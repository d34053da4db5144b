package merge

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// A scenario is a sequence of writes to one object, each checked against what the API
// server does (the catalog rule it shows is named in the scenario).
type scenario struct {
	name string
	ops  []op
}

type op struct {
	apply     bool   // Apply, else Update (PUT of the whole object)
	manager   string //
	force     bool   //
	sub       string // subresource
	body      string // YAML
	conflicts string // the expected 409 message, "" for success
	// managed lists the expected entries as "manager/Operation[/subresource]: fieldsV1" lines
	// (fieldsV1 as compact JSON), in the server's order; "-" means none.
	managed string
	// check, if set, inspects the object after the write.
	check func(t *testing.T, obj map[string]any)
	// action, if set, is the expected action.
	action Action
}

func objFromYAML(t testing.TB, s string) map[string]any {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test YAML: %v", err)
	}
	return m
}

func managedSummary(res *Result) string {
	if len(res.ManagedFields) == 0 {
		return "-"
	}
	var lines []string
	for _, e := range res.ManagedFields {
		id := e.Manager + "/" + string(e.Operation)
		if e.Subresource != "" {
			id += "/" + e.Subresource
		}
		lines = append(lines, id+": "+string(e.FieldsV1))
	}
	return strings.Join(lines, "\n")
}

func runScenario(t *testing.T, e *Engine, sc scenario) {
	var live map[string]any
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	for i, o := range sc.ops {
		now = now.Add(time.Minute)
		req := Request{Live: live, Object: objFromYAML(t, o.body), Manager: o.manager, Force: o.force, Now: now}
		if o.sub != "" {
			src := live
			if src == nil {
				src = req.Object
			}
			ns, name := nsName(src)
			req.Endpoint = Endpoint{GVK: schema.GVKOf(src), Namespace: ns, Name: name, Subresource: o.sub}
		}
		if !o.apply && live != nil {
			// A PUT carries what the client read: uid and the rest of the metadata.
			md := metadataOf(req.Object)
			for _, k := range []string{"uid", "creationTimestamp", "resourceVersion"} {
				if v, ok := metadataOf(live)[k]; ok {
					md[k] = v
				}
			}
		}
		var res *Result
		var err error
		switch {
		case o.apply:
			res, err = e.Apply(req)
		case live == nil:
			res, err = e.Create(req) // a POST: a PUT of a ConfigMap does not create
		default:
			res, err = e.Update(req)
		}
		if err != nil {
			t.Fatalf("op %d: %v", i, err)
		}
		if o.conflicts != "" {
			if res.Rejection == nil {
				t.Fatalf("op %d: succeeded, want conflicts %q", i, o.conflicts)
			}
			if res.Rejection.Message != o.conflicts {
				t.Fatalf("op %d: message\n%s\nwant\n%s", i, res.Rejection.Message, o.conflicts)
			}
			continue
		}
		if res.Rejection != nil {
			t.Fatalf("op %d: rejected: %s", i, res.Rejection.Message)
		}
		if o.action != "" && res.Action != o.action {
			t.Errorf("op %d: action %s, want %s", i, res.Action, o.action)
		}
		if o.managed != "" {
			if got := managedSummary(res); got != strings.TrimSpace(o.managed) {
				t.Errorf("op %d: managedFields\n%s\nwant\n%s", i, got, strings.TrimSpace(o.managed))
			}
		}
		if o.check != nil {
			o.check(t, res.Object)
		}
		live = res.Object
		if res.Action == ActionCreate {
			metadataOf(live)["uid"] = "00000000-0000-0000-0000-000000000001"
			metadataOf(live)["creationTimestamp"] = now.Format(time.RFC3339)
		}
	}
}

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: ns\n"

func nestedField(obj map[string]any, path ...string) (any, bool) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[p]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

func wantField(path string, want any) func(*testing.T, map[string]any) {
	return func(t *testing.T, obj map[string]any) {
		t.Helper()
		got, ok := nestedField(obj, strings.Split(path, ".")...)
		if want == nil {
			if ok {
				t.Errorf("%s = %v, want it absent", path, got)
			}
			return
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if !ok || string(gj) != string(wj) {
			t.Errorf("%s = %s (present %v), want %s", path, gj, ok, wj)
		}
	}
}

var scenarios = []scenario{
	{"B1 apply replaces the applier's set", []op{
		{apply: true, manager: "a", body: cm + "  labels: {a: x, b: z}\n"},
		{apply: true, manager: "a", body: cm + "  labels: {a: x}\n",
			managed: `a/Apply: {"f:metadata":{"f:labels":{"f:a":{}}}}`,
			check:   wantField("metadata.labels.b", nil)},
	}},
	{"B4 C1 C5 an update takes a field; the applier conflicts", []op{
		{apply: true, manager: "a", body: cm + "data: {key: v1}\n"},
		{manager: "updater", body: cm + "data: {key: v2, new-key: nk}\n",
			managed: `updater/Update: {"f:data":{"f:key":{},"f:new-key":{}}}`},
		{apply: true, manager: "a", body: cm + "data: {key: v1}\n",
			conflicts: `Apply failed with 1 conflict: conflict with "updater" using v1: .data.key`},
		{apply: true, manager: "a", force: true, body: cm + "data: {key: v1}\n",
			managed: `a/Apply: {"f:data":{"f:key":{}}}` + "\n" + `updater/Update: {"f:data":{"f:new-key":{}}}`},
	}},
	{"B5 the same value is shared without conflict", []op{
		{apply: true, manager: "a", body: cm + "data: {k: v}\n"},
		{apply: true, manager: "b", body: cm + "data: {k: v}\n",
			// b's apply changes nothing, so its entry has no time and sorts first (rules.md time.apply, encode.order).
			managed: "b/Apply: {\"f:data\":{\"f:k\":{}}}\na/Apply: {\"f:data\":{\"f:k\":{}}}"},
	}},
	{"C6 several managers group by identity", []op{
		{apply: true, manager: "zeta", body: cm + "  labels: {a: '1', b: '1'}\n"},
		{apply: true, manager: "alpha", body: cm + "  labels: {c: '1'}\n"},
		{apply: true, manager: "me", body: cm + "  labels: {a: '2', b: '2', c: '2'}\n",
			conflicts: "Apply failed with 3 conflicts: conflicts with \"alpha\":\n- .metadata.labels.c\nconflicts with \"zeta\":\n- .metadata.labels.a\n- .metadata.labels.b"},
	}},
	{"D1 D2 fields the applier drops are pruned unless another manager owns them", []op{
		{apply: true, manager: "a", body: cm + "data: {x: '1', w: '2'}\n"},
		{apply: true, manager: "b", body: cm + "data: {w: '2'}\n"},
		{apply: true, manager: "a", body: cm + "data: {}\n",
			check: func(t *testing.T, obj map[string]any) {
				wantField("data.x", nil)(t, obj)
				wantField("data.w", "2")(t, obj)
			}},
	}},
	{"D5 E2 a name-only apply releases everything and removes the entry", []op{
		{apply: true, manager: "a", body: cm + "data: {x: '1'}\n"},
		{apply: true, manager: "a", body: cm, managed: "-", check: wantField("data.x", nil)},
	}},
	{"E1 E3 an update of system metadata only leaves no entry", []op{
		{apply: true, manager: "a", body: cm + "data: {x: '1'}\n"},
		{manager: "sys", body: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: ns\n  generation: 7\ndata: {x: '1'}\n",
			managed: `a/Apply: {"f:data":{"f:x":{}}}`},
	}},
	{"F1 the first apply onto an untracked object creates before-first-apply", []op{
		{apply: true, manager: "boot", body: cm + "  annotations: {origin: ansible}\ndata: {primary: a, secondary: b}\n"},
		{manager: "cleaner", body: cm + "  annotations: {origin: ansible}\n  managedFields: [{}]\ndata: {primary: a, secondary: b}\n", managed: "-"},
		{apply: true, manager: "new-owner", force: true, body: cm + "data: {primary: c, standby: d}\n",
			managed: `new-owner/Apply: {"f:data":{"f:primary":{},"f:standby":{}}}` + "\n" +
				`before-first-apply/Update: {"f:data":{".":{},"f:secondary":{}},"f:metadata":{"f:annotations":{".":{},"f:origin":{}}}}`},
	}},
	{"F3 an untracked object stays untracked under updates", []op{
		{apply: true, manager: "a", body: cm + "data: {x: '1'}\n"},
		{manager: "cleaner", body: cm + "  managedFields: []\ndata: {x: '1'}\n", managed: "-"},
		{manager: "other", body: cm + "data: {x: '2'}\n", managed: "-", check: wantField("data.x", "2")},
	}},
	{"G2 a no-op apply by a new manager adds an entry without time", []op{
		{apply: true, manager: "a", body: cm + "data: {x: '1'}\n"},
		{apply: true, manager: "a", body: cm + "data: {x: '1'}\n", action: ActionUnchanged},
		{apply: true, manager: "b", body: cm + "data: {x: '1'}\n", action: ActionUpdate,
			check: func(t *testing.T, obj map[string]any) {
				es, _, _ := managedFieldsOf(obj)
				if len(es) != 2 || es[0].Manager != "b" || es[0].Time != nil {
					t.Errorf("entries %+v: want b first, without time", es)
				}
			}},
	}},
	{"I1 more than ten updaters fold into ancient-changes", func() []op {
		ops := []op{{apply: true, manager: "apply_test", body: cm + "data: {x: '1'}\n"}}
		labels := ""
		for i := 0; i < 12; i++ {
			labels += "    k" + string(rune('a'+i)) + ": v\n"
			ops = append(ops, op{manager: "k" + string(rune('a'+i)), body: cm + "  labels:\n" + labels + "data: {x: '1'}\n"})
		}
		ops[len(ops)-1].check = func(t *testing.T, obj map[string]any) {
			es, _, _ := managedFieldsOf(obj)
			if len(es) != 11 || es[0].Manager != "apply_test" || es[1].Manager != "ancient-changes" {
				var names []string
				for _, e := range es {
					names = append(names, e.Manager)
				}
				t.Errorf("entries %v: want apply_test, ancient-changes, then ten", names)
			}
		}
		return ops
	}()},
	{"L5 managedFields in an apply body", []op{
		{apply: true, manager: "a", body: cm + "  managedFields: []\n", conflicts: "metadata.managedFields must be nil"},
	}},
}

func TestScenarios(t *testing.T) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) { runScenario(t, e, sc) })
	}
}

// BenchmarkScenarios replays every scenario: the cost of the chain on small objects.
func BenchmarkScenarios(b *testing.B) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	t := &testing.T{}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, sc := range scenarios {
			runScenario(t, e, sc)
		}
	}
}
