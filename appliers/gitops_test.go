package appliers

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// A gitopsCase is one file of testdata/gitops: writes that build the live object, the sync
// of one GitOps controller, and what the sync must leave. The expectations are derived by
// hand from the controllers' code (each file's doc says which), not recorded from a run.
type gitopsCase struct {
	Doc   string        `json:"doc"`
	Setup []gitopsWrite `json:"setup"`
	Sync  struct {
		Applier  string         `json:"applier"` // argocd | flux
		Manifest string         `json:"manifest"`
		ArgoCD   *ArgoCDOptions `json:"argocd"`
		Flux     *struct {
			FluxOptions
			RoundTrip bool `json:"roundTrip"` // Normalize with internal/defaults.Normalize
		} `json:"flux"`
	} `json:"sync"`
	Want gitopsWant `json:"want"`
}

// gitopsWrite is one write of the setup, at setup time i (base + i minutes).
type gitopsWrite struct {
	Op       string         `json:"op"` // create (POST) | apply | merge-patch | scale | argocd | flux
	Manager  string         `json:"manager"`
	Force    bool           `json:"force"`
	Object   string         `json:"object"`   // create, apply, argocd, flux: the body
	Patch    map[string]any `json:"patch"`    // merge-patch: RFC 7386 patch of the live object
	Replicas int64          `json:"replicas"` // scale
}

type gitopsWant struct {
	Action        merge.Action       `json:"action"`
	Steps         []merge.Step       `json:"steps"`
	ManagedFields []wantEntry        `json:"managedFields"`
	Conflicts     []string           `json:"conflicts"` // `<manager as the server prints it>: <path>`
	Removed       []string           `json:"removed"`   // managers whose entries disappear
	Taken         wantPaths          `json:"taken"`     // manager → paths it loses (subset)
	Owns          wantPaths          `json:"owns"`      // "manager/Operation[/sub]" → paths it owns after
	NotOwns       wantPaths          `json:"notOwns"`
	Absent        []string           `json:"absent"` // JSON pointers absent from the object
	Values        []wantValue        `json:"values"`
	Warnings      []string           `json:"warnings"` // substrings of some warning
	Deleted       []string           `json:"deleted"`  // subset of Result.Deleted
	Rejected      *merge.StatusError `json:"rejected"`
	ObjectIsLive  bool               `json:"objectIsLive"` // the live object comes back untouched
}

type wantPaths map[string][]string

type wantValue struct {
	Pointer string `json:"pointer"`
	Value   any    `json:"value"`
}

// wantEntry is an expected managedFields entry; Time is "none", "sync" or "setupN".
type wantEntry struct {
	Manager     string              `json:"manager"`
	Operation   fieldpath.Operation `json:"operation"`
	APIVersion  string              `json:"apiVersion"`
	Subresource string              `json:"subresource"`
	Time        string              `json:"time"`
	FieldsV1    map[string]any      `json:"fieldsV1"`
}

var gitopsBase = time.Date(2026, 11, 3, 8, 0, 0, 0, time.UTC)

func gitopsTime(tok string) (*time.Time, error) {
	switch {
	case tok == "none":
		return nil, nil
	case tok == "sync":
		t := gitopsBase.Add(time.Hour)
		return &t, nil
	case strings.HasPrefix(tok, "setup"):
		var n int
		if _, err := fmt.Sscanf(tok, "setup%d", &n); err != nil {
			return nil, fmt.Errorf("bad time %q", tok)
		}
		t := gitopsBase.Add(time.Duration(n) * time.Minute)
		return &t, nil
	}
	return nil, fmt.Errorf("bad time %q", tok)
}

func TestGitOpsAppliers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "gitops", "*.case.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".case.yaml"), func(t *testing.T) {
			var c gitopsCase
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := yaml.UnmarshalStrict(b, &c); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			runGitOpsCase(t, e, c)
		})
	}
}

func runGitOpsCase(t *testing.T, e *merge.Engine, c gitopsCase) {
	t.Helper()
	argo, flux := gitopsOptions(c)
	var live map[string]any
	for i, w := range c.Setup {
		now := gitopsBase.Add(time.Duration(i+1) * time.Minute)
		res, err := gitopsSetupWrite(e, live, w, now, argo, flux)
		if err != nil {
			t.Fatalf("setup %d: %v", i+1, err)
		}
		if res.Rejection != nil {
			t.Fatalf("setup %d (%s by %s): rejected: %s", i+1, w.Op, w.Manager, res.Rejection.Message)
		}
		live = res.Object
		if res.Action == merge.ActionCreate {
			metadataOf(live)["uid"] = "6f1f4b5c-2b7e-4a8e-9d1e-2c3a4b5c6d7e"
			metadataOf(live)["creationTimestamp"] = now.Format(time.RFC3339)
		}
	}
	manifest, err := os.ReadFile(filepath.Join("testdata", "gitops", c.Sync.Manifest))
	if err != nil {
		t.Fatal(err)
	}
	req := merge.Request{Live: live, Object: objFromYAML(t, string(manifest)), Now: gitopsBase.Add(time.Hour)}
	var res *merge.Result
	switch c.Sync.Applier {
	case "argocd":
		res, err = ArgoCD(e, req, argo)
	case "flux":
		res, err = Flux(e, req, flux)
	default:
		t.Fatalf("unknown applier %q", c.Sync.Applier)
	}
	if err != nil {
		t.Fatal(err)
	}
	checkGitOpsResult(t, c.Want, live, res)
}

// gitopsOptions are the case's options, also used by the setup's argocd and flux writes.
func gitopsOptions(c gitopsCase) (ArgoCDOptions, FluxOptions) {
	var argo ArgoCDOptions
	var flux FluxOptions
	if c.Sync.ArgoCD != nil {
		argo = *c.Sync.ArgoCD
	}
	if c.Sync.Flux != nil {
		flux = c.Sync.Flux.FluxOptions
		if c.Sync.Flux.RoundTrip {
			flux.Normalize = func(obj map[string]any) error {
				av, _ := obj["apiVersion"].(string)
				k, _ := obj["kind"].(string)
				return defaults.MustFor(kube.Default()).Normalize(av, k, obj)
			}
		}
	}
	return argo, flux
}

func gitopsSetupWrite(e *merge.Engine, live map[string]any, w gitopsWrite, now time.Time, argo ArgoCDOptions, flux FluxOptions) (*merge.Result, error) {
	switch w.Op {
	case "argocd", "flux":
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(w.Object), &obj); err != nil {
			return nil, err
		}
		if w.Op == "argocd" {
			return ArgoCD(e, merge.Request{Live: live, Object: obj, Now: now}, argo)
		}
		return Flux(e, merge.Request{Live: live, Object: obj, Now: now}, flux)
	case "create":
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(w.Object), &obj); err != nil {
			return nil, err
		}
		return e.Create(merge.Request{Object: obj, Manager: w.Manager, Now: now})
	case "apply":
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(w.Object), &obj); err != nil {
			return nil, err
		}
		return e.Apply(merge.Request{Live: live, Object: obj, Manager: w.Manager, Force: w.Force, Now: now})
	case "merge-patch":
		next := mergePatch(unstructured.DeepCopyObject(live), w.Patch).(map[string]any)
		return e.Update(merge.Request{Live: live, Object: next, Manager: w.Manager, Now: now})
	case "scale":
		ns, name := nsName(live)
		scale := map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale",
			"metadata": map[string]any{"name": name, "namespace": ns},
			"spec":     map[string]any{"replicas": w.Replicas}}
		ep := merge.Endpoint{GVK: schema.GVKOf(live), Namespace: ns, Name: name, Subresource: "scale"}
		return e.Update(merge.Request{Live: live, Object: scale, Endpoint: ep, Manager: w.Manager, Now: now})
	}
	return nil, fmt.Errorf("unknown op %q", w.Op)
}

// mergePatch applies an RFC 7386 JSON merge patch.
func mergePatch(target any, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return unstructured.DeepCopy(patch)
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergePatch(t[k], v)
	}
	return t
}

func checkGitOpsResult(t *testing.T, want gitopsWant, live map[string]any, res *merge.Result) {
	t.Helper()
	if want.Rejected != nil {
		if res.Rejection == nil || res.Rejection.Code != want.Rejected.Code || !strings.Contains(res.Rejection.Message, want.Rejected.Message) {
			t.Errorf("rejection %+v, want %+v", res.Rejection, want.Rejected)
		}
	} else if res.Rejection != nil {
		t.Fatalf("rejected: %s (steps %+v)", res.Rejection.Message, res.Steps)
	}
	if want.Action != "" && res.Action != want.Action {
		t.Errorf("action %s, want %s", res.Action, want.Action)
	}
	if want.Steps != nil && (len(res.Steps) != len(want.Steps) || len(want.Steps) > 0 && !jsonEqual(res.Steps, want.Steps)) {
		t.Errorf("steps\n%s\nwant\n%s", mustJSON(res.Steps), mustJSON(want.Steps))
	}
	if want.ManagedFields != nil {
		checkEntries(t, res.ManagedFields, want.ManagedFields)
		if got, _, _ := fieldpath.EntriesOf(res.Object); !jsonEqual(got, res.ManagedFields) {
			t.Errorf("Result.ManagedFields and the object's managedFields differ")
		}
	}
	var conflicts []string
	for _, c := range res.Conflicts {
		conflicts = append(conflicts, c.Manager.String()+": "+c.Path)
	}
	if want.Conflicts != nil && (len(conflicts) != len(want.Conflicts) || len(conflicts) > 0 && !jsonEqual(conflicts, want.Conflicts)) {
		t.Errorf("conflicts %q, want %q", conflicts, want.Conflicts)
	}
	changes := map[string]merge.OwnershipChange{}
	for _, o := range res.Ownership {
		changes[o.Manager.Manager] = o
	}
	for _, m := range want.Removed {
		if !changes[m].Removed {
			t.Errorf("entry of %s not removed (ownership %s)", m, mustJSON(res.Ownership))
		}
	}
	for m, ps := range want.Taken {
		for _, p := range ps {
			if !contains(changes[m].Taken, p) {
				t.Errorf("%s does not lose %s; taken: %q", m, p, changes[m].Taken)
			}
		}
	}
	owned := func(id string) []string {
		for _, e := range res.ManagedFields {
			key := e.Manager + "/" + string(e.Operation)
			if e.Subresource != "" {
				key += "/" + e.Subresource
			}
			if key == id {
				s, err := fieldpath.FieldsV1ToSet(e.FieldsV1)
				if err != nil {
					t.Fatal(err)
				}
				return leafPaths(s)
			}
		}
		return nil
	}
	for id, ps := range want.Owns {
		got := owned(id)
		for _, p := range ps {
			if !contains(got, p) {
				t.Errorf("%s does not own %s; owns %q", id, p, got)
			}
		}
	}
	for id, ps := range want.NotOwns {
		got := owned(id)
		for _, p := range ps {
			if contains(got, p) {
				t.Errorf("%s still owns %s", id, p)
			}
		}
	}
	for _, p := range want.Absent {
		if v, ok := pointerValue(res.Object, p); ok {
			t.Errorf("%s = %v, want it absent", p, v)
		}
	}
	for _, v := range want.Values {
		got, ok := pointerValue(res.Object, v.Pointer)
		if !ok || !jsonEqual(got, v.Value) {
			t.Errorf("%s = %s (present %v), want %s", v.Pointer, mustJSON(got), ok, mustJSON(v.Value))
		}
	}
	for _, w := range want.Warnings {
		found := false
		for _, g := range res.Warnings {
			found = found || strings.Contains(g, w)
		}
		if !found {
			t.Errorf("no warning containing %q in %q", w, res.Warnings)
		}
	}
	for _, d := range want.Deleted {
		if !contains(res.Deleted, d) {
			t.Errorf("%s not in deleted %q", d, res.Deleted)
		}
	}
	if want.ObjectIsLive && !jsonEqual(res.Object, live) {
		t.Errorf("object changed:\n%s\nlive:\n%s", mustJSON(res.Object), mustJSON(live))
	}
}

func checkEntries(t *testing.T, got []fieldpath.Entry, want []wantEntry) {
	t.Helper()
	describe := func() string {
		var lines []string
		for _, e := range got {
			ts := "none"
			if e.Time != nil {
				ts = e.Time.Format(time.RFC3339)
			}
			lines = append(lines, fmt.Sprintf("  %s/%s %s %s sub=%q %s", e.Manager, e.Operation, e.APIVersion, ts, e.Subresource, e.FieldsV1))
		}
		return strings.Join(lines, "\n")
	}
	if len(got) != len(want) {
		t.Errorf("%d managedFields entries, want %d:\n%s", len(got), len(want), describe())
		return
	}
	for i, w := range want {
		g := got[i]
		if g.Manager != w.Manager || g.Operation != w.Operation || g.APIVersion != w.APIVersion || g.Subresource != w.Subresource {
			t.Errorf("entry %d is %s/%s %s %q, want %s/%s %s %q\n%s", i, g.Manager, g.Operation, g.APIVersion, g.Subresource,
				w.Manager, w.Operation, w.APIVersion, w.Subresource, describe())
			continue
		}
		if w.Time != "" {
			wt, err := gitopsTime(w.Time)
			if err != nil {
				t.Fatal(err)
			}
			if (wt == nil) != (g.Time == nil) || (wt != nil && !wt.Equal(*g.Time)) {
				t.Errorf("entry %d (%s) time %v, want %s", i, g.Manager, g.Time, w.Time)
			}
		}
		if w.FieldsV1 != nil {
			raw, _ := json.Marshal(w.FieldsV1)
			ws, err := fieldpath.FieldsV1ToSet(raw)
			if err != nil {
				t.Fatalf("entry %d: bad expected fieldsV1: %v", i, err)
			}
			gs, err := fieldpath.FieldsV1ToSet(g.FieldsV1)
			if err != nil {
				t.Fatal(err)
			}
			if !gs.Equals(ws) {
				t.Errorf("entry %d (%s) fields\n%s\nwant\n%s\nmissing %q\nextra %q", i, g.Manager, g.FieldsV1, raw,
					leafPaths(ws.Difference(gs)), leafPaths(gs.Difference(ws)))
			}
		}
	}
}

// pointerValue reads a JSON pointer (RFC 6901) in an object.
func pointerValue(obj map[string]any, ptr string) (any, bool) {
	var cur any = obj
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func jsonEqual(a, b any) bool {
	var x, y any
	if err := json.Unmarshal([]byte(mustJSON(a)), &x); err != nil {
		return false
	}
	if err := json.Unmarshal([]byte(mustJSON(b)), &y); err != nil {
		return false
	}
	return mustJSON(x) == mustJSON(y)
}

// TestFluxReplaceManagers checks fluxcd/pkg/ssa PatchReplaceFieldsManagers (patch.go) entry by
// entry: prefix and exact matching, subresources and other operations left alone, the
// manager's last Apply entry absorbing the rest whatever their apiVersion and keeping its own
// apiVersion and time, the first match renamed when the manager has no Apply entry, and the
// merged entry moved to the end.
func TestFluxReplaceManagers(t *testing.T) {
	t1 := gitopsBase.Add(time.Minute)
	t2 := gitopsBase.Add(2 * time.Minute)
	entry := func(m string, op fieldpath.Operation, av, sub string, tm *time.Time, f string) fieldpath.Entry {
		return fieldpath.Entry{Manager: m, Operation: op, APIVersion: av, Subresource: sub, Time: tm, FieldsType: fieldpath.FieldsTypeV1, FieldsV1: json.RawMessage(f)}
	}
	const (
		up = fieldpath.OperationUpdate
		ap = fieldpath.OperationApply
	)
	tests := []struct {
		name     string
		entries  []fieldpath.Entry
		managers []FluxFieldManager
		edited   bool
		want     []fieldpath.Entry
	}{
		{"prefix takes kubectl-edit and kubectl-client-side-apply into the existing Apply entry",
			[]fieldpath.Entry{
				entry("kustomize-controller", ap, "apps/v1", "", &t1, `{"f:spec":{"f:replicas":{}}}`),
				entry("kubectl-edit", up, "apps/v1", "", &t2, `{"f:metadata":{"f:labels":{"f:x":{}}}}`),
				entry("kube-controller-manager", up, "apps/v1", "scale", nil, `{"f:spec":{"f:replicas":{}}}`),
				entry("kubectl-client-side-apply", up, "apps/v1beta1", "", &t2, `{"f:spec":{"f:paused":{}}}`),
			},
			DefaultFluxTakeOver(""), true,
			[]fieldpath.Entry{
				entry("kube-controller-manager", up, "apps/v1", "scale", nil, `{"f:spec":{"f:replicas":{}}}`),
				entry("kustomize-controller", ap, "apps/v1", "", &t1, `{"f:metadata":{"f:labels":{"f:x":{}}},"f:spec":{"f:paused":{},"f:replicas":{}}}`),
			}},
		{"without an Apply entry the first match is renamed and keeps its apiVersion and time",
			[]fieldpath.Entry{
				entry("before-first-apply", up, "v1", "", &t1, `{"f:data":{"f:a":{}}}`),
				entry("kubectl-client-side-apply", up, "v1", "", &t2, `{"f:data":{"f:b":{}}}`),
				entry("kubectl", up, "v1", "status", &t2, `{"f:status":{}}`),
			},
			DefaultFluxTakeOver(""), true,
			[]fieldpath.Entry{
				entry("kubectl", up, "v1", "status", &t2, `{"f:status":{}}`),
				entry("kustomize-controller", ap, "v1", "", &t1, `{"f:data":{"f:a":{},"f:b":{}}}`),
			}},
		{"exact match leaves longer names alone; Apply entries of other managers stay",
			[]fieldpath.Entry{
				entry("flux", ap, "v1", "", &t1, `{"f:data":{"f:a":{}}}`),
				entry("flux-apply-prefix", ap, "v1", "", &t1, `{"f:data":{"f:b":{}}}`),
				entry("kustomize-controller", ap, "v1", "", &t2, `{"f:data":{"f:c":{}}}`),
			},
			[]FluxFieldManager{{Name: "flux", Operation: ap, ExactMatch: true}}, true,
			[]fieldpath.Entry{
				entry("flux-apply-prefix", ap, "v1", "", &t1, `{"f:data":{"f:b":{}}}`),
				entry("kustomize-controller", ap, "v1", "", &t2, `{"f:data":{"f:a":{},"f:c":{}}}`),
			}},
		{"nothing matches: no patch",
			[]fieldpath.Entry{entry("helm", up, "v1", "", &t1, `{"f:data":{"f:a":{}}}`)},
			DefaultFluxTakeOver(""), false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, edited, err := fluxReplaceManagers(tc.entries, tc.managers, FluxManager)
			if err != nil {
				t.Fatal(err)
			}
			if edited != tc.edited {
				t.Fatalf("edited %v, want %v", edited, tc.edited)
			}
			if !edited {
				return
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %s\nwant %s", mustJSON(got), mustJSON(tc.want))
			}
			for i := range got {
				gt, wt := got[i].Time, tc.want[i].Time
				if !sameEntryIgnoringTime(got[i], tc.want[i]) || (gt == nil) != (wt == nil) || gt != nil && !gt.Equal(*wt) {
					t.Errorf("entry %d: %s\nwant %s", i, mustJSON(got[i]), mustJSON(tc.want[i]))
				}
			}
		})
	}
}

// TestArgoCDTracking checks the tracking metadata Argo CD's repo server adds to targets
// (util/argo/resource_tracking.go SetAppInstance).
func TestArgoCDTracking(t *testing.T) {
	long := strings.Repeat("a", 60) + "-b-c" // 64 characters: cut to 63, then the trailing "-" goes
	tests := []struct {
		opts      ArgoCDOptions
		obj       string
		wantAnn   map[string]string
		wantLabel string
	}{
		{ArgoCDOptions{Application: "guestbook"}, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: prod}\n",
			map[string]string{ArgoCDTrackingAnnotation: "guestbook:apps/Deployment:prod/web"}, ""},
		{ArgoCDOptions{Application: "infra", DestinationNamespace: "kube-system", InstallationID: "eu-1"}, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\n",
			map[string]string{ArgoCDTrackingAnnotation: "infra:rbac.authorization.k8s.io/ClusterRole:kube-system/reader", ArgoCDInstallationIDAnnotation: "eu-1"}, ""},
		{ArgoCDOptions{Application: "guestbook", Tracking: ArgoCDTrackLabel}, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\n",
			nil, "guestbook"},
		{ArgoCDOptions{Application: long, Tracking: ArgoCDTrackAnnotationAndLabel}, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\n",
			map[string]string{ArgoCDTrackingAnnotation: long + ":/ConfigMap:ns/c"}, strings.Repeat("a", 60) + "-b"},
		{ArgoCDOptions{Application: "guestbook"}, "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b.io}\n", nil, ""},
	}
	for _, tc := range tests {
		obj := objFromYAML(t, tc.obj)
		if err := argoSetTracking(obj, tc.opts); err != nil {
			t.Fatal(err)
		}
		ann := map[string]string{}
		for k, v := range annotations(obj) {
			ann[k] = v.(string)
		}
		if len(ann) != len(tc.wantAnn) || !jsonEqual(ann, tc.wantAnn) && len(tc.wantAnn) > 0 {
			t.Errorf("%s: annotations %v, want %v", tc.opts.Application, ann, tc.wantAnn)
		}
		labels, _ := metadataOf(obj)["labels"].(map[string]any)
		if got, _ := labels[ArgoCDInstanceLabel].(string); got != tc.wantLabel {
			t.Errorf("%s: label %q, want %q", tc.opts.Application, got, tc.wantLabel)
		}
	}
}

// TestFluxNormalize checks the manifest preparation of normalize.UnstructuredList.
func TestFluxNormalize(t *testing.T) {
	obj := objFromYAML(t, `apiVersion: v1
kind: Secret
metadata: {name: s, namespace: ns, creationTimestamp: null}
stringData: {password: hunter2}
data: {user: YWRtaW4=}
status: {}
`)
	fluxNormalize(obj, nil)
	want := objFromYAML(t, "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ns}\ndata: {user: YWRtaW4=, password: aHVudGVyMg==}\n")
	if !jsonEqual(obj, want) {
		t.Errorf("secret %s, want %s", mustJSON(obj), mustJSON(want))
	}
	crd := objFromYAML(t, "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b.io}\nstatus: {storedVersions: [v1]}\n")
	fluxNormalize(crd, nil)
	if _, ok := crd["status"]; !ok {
		t.Errorf("a CRD's status is kept")
	}
	job := objFromYAML(t, "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: j, namespace: ns}\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers: [{name: c, ports: [{containerPort: 9000}]}]\n          initContainers: [{name: i, ports: [{containerPort: 9001}]}]\n")
	fluxNormalize(job, nil)
	if v, _ := pointerValue(job, "/spec/jobTemplate/spec/template/spec/containers/0/ports/0/protocol"); v != "TCP" {
		t.Errorf("container port protocol %v, want TCP", v)
	}
	if _, ok := pointerValue(job, "/spec/jobTemplate/spec/template/spec/initContainers/0/ports/0/protocol"); ok {
		t.Errorf("init containers' ports are left alone, as in Flux")
	}
}

// TestFluxDriftAndMigration checks ssa's hasDrifted (empty and absent maps are equal; metadata
// other than labels and annotations, and status, do not count) and PatchMigrateToVersion
// (every entry, subresources included, moves to the manifest's apiVersion).
func TestFluxDriftAndMigration(t *testing.T) {
	live := objFromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns, resourceVersion: '7', labels: {}}\ndata: {a: b}\n")
	dry := objFromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns, resourceVersion: '8'}\ndata: {a: b}\n")
	if fluxDrifted(live, dry) {
		t.Errorf("drift reported for equal objects")
	}
	dry["data"] = map[string]any{"a": "c"}
	if !fluxDrifted(live, dry) {
		t.Errorf("no drift reported for changed data")
	}
	entries := []fieldpath.Entry{
		{Manager: "a", Operation: fieldpath.OperationApply, APIVersion: "example.com/v1beta1"},
		{Manager: "b", Operation: fieldpath.OperationUpdate, APIVersion: "example.com/v1", Subresource: "status"},
	}
	got, changed := fluxMigrateVersion(entries, "example.com/v1")
	if !changed || got[0].APIVersion != "example.com/v1" || got[1].APIVersion != "example.com/v1" || entries[0].APIVersion != "example.com/v1beta1" {
		t.Errorf("migrated %s (changed %v); input %s", mustJSON(got), changed, mustJSON(entries))
	}
	if _, changed := fluxMigrateVersion(got, "example.com/v1"); changed {
		t.Errorf("a second migration changes nothing")
	}
}
