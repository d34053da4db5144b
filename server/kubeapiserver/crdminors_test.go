package kubeapiserver_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// recordedAnswer is what a real kube-apiserver answered to a case of testdata/crdminors
// (record.py): the code, the Warning headers, and the Status message or the object.
type recordedAnswer struct {
	Code     int            `json:"code"`
	Message  string         `json:"message"`
	Causes   []string       `json:"causes"`
	Warnings []string       `json:"warnings"`
	Object   map[string]any `json:"object"`
}

// TestCRDMinors predicts every case of testdata/crdminors at each minor a real server
// answered it for (want.json, by minor): the CRD and custom resource validation, CEL and
// status rules that differ between minors. The code and message of a refusal, the server's
// warnings, and of an object its managedFields (times aside), labels, spec and status must
// be the server's.
func TestCRDMinors(t *testing.T) {
	dir := filepath.Join("testdata", "crdminors")
	cases, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		var want map[string]recordedAnswer
		readJSON(t, filepath.Join(dir, c.Name(), "want.json"), &want)
		for minor, w := range want {
			v, err := kube.ParseMinor(minor)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(c.Name()+"/"+minor, func(t *testing.T) {
				n++
				got := predictCase(t, filepath.Join(dir, c.Name()), v)
				compareAnswer(t, got, w)
			})
		}
	}
	if n == 0 {
		t.Fatal("no recorded case")
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// predictCase makes the requests record.py made, as the model of minor v answers them: the
// answer of the last one.
func predictCase(t *testing.T, dir string, v kube.Minor) *merge.Result {
	t.Helper()
	now := time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC)
	e := func(reg *schema.Registry) *merge.Engine {
		return merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: v}))
	}
	apply := func(eng *merge.Engine, req merge.Request) *merge.Result {
		t.Helper()
		req.Now = now
		res, err := eng.Apply(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	crd := readYAML(t, filepath.Join(dir, "crd.yaml"))
	reqs := caseRequests(t, dir)
	if len(reqs) == 0 {
		return apply(e(schema.MustNewRegistry(kube.Default())), merge.Request{Object: crd, Manager: "gitops"})
	}
	// The CRD is created first: a refusal is the answer.
	created := apply(e(schema.MustNewRegistry(kube.Default())), merge.Request{Object: crd, Manager: "gitops"})
	if created.Rejection != nil {
		return created
	}
	reg := schema.MustNewRegistry(kube.Default())
	b, err := os.ReadFile(filepath.Join(dir, "crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.AddCRD("crd.yaml", b); err != nil {
		t.Fatal(err)
	}
	eng := e(reg)
	var live map[string]any
	var res *merge.Result
	for i, r := range reqs {
		obj := readYAML(t, filepath.Join(dir, r.File))
		if i == 0 && obj["kind"] == "CustomResourceDefinition" {
			live = created.Object
		}
		res = apply(eng, merge.Request{Live: live, Object: obj, Manager: r.Manager,
			Endpoint: merge.Endpoint{Subresource: r.Subresource}})
		if i < len(reqs)-1 && res.Rejection != nil {
			t.Fatalf("%s is refused: %s", r.File, res.Rejection.Message)
		}
		live = res.Object
	}
	return res
}

type caseRequest struct {
	File, Manager, Subresource string
}

// caseRequests are the applies of a case (see record.py).
func caseRequests(t *testing.T, dir string) []caseRequest {
	b, err := os.ReadFile(filepath.Join(dir, "requests.yaml"))
	if err == nil {
		var out []caseRequest
		if err := yaml.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	var out []caseRequest
	if _, err := os.Stat(filepath.Join(dir, "object.yaml")); err == nil {
		out = append(out, caseRequest{File: "object.yaml", Manager: "gitops"})
	}
	if _, err := os.Stat(filepath.Join(dir, "status.yaml")); err == nil {
		out = append(out, caseRequest{File: "status.yaml", Manager: "controller", Subresource: "status"})
	}
	return out
}

const serverWarning = "the server would warn: "

func compareAnswer(t *testing.T, got *merge.Result, want recordedAnswer) {
	t.Helper()
	var gotWarnings []string
	for _, w := range got.Warnings {
		if s, ok := strings.CutPrefix(w, serverWarning); ok {
			gotWarnings = append(gotWarnings, s)
		}
	}
	wantWarnings := []string{}
	for _, h := range want.Warnings {
		// A Warning header: 299 - "<the warning, quoted>".
		q := strings.TrimPrefix(h, `299 - `)
		s, err := strconv.Unquote(q)
		if err != nil {
			t.Fatalf("warning header %q: %v", h, err)
		}
		wantWarnings = append(wantWarnings, s)
	}
	sort.Strings(gotWarnings)
	sort.Strings(wantWarnings)
	if len(gotWarnings) == 0 {
		gotWarnings = []string{}
	}
	if !reflect.DeepEqual(gotWarnings, wantWarnings) {
		t.Errorf("warnings:\n got %q\nwant %q", gotWarnings, wantWarnings)
	}
	if want.Code >= 300 {
		if got.Rejection == nil {
			t.Fatalf("accepted (%s), want %d %s", got.Action, want.Code, want.Message)
		}
		// The server lists the errors of an object's properties in Go's map order: with
		// several, the causes are compared as a set.
		gotMsg, wantMsg := got.Rejection.Message, want.Message
		if len(want.Causes) > 1 {
			gotMsg, wantMsg = strings.SplitN(gotMsg, ": [", 2)[0], strings.SplitN(wantMsg, ": [", 2)[0]
			var causes []string
			if d := got.Rejection.Details; d != nil {
				for _, c := range d.Causes {
					causes = append(causes, c.Field+": "+c.Message)
				}
			}
			sort.Strings(causes)
			wantCauses := append([]string(nil), want.Causes...)
			sort.Strings(wantCauses)
			if !reflect.DeepEqual(causes, wantCauses) {
				t.Errorf("causes:\n got %q\nwant %q", causes, wantCauses)
			}
		}
		if got.Rejection.Code != want.Code || gotMsg != wantMsg {
			t.Errorf("refusal:\n got %d %s\nwant %d %s", got.Rejection.Code, got.Rejection.Message, want.Code, want.Message)
		}
		return
	}
	if got.Rejection != nil {
		t.Fatalf("refused: %d %s, want %d", got.Rejection.Code, got.Rejection.Message, want.Code)
	}
	if want.Object == nil {
		return
	}
	g, w := comparable(got.Object), comparable(want.Object)
	if !reflect.DeepEqual(g, w) {
		gj, _ := json.MarshalIndent(g, "", "  ")
		wj, _ := json.MarshalIndent(w, "", "  ")
		t.Errorf("object:\n got %s\nwant %s", gj, wj)
	}
}

// comparable is what of an object the comparison looks at: managedFields without times,
// labels, annotations, deletion timestamp and grace period, spec and status, as JSON values.
func comparable(obj map[string]any) map[string]any {
	b, _ := json.Marshal(obj)
	var o map[string]any
	_ = json.Unmarshal(b, &o)
	md, _ := o["metadata"].(map[string]any)
	out := map[string]any{"spec": o["spec"], "status": o["status"], "labels": md["labels"], "annotations": md["annotations"],
		"deletionTimestamp": md["deletionTimestamp"], "deletionGracePeriodSeconds": md["deletionGracePeriodSeconds"]}
	crd := o["kind"] == "CustomResourceDefinition"
	if crd {
		// The server's controllers write its status (as manager kube-apiserver), and
		// defaults fill its spec.
		delete(out, "spec")
		delete(out, "status")
	}
	var mfs []any
	if l, ok := md["managedFields"].([]any); ok {
		for _, e := range l {
			m, _ := e.(map[string]any)
			if crd && m["manager"] == "kube-apiserver" {
				continue
			}
			delete(m, "time")
			mfs = append(mfs, m)
		}
	}
	if crd {
		// Entries are ordered by time: the controllers' writes fall between the case's.
		sort.Slice(mfs, func(i, j int) bool {
			a, b := mfs[i].(map[string]any), mfs[j].(map[string]any)
			return fmt.Sprint(a["manager"], a["subresource"]) < fmt.Sprint(b["manager"], b["subresource"])
		})
	}
	out["managedFields"] = mfs
	return out
}
