package merge_test

// The engine's own invariants, held through the clients' sequences of requests too (package
// appliers, which imports this package: hence an external test package, reaching the
// internal test helpers through export_test.go).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestCompactManagedFields: an engine WithCompactManagedFields predicts what the default
// engine predicts, printed byte for byte the same, with fieldsV1 kept as text; and its
// predictions serve as live objects again.
func TestCompactManagedFields(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	trees, text := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})), merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithCompactManagedFields())
	req := merge.DeploymentRequest(t)
	for _, c := range []struct {
		name  string
		apply func(*merge.Engine, merge.Request) (*merge.Result, error)
	}{
		{"api", (*merge.Engine).Apply},
		{"kubectl", appliers.Kubectl},
		{"argocd", func(e *merge.Engine, r merge.Request) (*merge.Result, error) {
			return appliers.ArgoCD(e, r, appliers.ArgoCDOptions{Application: "app"})
		}},
		{"flux", func(e *merge.Engine, r merge.Request) (*merge.Result, error) {
			return appliers.Flux(e, r, appliers.FluxOptions{KustomizationName: "apps", KustomizationNamespace: "flux-system"})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, err := c.apply(trees, req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := c.apply(text, req)
			if err != nil {
				t.Fatal(err)
			}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Fatalf("compact managedFields print otherwise:\n%s\n---\n%s", ja, jb)
			}
			if b.Object == nil {
				t.Fatal("no object predicted")
			}
			list := b.Object["metadata"].(map[string]any)["managedFields"].([]any)
			if _, ok := list[0].(map[string]any)["fieldsV1"].(json.RawMessage); !ok {
				t.Errorf("fieldsV1 kept as %T", list[0].(map[string]any)["fieldsV1"])
			}
			// The prediction as the live object of the same apply: nothing changes then.
			again := req
			again.Live = b.Object
			r2, err := c.apply(text, again)
			if err != nil {
				t.Fatal(err)
			}
			r1, err := c.apply(trees, merge.Request{Live: a.Object, Object: req.Object, Manager: req.Manager, Now: req.Now})
			if err != nil {
				t.Fatal(err)
			}
			j1, _ := json.Marshal(r1)
			j2, _ := json.Marshal(r2)
			if string(j1) != string(j2) {
				t.Fatalf("re-applied on a compact prediction:\n%s\n---\n%s", j2, j1)
			}
		})
	}
}

// TestGolden predicts the realistic requests in testdata/golden/*.request.json and compares
// the whole Result (object, managedFields, conflicts, ownership, deletions, warnings) with
// the golden file beside it. Run with -update after a deliberate change.
func TestGolden(t *testing.T) {
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	reqs, _ := filepath.Glob("testdata/golden/*.request.json")
	if len(reqs) == 0 {
		t.Fatal("no golden requests")
	}
	for _, p := range reqs {
		name := filepath.Base(p[:len(p)-len(".request.json")])
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var in struct {
				Applier string        `json:"applier"`
				Request merge.Request `json:"request"`
			}
			if err := json.Unmarshal(b, &in); err != nil {
				t.Fatal(err)
			}
			var res *merge.Result
			switch in.Applier {
			case "kubectl":
				res, err = appliers.Kubectl(e, in.Request)
			case "update":
				res, err = e.Update(in.Request)
			default:
				res, err = e.Apply(in.Request)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.MarshalIndent(res, "", "  ")
			got = append(got, '\n')
			testkit.Golden(t, filepath.Join("testdata", "golden", name+".result.json"), got)
		})
	}
}

// TestFieldsV1AsText: a live object whose managedFields keep fieldsV1 as JSON text (as
// internal/input's CompactManagedFields reads dumps) gets the same answer, for every kind of
// request, as the same object with fieldsV1 trees.
func TestFieldsV1AsText(t *testing.T) {
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	base := merge.DeploymentRequest(t)
	text := merge.FuzzCopy(base.Live)
	for _, item := range text["metadata"].(map[string]any)["managedFields"].([]any) {
		entry := item.(map[string]any)
		b, err := fieldsjson.AppendJSON(nil, entry["fieldsV1"])
		if err != nil {
			t.Fatal(err)
		}
		entry["fieldsV1"] = json.RawMessage(b)
	}
	for _, how := range []string{"apply", "force", "kubectl", "update", "status", "argocd", "flux"} {
		answer := func(live map[string]any) string {
			r := base
			r.Live, r.Object = live, merge.FuzzCopy(base.Object)
			var res *merge.Result
			var err error
			switch how {
			case "apply":
				res, err = e.Apply(r)
			case "force":
				r.Force = true
				res, err = e.Apply(r)
			case "kubectl":
				res, err = appliers.Kubectl(e, r)
			case "update":
				r.Object = merge.FuzzCopy(base.Live)
				r.Object["spec"].(map[string]any)["replicas"] = int64(7)
				res, err = e.Update(r)
			case "status":
				r.Endpoint = merge.Endpoint{GVK: schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "default", Name: "web", Subresource: "status"}
				r.Object = merge.FuzzCopy(base.Live)
				r.Object["status"] = map[string]any{"replicas": int64(3)}
				res, err = e.Update(r)
			case "argocd":
				res, err = appliers.ArgoCD(e, r, appliers.ArgoCDOptions{Application: "app"})
			case "flux":
				res, err = appliers.Flux(e, r, appliers.FluxOptions{KustomizationName: "apps", KustomizationNamespace: "flux-system"})
			}
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			out, _ := json.Marshal(res)
			mf, _ := json.Marshal(res.ManagedFields)
			obj, _ := json.Marshal(res.Object)
			return string(out) + "\n" + string(mf) + "\n" + string(obj)
		}
		trees, texts := answer(merge.FuzzCopy(base.Live)), answer(text)
		if trees != texts {
			t.Errorf("%s: fieldsV1 as text changes the answer:\n%s\n---\n%s", how, texts, trees)
		}
	}
}

// Every applier reports what the server assigns, from the object its sequence leaves: on a
// create, the uid, the creation time and what the allocators fill; on an update, the new
// resourceVersion; nothing when nothing is written.
func TestAssignedEveryApplier(t *testing.T) {
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	svc := map[string]any{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "web", "namespace": "shop"},
		"spec": map[string]any{"type": "NodePort", "selector": map[string]any{"app": "web"},
			"ports": []any{map[string]any{"name": "http", "port": int64(80)}}}}
	created := []string{".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion", ".spec.clusterIP",
		".spec.clusterIPs", ".spec.ipFamilies", ".spec.ports[0].nodePort"}
	appliers := map[string]func(merge.Request) (*merge.Result, error){
		"api":     e.Apply,
		"kubectl": kubectlOn(e),
		"argocd": func(r merge.Request) (*merge.Result, error) {
			return appliers.ArgoCD(e, r, appliers.ArgoCDOptions{Application: "shop"})
		},
		"flux": func(r merge.Request) (*merge.Result, error) {
			return appliers.Flux(e, r, appliers.FluxOptions{KustomizationName: "apps", KustomizationNamespace: "flux-system"})
		},
	}
	for name, apply := range appliers {
		t.Run(name, func(t *testing.T) {
			res, err := apply(merge.Request{Object: unstructured.DeepCopy(svc).(map[string]any), Manager: "m", Now: merge.ServerTestNow})
			if err != nil || res.Rejection != nil {
				t.Fatal(err, res.Rejection)
			}
			if !reflect.DeepEqual(res.Assigned, created) {
				t.Errorf("create: Assigned = %v, want %v", res.Assigned, created)
			}
			// The server's answer, with what it assigned.
			live := unstructured.DeepCopy(res.Object).(map[string]any)
			md, spec := merge.MetadataOf(live), live["spec"].(map[string]any)
			md["uid"], md["creationTimestamp"], md["resourceVersion"] = "u1", "2026-12-03T10:00:00Z", "7"
			spec["clusterIP"], spec["clusterIPs"], spec["ipFamilies"] = "10.0.0.9", []any{"10.0.0.9"}, []any{"IPv4"}
			spec["ports"].([]any)[0].(map[string]any)["nodePort"] = int64(30080)

			res, err = apply(merge.Request{Live: live, Object: unstructured.DeepCopy(svc).(map[string]any), Manager: "m", Now: merge.ServerTestNow.Add(time.Hour)})
			if err != nil || res.Rejection != nil {
				t.Fatal(err, res.Rejection)
			}
			if res.Action != merge.ActionUnchanged || res.Assigned != nil {
				t.Errorf("again: %s, Assigned = %v; want unchanged and none", res.Action, res.Assigned)
			}
			next := unstructured.DeepCopy(svc).(map[string]any)
			next["spec"].(map[string]any)["ports"] = append(next["spec"].(map[string]any)["ports"].([]any),
				map[string]any{"name": "https", "port": int64(443)})
			res, err = apply(merge.Request{Live: live, Object: next, Manager: "m", Now: merge.ServerTestNow.Add(time.Hour)})
			if err != nil || res.Rejection != nil {
				t.Fatal(err, res.Rejection)
			}
			if want := []string{".metadata.resourceVersion", ".spec.ports[1].nodePort"}; res.Action != merge.ActionUpdate || !reflect.DeepEqual(res.Assigned, want) {
				t.Errorf("a new port: %s, Assigned = %v; want update and %v", res.Action, res.Assigned, want)
			}
		})
	}
}

// A ComponentStatus is only read: kube-apiserver 1.37.2 answers an apply of one, by any
// client, with 405 MethodNotAllowed and no validation.
func TestReadOnlyKind(t *testing.T) {
	obj := map[string]any{"apiVersion": "v1", "kind": "ComponentStatus", "metadata": map[string]any{"name": "etcd-0"},
		"conditions": []any{map[string]any{"type": "Healthy", "status": "True"}}}
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	for name, apply := range map[string]func(merge.Request) (*merge.Result, error){"api": e.Apply, "kubectl": kubectlOn(e)} {
		res, err := apply(merge.Request{Object: obj, Manager: "kubectl"})
		if err != nil {
			t.Fatal(err)
		}
		want := &merge.StatusError{Code: 405, Reason: "MethodNotAllowed", Message: "the server does not allow this method on the requested resource", Details: &merge.StatusDetails{}}
		if res.Action != merge.ActionRejected || res.Rejection == nil || res.Rejection.Code != want.Code || res.Rejection.Reason != want.Reason || res.Rejection.Message != want.Message {
			t.Errorf("%s: %s %+v, want %+v", name, res.Action, res.Rejection, want)
		}
	}
}

// TestNotServed: a request for a kind or version the server does not serve is refused
// before anything else, as each client sees it (rules.md version.not-served).
func TestNotServed(t *testing.T) {
	e := merge.New(merge.WidgetRegistry(t, false), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	const (
		status = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}`
		text   = "404 page not found"
	)
	for _, c := range []struct {
		name, body string
		// raw is the raw API's Status (JSON) or plain-text body.
		raw string
		// kubectl is kubectl's message.
		kubectl string
	}{
		{"a version of a served group no longer served",
			"apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 1}",
			status, `resource mapping not found for name: "web" namespace: "shop" from "app.yaml": no matches for kind "Deployment" in version "apps/v1beta1"`},
		{"a kind the group does not have",
			"apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: web}",
			status, `resource mapping not found for name: "web" namespace: "" from "app.yaml": no matches for kind "Deploymnet" in version "apps/v1"`},
		{"a core version that does not exist",
			"apiVersion: v2\nkind: ConfigMap\nmetadata: {name: web, namespace: shop}",
			status, `resource mapping not found for name: "web" namespace: "shop" from "app.yaml": no matches for kind "ConfigMap" in version "v2"`},
		{"the body of a subresource",
			"apiVersion: policy/v1\nkind: Eviction\nmetadata: {name: web, namespace: shop}",
			status, `resource mapping not found for name: "web" namespace: "shop" from "app.yaml": no matches for kind "Eviction" in version "policy/v1"`},
		{"a built-in group no version of which is served",
			"apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web, namespace: shop}",
			text, `resource mapping not found for name: "web" namespace: "shop" from "app.yaml": no matches for kind "Ingress" in version "extensions/v1beta1"`},
		{"a CRD version not served",
			"apiVersion: example.com/v1beta1\nkind: Widget\nmetadata: {name: w, namespace: shop}",
			text, `resource mapping not found for name: "w" namespace: "shop" from "app.yaml": no matches for kind "Widget" in version "example.com/v1beta1"`},
		{"a CRD version not listed",
			"apiVersion: example.com/v3\nkind: Widget\nmetadata: {name: w, namespace: shop}",
			text, `resource mapping not found for name: "w" namespace: "shop" from "app.yaml": no matches for kind "Widget" in version "example.com/v3"`},
		{"a kind of a CRD group no given CRD defines",
			"apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: shop}",
			text, `resource mapping not found for name: "g" namespace: "shop" from "app.yaml": no matches for kind "Gadget" in version "example.com/v1"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := merge.ObjFromYAML(t, c.body)
			live := merge.ObjFromYAML(t, c.body) // a live object changes nothing: nothing is sent
			for _, l := range []map[string]any{nil, live} {
				for verb, call := range map[string]func(merge.Request) (*merge.Result, error){"apply": e.Apply, "update": e.Update} {
					res, err := call(merge.Request{Live: l, Object: body, Manager: "deployer", Now: merge.VersionsNow, Source: "app.yaml"})
					if err != nil {
						t.Fatalf("%s: %v", verb, err)
					}
					s := res.Rejection
					if res.Action != merge.ActionRejected || s == nil || s.Code != 404 {
						t.Fatalf("%s: %+v %+v", verb, res.Action, s)
					}
					if c.raw == text {
						if !s.PlainText || s.Message != text || s.Status() != nil {
							t.Errorf("%s: %+v, want the plain-text 404", verb, s)
						}
					} else if got := string(s.Status()); got != c.raw {
						t.Errorf("%s: status\n %s\nwant\n %s", verb, got, c.raw)
					}
					if len(res.Warnings) == 0 {
						t.Errorf("%s: no warning says why", verb)
					}
				}
			}
			res, err := appliers.Kubectl(e, merge.Request{Object: body, Now: merge.VersionsNow, Source: "app.yaml"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Rejection == nil || res.Rejection.Message != c.kubectl || len(res.Steps) != 0 {
				t.Errorf("kubectl: %+v, steps %v\nwant %q", res.Rejection, res.Steps, c.kubectl)
			}
			want := c.kubectl[strings.Index(c.kubectl, "no matches"):]
			for name, call := range map[string]func() (*merge.Result, error){
				"argocd": func() (*merge.Result, error) {
					return appliers.ArgoCD(e, merge.Request{Object: body, Now: merge.VersionsNow}, appliers.ArgoCDOptions{})
				},
				"flux": func() (*merge.Result, error) {
					return appliers.Flux(e, merge.Request{Object: body, Now: merge.VersionsNow}, appliers.FluxOptions{})
				},
			} {
				res, err := call()
				if err != nil {
					t.Fatal(err)
				}
				if res.Rejection == nil || res.Rejection.Message != want {
					t.Errorf("%s: %+v, want %q", name, res.Rejection, want)
				}
			}
		})
	}
}

// TestHPANoOpAtV1KeepsTheStoredObject: an HPA stored with its CPU metric first reads at
// autoscaling/v1 with that metric in targetCPUUtilizationPercentage and the other in an
// annotation; reading that back would put the CPU metric last. An apply at v1 that changes
// nothing must leave the stored object alone (no write, no generation bump), in one request
// and through a client's sequence (rules.md version.conversion, time.store-ignores-time-only).
func TestHPANoOpAtV1KeepsTheStoredObject(t *testing.T) {
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := merge.ObjFromYAML(t, strings.Replace(merge.HPAAtV2, `  - type: Pods
    pods: {metric: {name: qps}, target: {type: AverageValue, averageValue: "10"}}
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}`, `  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
  - type: Pods
    pods: {metric: {name: qps}, target: {type: AverageValue, averageValue: "10"}}`, 1))
	cfg := merge.ObjFromYAML(t, "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: front, namespace: shop}\nspec: {maxReplicas: 8}")
	for name, call := range map[string]func(merge.Request) (*merge.Result, error){
		"api": e.Apply, "kubectl": kubectlOn(e),
		"argocd": func(r merge.Request) (*merge.Result, error) {
			return appliers.ArgoCD(e, r, appliers.ArgoCDOptions{Manager: "team"})
		},
	} {
		// team applies platform's value: co-owned, nothing changes but managedFields.
		res, err := call(merge.Request{Live: live, Object: cfg, Manager: "team", Now: merge.VersionsNow})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rejection != nil {
			t.Fatalf("%s: %+v", name, res.Rejection)
		}
		if g := merge.MetadataOf(res.Object)["generation"]; g != int64(1) {
			t.Errorf("%s: generation %v, want 1 (the stored spec is unchanged)", name, g)
		}
	}
}

// kubectlOn is appliers.Kubectl on e, as a function of the request.
func kubectlOn(e *merge.Engine) func(merge.Request) (*merge.Result, error) {
	return func(r merge.Request) (*merge.Result, error) { return appliers.Kubectl(e, r) }
}

// rules.md valid.builtin: the kubectl applier words a refusal by validation as kubectl prints it.
func TestKubectlWordsA422(t *testing.T) {
	e := merge.New(schema.MustNewRegistry(kube.Default()), merge.RefusingWith(merge.TwoErrors))
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	// The kubectl applier words the same refusal as kubectl prints it.
	k, err := appliers.Kubectl(e, merge.Request{Object: merge.ObjFromYAML(t, merge.ValidateDeployment), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	wantKubectl := "The Deployment \"site\" is invalid: \n" +
		"* spec.template.spec.containers[0].name: Invalid value: \"Web_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters\n" +
		"* spec.template.spec.containers[0].image: Required value"
	if k.Rejection == nil || k.Rejection.Message != wantKubectl || k.Rejection.Code != 422 {
		t.Errorf("kubectl: %+v\nwant %q", k.Rejection, wantKubectl)
	}
	if len(k.Steps) != 1 || k.Steps[0].Code != 422 {
		t.Errorf("kubectl steps %+v, want the first apply refused with 422", k.Steps)
	}
}
