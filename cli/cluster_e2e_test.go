package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	sigsyaml "sigs.k8s.io/yaml"
)

// TestClusterE2E runs ssa-diff against a real kube-apiserver 1.37.2 and etcd (make e2e):
// objects are written by several managers, then for each case ssa-diff reads the live state
// from the cluster, with the read-only permissions of docs/rbac-reader.yaml, and its
// prediction must be the server's own answer to the same apply sent with dryRun=All: the
// object and its managedFields, or the refusal (code and message byte for byte).
func TestClusterE2E(t *testing.T) {
	if os.Getenv("SSA_DIFF_E2E") == "" {
		t.Skip("needs a real kube-apiserver 1.37.2 and etcd: run make e2e (SSA_DIFF_E2E=1; binaries from $SSA_DIFF_KUBE_BIN or ~/.cache/kube-apiserver-1.37.2/bin)")
	}
	srv := clustertest.StartAPIServer(t, clustertest.BinDir())
	k := newKube(t, &rest.Config{Host: srv.URL, BearerToken: srv.AdminToken, TLSClientConfig: rest.TLSClientConfig{CAData: srv.CA}})

	// The reader of the README: a ClusterRole with get and list, bound to a service account.
	k.apply("setup", false, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ci"}}`)
	k.apply("setup", false, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"e2e"}}`)
	rbac, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "rbac-reader.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range strings.Split(string(rbac), "\n---\n") {
		k.apply("setup", false, doc)
	}
	k.apply("setup", false, `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"nobody","namespace":"ci"}}`)
	reader := srv.Kubeconfig(t, "reader", k.token("ci", "ssa-diff"), "e2e")
	nobody := srv.Kubeconfig(t, "nobody", k.token("ci", "nobody"), "e2e")

	// The live state, written by several managers.
	k.apply("team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"a":"1","b":"2"}}`)
	k.apply("team-b", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"c":"3"}}`)
	k.update("kubectl-edit", "v1", "ConfigMap", "e2e", "settings", "", func(obj map[string]any) {
		obj["data"].(map[string]any)["d"] = "4"
	})
	k.apply("team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"labels","namespace":"e2e","labels":{"team":"a"}}}`)
	k.apply("deployer", false, deployment("nginx:1.27", `"replicas":2,`, `[{"name":"A","value":"1"}]`))
	k.update("hpa-controller", "autoscaling/v1", "Scale", "e2e", "web", "scale", func(obj map[string]any) {
		obj["spec"] = map[string]any{"replicas": int64(5)}
	})
	k.update("kubectl-rollout", "apps/v1", "Deployment", "e2e", "web", "", func(obj map[string]any) {
		tmpl := obj["spec"].(map[string]any)["template"].(map[string]any)
		md := tmpl["metadata"].(map[string]any)
		md["annotations"] = map[string]any{"kubectl.kubernetes.io/restartedAt": "2026-12-01T10:00:00Z"}
	})
	k.apply("setup", false, backupCRD)
	k.waitEstablished("backups.stable.example.com")
	k.apply("ops", false, `{"apiVersion":"stable.example.com/v1","kind":"Backup","metadata":{"name":"nightly","namespace":"e2e"},
		"spec":{"schedule":"0 1 * * *","targets":[{"name":"db","path":"/db"}]}}`)

	cases := []struct {
		name, manager string
		force         bool
		manifest      string
	}{
		{"reapply-unchanged", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"a":"1","b":"2"}}`},
		{"drop-a-field", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"a":"1"}}`},
		{"conflict-with-an-applier", "team-b", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"a":"9","c":"3"}}`},
		{"conflict-with-an-update", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"a":"1","b":"2","d":"5"}}`},
		{"force-takes-and-drops", "team-b", true, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"a":"9"}}`},
		{"new-manager-same-values", "auditor", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"b":"2"}}`},
		{"name-only-releases-all", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"labels","namespace":"e2e"}}`},
		{"no-namespace-context", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"labels","labels":{"team":"a","tier":"web"}}}`},
		{"create", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fresh","namespace":"e2e"},"data":{"x":"1"}}`},
		{"create-deployment-defaults", "deployer", false, strings.Replace(deployment("nginx:1.27", "", `[]`), `"name":"web"`, `"name":"api"`, 1)},
		{"replicas-owned-through-scale", "deployer", false, deployment("nginx:1.27", `"replicas":3,`, `[{"name":"A","value":"1"}]`)},
		{"image-change", "deployer", false, deployment("nginx:1.28", "", `[{"name":"A","value":"1"},{"name":"B","value":"2"}]`)},
		{"takeover-from-a-rollout", "deployer", true, strings.Replace(deployment("nginx:1.27", `"replicas":2,`, `[{"name":"A","value":"1"}]`),
			`"labels":{"app":"web"}}`, `"labels":{"app":"web"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-12-02T00:00:00Z"}}`, 1)},
		{"custom-resource-list-map", "backup-bot", false, `{"apiVersion":"stable.example.com/v1","kind":"Backup","metadata":{"name":"nightly","namespace":"e2e"},"spec":{"targets":[{"name":"logs","path":"/var/log"}]}}`},
		{"custom-resource-conflict", "backup-bot", false, `{"apiVersion":"stable.example.com/v1","kind":"Backup","metadata":{"name":"nightly","namespace":"e2e"},"spec":{"schedule":"0 2 * * *"}}`},
		{"stale-resource-version", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e","resourceVersion":"1"},"data":{"a":"1"}}`},
		{"uid-mismatch", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e","uid":"00000000-0000-0000-0000-000000000000"},"data":{"a":"1"}}`},
		{"managed-fields-in-body", "team-a", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e","managedFields":[{"manager":"x","operation":"Apply"}]},"data":{"a":"1"}}`},
	}
	// The predictions stamp --now, the server its clock: both later than every time of the
	// live state (entries are ordered by time, and a time equal to a live one reads as kept).
	nextSecond()
	start := time.Now()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			manifest := filepath.Join(dir, "manifest.json")
			if err := os.WriteFile(manifest, []byte(c.manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			saved := filepath.Join(dir, "live.json")
			now := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
			args := []string{"--live-from-cluster", "--kubeconfig", reader, "--save-live", saved, "--applier", "api",
				"--field-manager", c.manager, "-o", "json", "--now", now}
			if c.force {
				args = append(args, "--force-conflicts")
			}
			out, stderr, code := run(t, "", append(args, manifest)...)
			got := oneResult(t, out, stderr)
			live := savedObject(t, saved)

			obj, status := k.dryRunApply(c.manager, c.force, c.manifest)
			if status != nil {
				t.Logf("server: %d %s; ssa-diff: %s, exit %d", status.Code, status.Message, describe(got), code)
			} else {
				mf, _, _ := unstructured.NestedSlice(obj, "metadata", "managedFields")
				t.Logf("server: an object with %d managedFields entries; ssa-diff: %s, exit %d", len(mf), describe(got), code)
			}
			switch {
			case status != nil:
				if got.Error == nil || got.Error.Code != int(status.Code) || got.Error.Message != status.Message {
					t.Errorf("the server answers %d %q\nssa-diff predicts %s (exit %d)\n%s", status.Code, status.Message, describe(got), code, stderr)
				}
				if code != 3 {
					t.Errorf("exit %d, want 3 (a refusal)", code)
				}
			default:
				if got.Error != nil || got.Object == nil {
					t.Fatalf("the server accepts the apply; ssa-diff predicts %s (exit %d)\n%s", describe(got), code, stderr)
				}
				want, pred := normalise(obj, live), normalise(got.Object, live)
				if !reflect.DeepEqual(want, pred) {
					t.Errorf("the objects differ:\n%s", testkit.Diff(want, pred))
				}
				if wantCreate := live == nil; (got.Action == "create") != wantCreate {
					t.Errorf("action %s, live object read: %v", got.Action, live != nil)
				}
			}
			// Replayed offline from what was saved: the same report.
			again, _, code2 := run(t, "", append(args[5:], manifest, saved)...)
			if again != out || code2 != code {
				t.Errorf("the replay of the saved live state differs (exit %d, then %d)", code, code2)
			}
		})
	}
	t.Logf("%d cases in %v", len(cases), time.Since(start).Round(time.Millisecond))

	// Many objects of a kind in a namespace: one paged LIST reads them; each prediction is
	// still the server's answer.
	t.Run("many-read-with-a-list", func(t *testing.T) {
		k.apply("setup", false, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"many"}}`)
		var docs []string
		for i := 0; i < 14; i++ {
			name := fmt.Sprintf("cm-%02d", i)
			if i < 12 { // two are creates
				k.apply("team-a", false, fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":"many"},"data":{"a":"1","b":"2"}}`, name))
			}
			if i%3 == 0 && i < 12 {
				k.apply("team-b", false, fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":"many"},"data":{"c":"3"}}`, name))
			}
			docs = append(docs, fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":"many"},"data":{"a":"%d"}}`, name, i%2))
		}
		nextSecond()
		dir := writeFiles(t, map[string]string{"m.json": strings.Join(docs, "\n")})
		saved := filepath.Join(dir, "live.json")
		out, stderr, _ := run(t, "", "--live-from-cluster", "--kubeconfig", reader, "--save-live", saved, "--applier", "api",
			"--field-manager", "team-a", "-o", "json", "--now", time.Now().UTC().Format(time.RFC3339), filepath.Join(dir, "m.json"))
		if !strings.Contains(stderr, "12 objects read, 2 not found, 0 not readable (0 GET, 1 LIST)") {
			t.Errorf("stderr = %s", stderr)
		}
		var rep struct{ Results []e2eResult }
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != len(docs) {
			t.Fatalf("%v\n%s", err, out)
		}
		data, _ := os.ReadFile(saved)
		objs, _ := input.Split(input.Parse(saved, data))
		lives := map[string]map[string]any{}
		for _, o := range objs {
			if _, _, _, name := o.Meta(); o.GVK().Kind == "ConfigMap" {
				lives[name] = o.Object
			}
		}
		for i, doc := range docs {
			got := rep.Results[i]
			obj, status := k.dryRunApply("team-a", false, doc)
			if status != nil {
				t.Errorf("%s: the server refuses: %s", got.Name, status.Message)
				continue
			}
			if want, pred := normalise(obj, lives[got.Name]), normalise(got.Object, lives[got.Name]); !reflect.DeepEqual(want, pred) {
				t.Errorf("%s: the objects differ:\n%s", got.Name, testkit.Diff(want, pred))
			}
		}
	})

	// Without permissions: every object an error naming the refusal, none a create.
	t.Run("forbidden", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"m.json": cases[0].manifest + "\n" + cases[8].manifest})
		out, stderr, code := run(t, "", "--live-from-cluster", "--kubeconfig", nobody, "-o", "json", filepath.Join(dir, "m.json"))
		if code != 2 {
			t.Errorf("exit %d, want 2\n%s", code, stderr)
		}
		for _, r := range decodeReport(t, out).Results {
			if r.Action != "error" || !strings.Contains(r.Error.Message, `User "system:serviceaccount:ci:nobody" cannot get resource "configmaps"`) {
				t.Errorf("%s: %+v", r.Name, r)
			}
		}
	})
}

// nextSecond waits for the clock's next second.
func nextSecond() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second).Sub(now) + 10*time.Millisecond)
}

func deployment(image, replicas, env string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"e2e"},"spec":{` + replicas +
		`"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"` +
		image + `","ports":[{"containerPort":80}],"env":` + env + `}]}}}}`
}

const backupCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"backups.stable.example.com"},
"spec":{"group":"stable.example.com","scope":"Namespaced","names":{"plural":"backups","singular":"backup","kind":"Backup","listKind":"BackupList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{
"schedule":{"type":"string"},"retain":{"type":"integer","default":7},
"targets":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"path":{"type":"string"}}}}}}}}}}]}}`

type e2eResult struct {
	Name   string
	Action string
	Object map[string]any
	Error  *struct {
		Code    int
		Message string
	}
}

func oneResult(t *testing.T, out, stderr string) e2eResult {
	t.Helper()
	var rep struct{ Results []e2eResult }
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("%v: %d results\n%s\n%s", err, len(rep.Results), out, stderr)
	}
	return rep.Results[0]
}

func describe(r e2eResult) string {
	if r.Error != nil {
		return fmt.Sprintf("%s %d %q", r.Action, r.Error.Code, r.Error.Message)
	}
	return r.Action
}

// savedObject is the live object of the saved read (not the record, nor a CRD), or nil.
func savedObject(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	objs, errs := input.Split(input.Parse(path, data))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, o := range objs {
		if k := o.GVK().Kind; k != "LiveStateRead" && k != "CustomResourceDefinition" {
			return o.Object
		}
	}
	return nil
}

// normalise prepares an object for comparison as the recorded cases are compared: the
// resourceVersion never (an etcd revision), uid and creationTimestamp not on creates, and
// managedFields times stamped by this write as NOW.
func normalise(obj, live map[string]any) map[string]any {
	var o map[string]any
	data, _ := json.Marshal(obj)
	_ = json.Unmarshal(data, &o)
	md, _ := o["metadata"].(map[string]any)
	delete(md, "resourceVersion")
	liveTimes := map[string]bool{}
	if live == nil {
		delete(md, "uid")
		delete(md, "creationTimestamp")
	} else {
		lmd, _ := live["metadata"].(map[string]any)
		mf, _ := lmd["managedFields"].([]any)
		for _, e := range mf {
			if tm, ok := e.(map[string]any)["time"].(string); ok {
				liveTimes[tm] = true
			}
		}
	}
	mf, _ := md["managedFields"].([]any)
	for _, e := range mf {
		em := e.(map[string]any)
		if tm, ok := em["time"].(string); ok && !liveTimes[tm] {
			em["time"] = "NOW"
		}
	}
	return o
}

// clusterAdmin writes to the cluster as its administrator.
type clusterAdmin struct {
	t   *testing.T
	dyn *dynamic.DynamicClient
	res map[string]schema.GroupVersionResource // by apiVersion/kind
}

func newKube(t *testing.T, cfg *rest.Config) *clusterAdmin {
	cfg.QPS, cfg.Burst = 1000, 1000 // not client-go's 5 per second
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	k := &clusterAdmin{t: t, dyn: dyn, res: map[string]schema.GroupVersionResource{}}
	for _, r := range []struct{ av, kind, res string }{
		{"v1", "Namespace", "namespaces"}, {"v1", "ConfigMap", "configmaps"}, {"v1", "ServiceAccount", "serviceaccounts"},
		{"apps/v1", "Deployment", "deployments"}, {"autoscaling/v1", "Scale", "deployments"},
		{"rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles"}, {"rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "clusterrolebindings"},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "customresourcedefinitions"}, {"stable.example.com/v1", "Backup", "backups"},
	} {
		gv, _ := schema.ParseGroupVersion(r.av)
		if r.kind == "Scale" {
			gv = schema.GroupVersion{Group: "apps", Version: "v1"}
		}
		k.res[r.av+"/"+r.kind] = gv.WithResource(r.res)
	}
	return k
}

func (k *clusterAdmin) resource(obj map[string]any) (dynamic.ResourceInterface, string) {
	k.t.Helper()
	u := unstructured.Unstructured{Object: obj}
	gvr, ok := k.res[u.GetAPIVersion()+"/"+u.GetKind()]
	if !ok {
		k.t.Fatalf("no resource for %s %s", u.GetAPIVersion(), u.GetKind())
	}
	if ns := u.GetNamespace(); ns != "" {
		return k.dyn.Resource(gvr).Namespace(ns), u.GetName()
	}
	return k.dyn.Resource(gvr), u.GetName()
}

func (k *clusterAdmin) decode(doc string) map[string]any {
	k.t.Helper()
	var obj map[string]any
	if err := sigsyaml.Unmarshal([]byte(doc), &obj); err != nil {
		k.t.Fatalf("%v\n%s", err, doc)
	}
	return obj
}

// apply sends a server-side apply as manager.
func (k *clusterAdmin) apply(manager string, force bool, doc string) {
	k.t.Helper()
	obj := k.decode(doc)
	data, _ := json.Marshal(obj)
	r, name := k.resource(obj)
	if _, err := r.Patch(context.Background(), name, types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: manager, Force: &force}); err != nil {
		k.t.Fatalf("apply as %s: %v\n%s", manager, err, doc)
	}
}

// dryRunApply is the server's answer to the apply with dryRun=All: the object, or the
// refusal. A manifest without namespace goes to namespace e2e, as ssa-diff's context says.
func (k *clusterAdmin) dryRunApply(manager string, force bool, doc string) (map[string]any, *metav1.Status) {
	k.t.Helper()
	obj := k.decode(doc)
	u := unstructured.Unstructured{Object: obj}
	gvr := k.res[u.GetAPIVersion()+"/"+u.GetKind()]
	ns := u.GetNamespace()
	if ns == "" {
		ns = "e2e"
	}
	out, err := k.dyn.Resource(gvr).Namespace(ns).Patch(context.Background(), u.GetName(), types.ApplyPatchType, []byte(doc),
		metav1.PatchOptions{FieldManager: manager, Force: &force, DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		var se apierrors.APIStatus
		if ok := asStatus(err, &se); ok {
			st := se.Status()
			return nil, &st
		}
		k.t.Fatalf("dry run: %v", err)
	}
	return out.Object, nil
}

func asStatus(err error, se *apierrors.APIStatus) bool {
	s, ok := err.(apierrors.APIStatus)
	if ok {
		*se = s
	}
	return ok
}

// update reads an object (or its subresource), changes it and writes it back as manager.
func (k *clusterAdmin) update(manager, apiVersion, kind, ns, name, subresource string, change func(map[string]any)) {
	k.t.Helper()
	gvr := k.res[apiVersion+"/"+kind]
	r := k.dyn.Resource(gvr).Namespace(ns)
	var sub []string
	if subresource != "" {
		sub = []string{subresource}
	}
	obj, err := r.Get(context.Background(), name, metav1.GetOptions{}, sub...)
	if err != nil {
		k.t.Fatal(err)
	}
	unstructured.RemoveNestedField(obj.Object, "metadata", "managedFields")
	change(obj.Object)
	if _, err := r.Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: manager}, sub...); err != nil {
		k.t.Fatalf("update as %s: %v", manager, err)
	}
}

// token is a token of a service account (TokenRequest).
func (k *clusterAdmin) token(ns, sa string) string {
	k.t.Helper()
	req := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
		"metadata": map[string]any{"name": sa}, "spec": map[string]any{"expirationSeconds": int64(3600)}}}
	out, err := k.dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}).Namespace(ns).
		Create(context.Background(), req, metav1.CreateOptions{}, "token")
	if err != nil {
		k.t.Fatal(err)
	}
	tok, _, _ := unstructured.NestedString(out.Object, "status", "token")
	return tok
}

func (k *clusterAdmin) waitEstablished(name string) {
	k.t.Helper()
	gvr := k.res["apiextensions.k8s.io/v1/CustomResourceDefinition"]
	for i := 0; i < 100; i++ {
		obj, err := k.dyn.Resource(gvr).Get(context.Background(), name, metav1.GetOptions{})
		if err == nil {
			conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
			for _, c := range conds {
				cm := c.(map[string]any)
				if cm["type"] == "Established" && cm["status"] == "True" {
					time.Sleep(time.Second) // discovery catches up
					return
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	k.t.Fatalf("%s not established", name)
}
