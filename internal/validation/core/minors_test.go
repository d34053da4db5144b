package core_test

import (
	"encoding/json"
	"fmt"
	"os"
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

// minorsCase is a case of testdata/minors.yaml: an apply whose answer differs between the
// Kubernetes minors ssa-diff predicts, with the answer of each minor's server.
type minorsCase struct {
	Name string `json:"name"`
	// Diff names the difference (the research notes' id) the case shows.
	Diff  string       `json:"diff"`
	Setup []setupApply `json:"setup"`
	Apply string       `json:"apply"`
	// Subresource is where the apply goes ("status"); "" for the object itself.
	Subresource string `json:"subresource"`
	Force       bool   `json:"force"`
	// Fields are paths (dot-separated, list items by index) of the stored object whose
	// values the answers hold.
	Fields []string `json:"fields"`
	// Answers are the servers' answers by minor ("1.35").
	Answers map[string]minorAnswer `json:"answers"`
	// Alike, when set, says why the minors answer alike where one could expect otherwise:
	// the case checks that no difference is predicted.
	Alike string `json:"alike"`
}

// setupApply is an apply made for real before the case: a manifest, or a manifest and the
// subresource it goes to.
type setupApply struct {
	Apply       string
	Subresource string
}

func (s *setupApply) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &s.Apply); err == nil {
		return nil
	}
	var v struct {
		Apply       string `json:"apply"`
		Subresource string `json:"subresource"`
	}
	err := json.Unmarshal(b, &v)
	s.Apply, s.Subresource = v.Apply, v.Subresource
	return err
}

type minorAnswer struct {
	// Source says where the answer comes from: "server v1.35.4" (recorded by
	// testdata/record.py) or "code" (the release's source, file:line in the notes).
	Source   string   `json:"source"`
	Want     string   `json:"want"`
	Causes   []string `json:"causes"`
	Warnings []string `json:"warnings"`
	// Fields are the stored values at the case's fields; null: absent.
	Fields map[string]any `json:"fields"`
}

// TestMinors: the applies of testdata/minors.yaml, predicted for each minor a server
// answered them at, give that server's answer: its 422 message and causes, its warnings,
// and the values it stored (the differences between 1.34, 1.35, 1.36 and 1.37 of the core
// group's registry, its validation and the apimachinery messages it prints).
func TestMinors(t *testing.T) {
	b, err := os.ReadFile("testdata/minors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []minorsCase `json:"cases"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	reg := schema.MustNewRegistry(kube.Default())
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	for i, c := range doc.Cases {
		minors := make([]string, 0, len(c.Answers))
		for m := range c.Answers {
			minors = append(minors, m)
		}
		sort.Strings(minors)
		if differ := answersDiffer(c.Answers); differ != (c.Alike == "") {
			t.Errorf("%s: the answers of %v differ: %v, alike: %q", c.Name, minors, differ, c.Alike)
		}
		for _, m := range minors {
			want := c.Answers[m]
			t.Run(c.Name+"/"+m, func(t *testing.T) {
				v, err := kube.ParseMinor(m)
				if err != nil {
					t.Fatal(err)
				}
				e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: v}))
				ns := fmt.Sprintf("mi-%d", i)
				var live map[string]any
				for _, s := range c.Setup {
					req := merge.Request{Live: live, Object: applyObject(t, s.Apply, ns), Manager: "gitops", Now: now}
					req.Endpoint = endpointFor(req.Object, s.Subresource)
					res, err := e.Apply(req)
					if err != nil || res.Rejection != nil {
						t.Fatalf("setup: %v %+v", err, res.Rejection)
					}
					live = res.Object
				}
				obj := applyObject(t, c.Apply, ns)
				req := merge.Request{Live: live, Object: obj, Manager: "gitops", Force: c.Force, Now: now.Add(time.Minute)}
				req.Endpoint = endpointFor(obj, c.Subresource)
				res, err := e.Apply(req)
				if err != nil {
					t.Fatal(err)
				}
				got, causes := "", []string(nil)
				if r := res.Rejection; r != nil {
					if r.Code != 422 {
						t.Fatalf("%s: refused with %d: %s", c.Diff, r.Code, r.Message)
					}
					got = r.Message
					if r.Details != nil {
						for _, cause := range r.Details.Causes {
							causes = append(causes, cause.Field+": "+cause.Message)
						}
					}
				}
				if got != want.Want {
					t.Errorf("%s (%s):\n got: %s\nwant: %s", c.Diff, want.Source, got, want.Want)
				}
				if want.Want != "" && strings.Join(causes, "\n") != strings.Join(want.Causes, "\n") {
					t.Errorf("%s (%s) causes:\n got: %q\nwant: %q", c.Diff, want.Source, causes, want.Causes)
				}
				var warned, wantWarned []string
				for _, w := range res.Warnings {
					if s, ok := strings.CutPrefix(w, "the server would warn: "); ok {
						warned = append(warned, s)
					}
				}
				for _, w := range want.Warnings {
					if !apiDeprecation.MatchString(w) {
						wantWarned = append(wantWarned, w)
					}
				}
				if !sameMultiset(warned, wantWarned) {
					t.Errorf("%s (%s) warnings:\n got: %q\nwant: %q", c.Diff, want.Source, warned, wantWarned)
				}
				if got != "" {
					return
				}
				for _, p := range c.Fields {
					g, _ := json.Marshal(valueAt(res.Object, p))
					w, _ := json.Marshal(want.Fields[p])
					if string(g) != string(w) {
						t.Errorf("%s (%s) stored %s:\n got: %s\nwant: %s", c.Diff, want.Source, p, g, w)
					}
				}
			})
		}
	}
}

// endpointFor is the endpoint of a write of obj through subresource ("" for the object
// itself: the engine's default).
func endpointFor(obj map[string]any, subresource string) merge.Endpoint {
	if subresource == "" {
		return merge.Endpoint{}
	}
	md, _ := obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return merge.Endpoint{GVK: schema.GVKFromAPIVersionKind(av, kind), Namespace: ns, Name: name, Subresource: subresource}
}

// valueAt is the value at a dot-separated path (list items by index) of obj, nil when
// absent; numbers as JSON has them.
func valueAt(obj map[string]any, path string) any {
	var v any = obj
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// answersDiffer reports whether two of the answers differ (in what the server said, not
// where the answer comes from).
func answersDiffer(answers map[string]minorAnswer) bool {
	seen := map[string]bool{}
	for _, a := range answers {
		a.Source = ""
		b, _ := json.Marshal(a)
		seen[string(b)] = true
	}
	return len(seen) > 1
}
