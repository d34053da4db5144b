package appliers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// ssa's CompileIgnoreRules keys the rules by their compiled target: rules without one share
// the nil key, so the last of them is the one that counts.
func TestFluxIgnoreUntargetedRulesShareOneKey(t *testing.T) {
	ig, err := compileFluxIgnore([]FluxIgnoreRule{
		{Paths: []string{"/spec/replicas"}},
		{Paths: []string{"/data/a"}, Target: &FluxSelector{Kind: "ConfigMap"}},
		{Paths: []string{"/spec/paused"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	deploy := obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}`)
	cm := obj(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web"}}`)
	if got, want := ig.paths(deploy), []string{"/spec/paused"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Deployment: %v, want %v", got, want)
	}
	if got, want := ig.paths(cm), []string{"/spec/paused", "/data/a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ConfigMap: %v, want %v", got, want)
	}
}

// The target's fields are regular expressions matched whole (ssa anchors them); the
// selectors are label selector expressions, over annotations too.
func TestFluxSelectorMatches(t *testing.T) {
	o := obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web-1","namespace":"shop",
		"labels":{"tier":"front"},"annotations":{"autoscaled":"true"}}}`)
	for _, c := range []struct {
		sel  FluxSelector
		want bool
	}{
		{FluxSelector{}, true},
		{FluxSelector{Kind: "Deploy"}, false}, // anchored
		{FluxSelector{Kind: "Deploy.*"}, true},
		{FluxSelector{Group: "apps", Version: "v1"}, true},
		{FluxSelector{Group: "^$"}, false},
		{FluxSelector{Name: "web-[0-9]+", Namespace: "shop|cart"}, true},
		{FluxSelector{Namespace: "sho"}, false},
		{FluxSelector{LabelSelector: "tier in (front,back)"}, true},
		{FluxSelector{LabelSelector: "tier!=front"}, false},
		{FluxSelector{AnnotationSelector: "autoscaled=true"}, true},
		{FluxSelector{AnnotationSelector: "autoscaled=false"}, false},
	} {
		sel, err := c.sel.compile()
		if err != nil {
			t.Fatal(err)
		}
		if got := sel.matches(o); got != c.want {
			t.Errorf("%+v: %v, want %v", c.sel, got, c.want)
		}
	}
	core, _ := (&FluxSelector{Group: "^$", Version: "v1"}).compile()
	if !core.matches(obj(`{"apiVersion":"v1","kind":"ConfigMap"}`)) {
		t.Error("the core group is the empty group")
	}
}

func TestParseFluxIgnoreRule(t *testing.T) {
	r, err := ParseFluxIgnoreRule(`{"paths":["/spec/replicas"],"target":{"kind":"Deployment","labelSelector":"app=web"}}`)
	if err != nil || !reflect.DeepEqual(r, FluxIgnoreRule{Paths: []string{"/spec/replicas"}, Target: &FluxSelector{Kind: "Deployment", LabelSelector: "app=web"}}) {
		t.Fatalf("%+v %v", r, err)
	}
	for in, want := range map[string]string{
		`{"paths":["spec/replicas"]}`:                          `paths[0]: "spec/replicas" is not a JSON pointer`,
		`{"paths":[""]}`:                                       `is not a JSON pointer below the object's root`,
		`{"paths":["/a"],"target":{"kind":"("}}`:               "invalid kind regex",
		`{"paths":["/a"],"target":{"labelSelector":"a in ("}}`: "invalid label selector",
		`{"paths":["/a"],"target":{"knd":"Deployment"}}`:       `unknown field "knd"`,
		`{"paths":["/a"]} {}`:                                  "more than one JSON value",
		`paths: [/a]`:                                          "not an ignore rule",
	} {
		if _, err := ParseFluxIgnoreRule(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func FuzzParseFluxIgnoreRule(f *testing.F) {
	f.Add(`{"paths":["/spec/replicas"],"target":{"kind":"Deployment"}}`)
	f.Add(`{"paths":["/spec/template/spec/containers/0/image","/metadata/labels/a~1b"]}`)
	f.Add(`{"paths":["/a"],"target":{"annotationSelector":"x in (a,b)","name":"w.*"}}`)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseFluxIgnoreRule(s)
		if err != nil {
			return
		}
		again, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseFluxIgnoreRule(string(again)); err != nil {
			t.Fatalf("%s parsed, its JSON %s does not: %v", s, again, err)
		}
	})
}

// Of each ignored path whose value the dry-run changes, the payload leaves out what another
// manager's Apply entry owns and takes the live value of what Flux alone applies; a list
// index is written as the key of the live item, and a key holding a number matches no item
// (ssa compares the item's integer with the key's float).
func TestFluxIgnoredPayload(t *testing.T) {
	live := obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","managedFields":[
		{"manager":"kustomize-controller","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:paused":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}},
		{"manager":"hpa","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}},
		{"manager":"hotfix","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{"f:image":{}}}}}}}},
		{"manager":"scaler","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:minReadySeconds":{}}}}]},
		"spec":{"replicas":5,"paused":true,"minReadySeconds":9,"template":{"spec":{"containers":[{"name":"app","image":"web:2","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}}}`)
	cfg := obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},
		"spec":{"replicas":2,"paused":false,"minReadySeconds":1,"template":{"spec":{"containers":[{"name":"app","image":"web:1","ports":[{"containerPort":8080,"protocol":"TCP"}]}]}}}}`)
	dry := obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},
		"spec":{"replicas":2,"paused":false,"minReadySeconds":1,"template":{"spec":{"containers":[{"name":"app","image":"web:1","ports":[{"containerPort":8080,"protocol":"TCP"}]}]}}}}`)
	ig, err := compileFluxIgnore([]FluxIgnoreRule{{Paths: []string{
		"/spec/replicas", "/spec/paused", "/spec/minReadySeconds", "/spec/template/spec/containers/0/image",
		"/spec/template/spec/containers/0/ports/0/containerPort", "/spec/strategy"}}})
	if err != nil {
		t.Fatal(err)
	}
	payload, stripped, adopted, err := fluxIgnoredPayload(cfg, live, dry, ig, "kustomize-controller")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/spec/replicas", "/spec/template/spec/containers/0/image"}; !reflect.DeepEqual(stripped, want) {
		t.Errorf("left out %v, want %v", stripped, want)
	}
	// minReadySeconds: an Update entry is not an applier's; containerPort: below an index
	// ssa finds no list, so nobody else owns it.
	if want := []string{"/spec/paused", "/spec/minReadySeconds", "/spec/template/spec/containers/0/ports/0/containerPort"}; !reflect.DeepEqual(adopted, want) {
		t.Errorf("adopted %v, want %v", adopted, want)
	}
	want := obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},
		"spec":{"paused":true,"minReadySeconds":9,"template":{"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}}}`)
	if !reflect.DeepEqual(payload, want) {
		t.Errorf("payload\n%v\nwant\n%v", payload, want)
	}
	if cfg["spec"].(map[string]any)["replicas"] != int64(2) {
		t.Error("the manifest was changed")
	}
}

// A list whose key holds a number: ssa compares the live item's integer with the key's
// float and finds no key, so the field is Flux's alone whoever applies it.
func TestFluxIgnoreNumberKeysMatchNoItem(t *testing.T) {
	live := obj(`{"metadata":{"managedFields":[
		{"manager":"other","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{"f:name":{}}},"f:selector":{"k:{\"name\":\"a\"}":{"f:value":{}}}}}}]},
		"spec":{"ports":[{"port":80,"protocol":"TCP","name":"http"}],"selector":[{"name":"a","value":"x"}]}}`)
	if ownedByAnotherApplier(live, appliedEntries(live), "/spec/ports/0/name", "kustomize-controller") {
		t.Error("ports/0/name: owned by another, want nobody (number key)")
	}
	if !ownedByAnotherApplier(live, appliedEntries(live), "/spec/selector/0/value", "kustomize-controller") {
		t.Error("selector/0/value: want owned by other (string key)")
	}
	if ownedByAnotherApplier(live, appliedEntries(live), "/spec/selector/0/value", "other") {
		t.Error("the manager's own entry counts")
	}
}

func obj(s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(err)
	}
	out, err := patchJSON(m, []any{})
	if err != nil {
		panic(err)
	}
	return out
}

// Flux applies under spec.ignore as fluxcd/pkg/ssa v0.83.0 (kustomize-controller v1.10.1's)
// does against a real kube-apiserver 1.37.2 (testdata/flux-ignore/record.sh, driven by
// test/fluxssa): an ignored field that drifted to another applier's value is no drift, and
// is left out of the apply when something else drifted; an Update manager's value is
// applied as Flux's; a rule whose target does not select the object ignores nothing; of
// the rules without a target only the last counts. The predicted object is the stored one,
// times and resourceVersion aside.
func TestFluxIgnoreIsKustomizeControllers(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "flux-ignore", "*", "want.json"))
	if err != nil || len(dirs) < 8 {
		t.Fatalf("%d cases: %v", len(dirs), err)
	}
	e := merge.New(schema.MustNewRegistry(kube.Minor(37)), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Minor(37)}))
	for _, want := range dirs {
		dir := filepath.Dir(want)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			read := func(name string) []byte {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			var rules []json.RawMessage
			if err := json.Unmarshal(read("ignore.json"), &rules); err != nil {
				t.Fatal(err)
			}
			var opts []string
			for _, r := range rules {
				opts = append(opts, string(r))
			}
			applier, err := fluxKind().New(Settings{Options: map[string][]string{"flux-ignore": opts}})
			if err != nil {
				t.Fatal(err)
			}
			live := obj(string(read("live.json")))
			res, err := applier.Apply(e, merge.Request{Live: live, Object: objFromYAML(t, string(read("manifest.yaml"))), Now: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)}) // after the recording
			if err != nil {
				t.Fatal(err)
			}
			if res.Rejection != nil {
				t.Fatalf("rejected: %s", res.Rejection.Message)
			}
			action := strings.Fields(string(read("action.txt")))
			if len(action) != 2 {
				t.Fatalf("action.txt: %q", read("action.txt"))
			}
			if wantUnchanged := action[1] == "unchanged"; (res.Action == merge.ActionUnchanged) != wantUnchanged {
				t.Errorf("action %s, Flux's %s", res.Action, action[1])
			}
			strip := func(o map[string]any) map[string]any {
				o = unstructured.DeepCopyObject(o)
				md := metadataOf(o)
				delete(md, "resourceVersion")
				for _, e := range unstructured.List(md, "managedFields") {
					delete(e.(map[string]any), "time")
				}
				return o
			}
			got, stored := strip(res.Object), strip(obj(string(read("want.json"))))
			if !reflect.DeepEqual(got, stored) {
				g, _ := json.MarshalIndent(got, "", " ")
				w, _ := json.MarshalIndent(stored, "", " ")
				t.Errorf("predicted:\n%s\nstored:\n%s", g, w)
			}
		})
	}
}
