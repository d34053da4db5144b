package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/merge"
)

// fakeEngine answers by the manifest's annotation "test/outcome": "conflict" (409), "fail"
// (ssa-diff cannot predict), "panic", or else an update that stores the manifest's data. It
// sleeps a random while so results finish out of order.
type fakeEngine struct {
	mu    sync.Mutex
	calls []merge.Request
	rng   *rand.Rand
	argo  []appliers.ArgoCDOptions
	flux  []appliers.FluxOptions
}

func newFake() *fakeEngine { return &fakeEngine{rng: rand.New(rand.NewSource(7))} }

func (f *fakeEngine) Apply(req merge.Request) (*merge.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req)
	d := time.Duration(f.rng.Intn(3000)) * time.Microsecond
	f.mu.Unlock()
	time.Sleep(d)
	md, _ := req.Object["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	switch ann["test/outcome"] {
	case "conflict":
		if req.Force {
			return &merge.Result{Action: merge.ActionUpdate, Object: req.Live}, nil
		}
		return &merge.Result{Action: merge.ActionRejected, Rejection: &merge.StatusError{Code: 409, Reason: "Conflict", Message: "Apply failed with 1 conflict: conflict with \"x\": .data.a"}}, nil
	case "fail":
		return nil, errors.New("the engine cannot do this")
	case "panic":
		panic("boom")
	}
	obj := map[string]any{}
	for k, v := range req.Live {
		obj[k] = v
	}
	if req.Live == nil {
		obj = map[string]any{"apiVersion": req.Object["apiVersion"], "kind": req.Object["kind"],
			"metadata": map[string]any{"name": req.Endpoint.Name, "namespace": req.Endpoint.Namespace}}
	}
	obj["data"] = req.Object["data"]
	action := merge.ActionUpdate
	if req.Live == nil {
		action = merge.ActionCreate
	}
	return &merge.Result{Action: action, Object: obj}, nil
}

// Predict records the GitOps appliers' options and answers as Apply does, forced with
// their manager.
func (f *fakeEngine) Predict(a appliers.Applier, req merge.Request) (*merge.Result, error) {
	switch a := a.(type) {
	case appliers.ArgoCDSync:
		f.mu.Lock()
		f.argo = append(f.argo, a.Options)
		f.mu.Unlock()
		req.Manager, req.Force = a.Manager(), true
	case appliers.FluxApply:
		f.mu.Lock()
		f.flux = append(f.flux, a.Options)
		f.mu.Unlock()
		req.Manager, req.Force = a.Manager(), true
	}
	return f.Apply(req)
}

func cmYAML(name, ns string, data string, outcome string) string {
	s := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
	if ns != "" {
		s += "  namespace: " + ns + "\n"
	}
	if outcome != "" {
		s += "  annotations:\n    test/outcome: " + outcome + "\n"
	}
	return s + "data:\n  a: " + data + "\n"
}

type jsonReport struct {
	Results []struct {
		Kind, Namespace, Name string
		Action                string
		Changed               bool
		Source                struct {
			File     string
			Document int
			Line     int
		}
		LiveSource *struct{ File string }
		Error      *struct {
			Code    int
			Message string
			Line    int
			Path    string
		}
		Warnings  []string
		WithForce *struct{ Action string }
	}
	Summary struct{ ExitCode int }
}

func decodeReport(t *testing.T, s string) jsonReport {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return r
}

func TestResultsInInputOrder(t *testing.T) {
	var docs []string
	for i := 0; i < 40; i++ {
		docs = append(docs, cmYAML(fmt.Sprintf("cm-%02d", i), "", fmt.Sprint(i), ""))
	}
	dir := writeFiles(t, map[string]string{"m.yaml": strings.Join(docs, "---\n")})
	f := newFake()
	out, _, code := runFake(t, f, "", "-o", "json", "--jobs", "8", filepath.Join(dir, "m.yaml"))
	rep := decodeReport(t, out)
	if code != 1 || len(rep.Results) != 40 {
		t.Fatalf("exit %d, %d results", code, len(rep.Results))
	}
	for i, r := range rep.Results {
		if want := fmt.Sprintf("cm-%02d", i); r.Name != want || r.Source.Document != i || r.Action != "create" || r.Namespace != "default" {
			t.Errorf("result %d = %s %s (document %d), want %s create in default", i, r.Name, r.Action, r.Source.Document, want)
		}
	}
}

func TestBadInputStillPredictsTheRest(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.yaml": cmYAML("one", "ns", "1", "") + "---\nkind: ConfigMap\nmetadata:\n  name: [oops\n---\n" +
			cmYAML("two", "ns", "2", "") + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: ns\n",
		"live.json": `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"two","namespace":"ns","managedFields":[]}}, {"kind":"ConfigMap"}]}`,
	})
	out, _, code := runFake(t, newFake(), "", "-o", "json", filepath.Join(dir, "a.yaml"), filepath.Join(dir, "live.json"))
	rep := decodeReport(t, out)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	var got []string
	for _, r := range rep.Results {
		got = append(got, r.Name+":"+r.Action)
	}
	// "one" has no live object, but the live List has an item that cannot be read: its live
	// state may be that item, so it is not predicted as a create.
	if want := "one:error :error two:update :error :error"; strings.Join(got, " ") != want {
		t.Fatalf("results %q, want %q", strings.Join(got, " "), want)
	}
	if e := rep.Results[1].Error; e.Code != 0 || e.Line != 11 || !strings.Contains(e.Message, "a.yaml, document 1, line 11: invalid YAML") {
		t.Errorf("bad YAML error = %+v", e)
	}
	if e := rep.Results[3].Error; e.Path != ".metadata.name" || !strings.Contains(e.Message, "document 3, line 23: .metadata.name: required field is missing") {
		t.Errorf("nameless manifest error = %+v", e)
	}
	if e := rep.Results[4].Error; !strings.Contains(e.Message, "live object: ") || !strings.Contains(e.Message, "item 1") || e.Path != ".apiVersion" {
		t.Errorf("bad live object error = %+v", e)
	}
}

func TestSameObjectTwiceIsAChain(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"m.yaml":    cmYAML("web", "", "first", "") + "---\n" + cmYAML("other", "", "x", "") + "---\n" + cmYAML("web", "default", "second", ""),
		"live.json": `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"default","managedFields":[]},"data":{"a":"live"}}`,
	})
	f := newFake()
	out, _, _ := runFake(t, f, "", "-o", "json", "--jobs", "4", filepath.Join(dir, "m.yaml"), filepath.Join(dir, "live.json"))
	rep := decodeReport(t, out)
	var second *merge.Request
	for i := range f.calls {
		if f.calls[i].Object["data"].(map[string]any)["a"] == "second" {
			second = &f.calls[i]
		}
	}
	if second == nil || second.Live["data"].(map[string]any)["a"] != "first" {
		t.Fatalf("the second apply of web did not see the first one's result: %+v", second)
	}
	if r := rep.Results[2]; r.LiveSource == nil || !strings.HasSuffix(r.LiveSource.File, "m.yaml") || len(r.Warnings) == 0 {
		t.Errorf("chained result = %+v", r)
	}
}

func TestOutcomes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"m.yaml": cmYAML("c", "", "1", "conflict") + "---\n" + cmYAML("p", "", "1", "panic"),
		"live.json": `{"apiVersion":"v1","kind":"List","items":[
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"a":"0"}},
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","namespace":"default"}}]}`,
	})
	out, stderr, code := runFake(t, newFake(), "", "-o", "json", "--allow-missing-managed-fields", filepath.Join(dir, "m.yaml"), filepath.Join(dir, "live.json"))
	rep := decodeReport(t, out)
	if code != 2 {
		t.Errorf("exit %d, want 2 (a panic is a failure to predict)", code)
	}
	c := rep.Results[0]
	if c.Action != "rejected" || c.Error.Code != 409 || c.WithForce == nil || c.WithForce.Action != "update" {
		t.Errorf("conflict result = %+v", c)
	}
	if p := rep.Results[1]; p.Action != "error" || !strings.Contains(p.Error.Message, "internal error in ssa-diff") {
		t.Errorf("panic result = %+v", p)
	}
	// Live objects without managedFields, allowed: said loudly, with the command that gets them.
	if !strings.Contains(stderr, "2 live objects without metadata.managedFields") {
		t.Errorf("stderr = %q", stderr)
	}
	if w := strings.Join(c.Warnings, "\n"); !strings.Contains(w, "kubectl get configmaps c -n default -o json --show-managed-fields") {
		t.Errorf("warnings = %q", w)
	}

	out, _, _ = runFake(t, newFake(), "", "-o", "json", "--allow-missing-managed-fields", "--force-conflicts", filepath.Join(dir, "m.yaml"), filepath.Join(dir, "live.json"))
	if c := decodeReport(t, out).Results[0]; c.Action != "update" || c.WithForce != nil {
		t.Errorf("forced apply = %+v", c)
	}
}

func TestOneManifestOneLiveArePaired(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"m.yaml":    "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: queue\n",
		"live.json": `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"queue","namespace":"prod","managedFields":[]}}`,
	})
	f := newFake()
	runFake(t, f, "", "-o", "json", "--applier", "api", filepath.Join(dir, "m.yaml"), filepath.Join(dir, "live.json"))
	if len(f.calls) != 1 {
		t.Fatalf("%d calls", len(f.calls))
	}
	ep := f.calls[0].Endpoint
	if ep.GVK.Kind != "Deployment" || ep.Namespace != "prod" || ep.Name != "queue" || f.calls[0].Live == nil {
		t.Errorf("endpoint = %+v", ep)
	}
}

func TestRequestFromFlags(t *testing.T) {
	dir := writeFiles(t, map[string]string{"m.yaml": cmYAML("a", "", "1", "")})
	f := newFake()
	runFake(t, f, "", "--applier", "api", "--field-manager", "ci", "--force-conflicts", "--subresource", "status",
		"--now", "2026-12-02T09:04:26+01:00", "-n", "team", "-o", "json", filepath.Join(dir, "m.yaml"))
	req := f.calls[0]
	want := time.Date(2026, 12, 2, 8, 4, 26, 0, time.UTC)
	if req.Manager != "ci" || !req.Force || req.Endpoint.Subresource != "status" || !req.Now.Equal(want) || req.Endpoint.Namespace != "team" {
		t.Errorf("request = %+v", req)
	}
	if _, ok := req.Object["metadata"].(map[string]any)["namespace"]; ok {
		t.Error("a raw API request body was given a namespace")
	}

	// kubectl writes the default namespace into the body it sends.
	f = newFake()
	runFake(t, f, "", "-n", "team", "-o", "json", filepath.Join(dir, "m.yaml"))
	if ns := f.calls[0].Object["metadata"].(map[string]any)["namespace"]; ns != "team" {
		t.Errorf("kubectl body namespace = %v, want team", ns)
	}
}

func TestSchemaFlag(t *testing.T) {
	openapi := filepath.Join(repoRoot(t), "schema", "testdata", "openapi", "v3-apis-db.example.com-v1.json")
	if _, err := os.Stat(openapi); err != nil {
		t.Skip(err)
	}
	dir := writeFiles(t, map[string]string{"pg.yaml": "apiVersion: db.example.com/v1\nkind: PostgresCluster\nmetadata:\n  name: main\nspec: {}\n"})
	deduced := func(args ...string) bool {
		out, stderr, code := run(t, "", append([]string{"-o", "json"}, args...)...)
		if code == 2 {
			t.Fatalf("exit 2: %s\n%s", stderr, out)
		}
		return strings.Contains(out, "deduced")
	}
	if !deduced(filepath.Join(dir, "pg.yaml")) {
		t.Error("an unknown kind predicted without a warning")
	}
	if deduced("--schema", openapi, filepath.Join(dir, "pg.yaml")) {
		t.Error("--schema did not make the kind known")
	}
	if _, stderr, code := run(t, "", "--schema", filepath.Join(dir, "missing.json"), filepath.Join(dir, "pg.yaml")); code != 2 || !strings.Contains(stderr, "missing.json") {
		t.Errorf("a missing --schema file: exit %d, %q", code, stderr)
	}
}
