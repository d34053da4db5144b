package merge

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

const verbsDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1
      - name: sidecar
        image: envoy:1
`

// verbsLive is the Deployment applied by "deployer", as the server stores it.
func verbsLive(t *testing.T, e *Engine) map[string]any {
	t.Helper()
	res, err := e.Apply(Request{Object: objFromYAML(t, verbsDeployment), Manager: "deployer", Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil || res.Rejection != nil {
		t.Fatalf("apply: %v %v", err, res.Rejection)
	}
	md := metadataOf(res.Object)
	md["uid"], md["resourceVersion"], md["creationTimestamp"] = "u-1", "7", "2026-12-01T00:00:00Z"
	return res.Object
}

func verbsEngine() *Engine {
	return New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
}

// TestPatchTypes holds each patch type's effect on the object and on who owns what
// (rules.md write.patch, update.takes-over): a patch is an update of the patched object.
func TestPatchTypes(t *testing.T) {
	e := verbsEngine()
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name    string
		patch   Patch
		image   string // of container nginx afterwards
		sidecar bool   // container sidecar kept
		owns    string // in the patcher's entry
		code    int
	}{
		{"merge replaces the list", Patch{MergePatch, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:2"}]}}}}`)}, "nginx:2", false, `"f:image":{}`, 0},
		{"strategic merges by name", Patch{StrategicPatch, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:2"}]}}}}`)}, "nginx:2", true, `"f:image":{}`, 0},
		{"strategic $patch delete", Patch{StrategicPatch, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}}}`)}, "nginx:1", false, "", 0},
		{"json replace", Patch{JSONPatch, []byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:2"}]`)}, "nginx:2", true, `"f:image":{}`, 0},
		{"json test fails", Patch{JSONPatch, []byte(`[{"op":"test","path":"/spec/replicas","value":9}]`)}, "", false, "", 422},
		{"not JSON", Patch{MergePatch, []byte(`{spec: {}}`)}, "", false, "", 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			live := verbsLive(t, e)
			res, err := e.Patch(Request{Live: live, Patch: c.patch, Manager: "kubectl-patch", Now: now})
			if err != nil {
				t.Fatal(err)
			}
			if c.code != 0 {
				if res.Rejection == nil || res.Rejection.Code != c.code {
					t.Fatalf("want %d, got %+v", c.code, res.Rejection)
				}
				return
			}
			if res.Rejection != nil {
				t.Fatalf("rejected: %v", res.Rejection)
			}
			containers := res.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
			var image string
			sidecar := false
			for _, ct := range containers {
				m := ct.(map[string]any)
				if m["name"] == "nginx" {
					image, _ = m["image"].(string)
				}
				sidecar = sidecar || m["name"] == "sidecar"
			}
			if image != c.image || sidecar != c.sidecar {
				t.Errorf("image %q sidecar %v, want %q %v", image, sidecar, c.image, c.sidecar)
			}
			summary := managedSummary(res)
			if c.owns != "" && !strings.Contains(summary, "kubectl-patch/Update: ") || !strings.Contains(summary, c.owns) {
				t.Errorf("managedFields:\n%s", summary)
			}
		})
	}
}

// TestScaleApply holds an apply of a Scale through /scale (rules.md sub.scale-apply): it
// conflicts with the parent's owner of the replica count; forced, its entry owns
// spec.replicas, subresource scale, without a time.
func TestScaleApply(t *testing.T) {
	e := verbsEngine()
	live := verbsLive(t, e)
	scale := objFromYAML(t, "apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 17}\n")
	ep := Endpoint{GVK: schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "shop", Name: "web", Subresource: "scale"}
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	res, err := e.Apply(Request{Live: live, Object: scale, Endpoint: ep, Manager: "apply_scale", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rejection == nil || res.Rejection.Message != `Apply failed with 1 conflict: conflict with "deployer": .spec.replicas` {
		t.Fatalf("got %+v", res.Rejection)
	}
	res, err = e.Apply(Request{Live: live, Object: scale, Endpoint: ep, Manager: "apply_scale", Force: true, Now: now})
	if err != nil || res.Rejection != nil {
		t.Fatalf("%v %+v", err, res.Rejection)
	}
	if got := res.Object["spec"].(map[string]any)["replicas"]; got != int64(17) {
		t.Errorf("replicas %v", got)
	}
	var found bool
	for _, en := range res.ManagedFields {
		if en.Manager == "apply_scale" {
			found = true
			if en.Time != nil || en.Subresource != "scale" || en.APIVersion != "apps/v1" || string(en.FieldsV1) != `{"f:spec":{"f:replicas":{}}}` {
				t.Errorf("entry %+v %s", en, en.FieldsV1)
			}
		}
	}
	if !found || res.ManagedFields[0].Manager != "apply_scale" {
		t.Errorf("managedFields:\n%s", managedSummary(res))
	}
}

// TestOtherSubresourcesNotPredicted: a write to a subresource whose strategy the model does
// not know (/binding, /eviction) is not predicted, rather than predicted as a main-resource
// write; /resize and /ephemeralcontainers of any kind but a Pod are answered 404 (rules.md
// sub.resize, sub.ephemeralcontainers).
func TestOtherSubresourcesNotPredicted(t *testing.T) {
	e := verbsEngine()
	live := verbsLive(t, e)
	for _, sub := range []string{"binding", "eviction"} {
		ep := Endpoint{GVK: schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "shop", Name: "web", Subresource: sub}
		for _, v := range []Verb{VerbApply, VerbUpdate, VerbPatch} {
			_, err := e.Send(v, Request{Live: live, Object: live, Endpoint: ep, Manager: "m", Patch: Patch{MergePatch, []byte(`{}`)}})
			if !errors.Is(err, ErrNotPredictable) {
				t.Errorf("%s to /%s: %v, want ErrNotPredictable", v, sub, err)
			}
		}
	}
	for _, sub := range []string{"resize", "ephemeralcontainers"} {
		ep := Endpoint{GVK: schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "shop", Name: "web", Subresource: sub}
		for _, v := range []Verb{VerbApply, VerbUpdate, VerbPatch} {
			res, err := e.Send(v, Request{Live: live, Object: live, Endpoint: ep, Manager: "m", Patch: Patch{MergePatch, []byte(`{}`)}})
			if err != nil || res.Rejection == nil || res.Rejection.Code != 404 || res.Rejection.Message != notServedMessage {
				t.Errorf("%s to a Deployment's /%s: %+v, %v; want 404 %q", v, sub, res, err, notServedMessage)
			}
		}
	}
}

// TestPodResizeNotServedAt132: Kubernetes 1.32 registers pods/resize only with
// InPlacePodVerticalScaling on, off by default: every write to it is answered 404 (recorded
// from kube-apiserver 1.32.13 with kubectl patch --subresource=resize); 1.33 serves it.
func TestPodResizeNotServedAt132(t *testing.T) {
	if !kube.Minor(32).IsSupported() {
		t.Skip("1.32 is not listed in kube/releases.txt")
	}
	pod := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "app", "namespace": "t"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": "nginx"}}}}
	ep := Endpoint{GVK: schema.GVK{Version: "v1", Kind: "Pod"}, Namespace: "t", Name: "app", Subresource: "resize"}
	for _, m := range []kube.Minor{32, 33} {
		e := New(schema.MustNewRegistry(m), kubeapiserver.MustNew(kubeapiserver.Config{Minor: m}))
		res, err := e.Send(VerbPatch, Request{Live: pod, Object: pod, Endpoint: ep, Manager: "m", Patch: Patch{MergePatch, []byte(`{}`)}})
		refused := err == nil && res.Rejection != nil && res.Rejection.Code == 404 && res.Rejection.Message == notServedMessage
		if refused != (m == 32) {
			t.Errorf("%s: a patch of pods/resize: %+v, %v", m, res, err)
		}
	}
}

// TestPatchNameAgainstURL holds the handlers' name check after a patch (rules.md
// create.name-and-namespace), each message as a real kube-apiserver 1.37.2 answered a
// dry-run merge patch of a ConfigMap: a patch that removes the name leaves it
// undeterminable, one that changes it does not match.
func TestPatchNameAgainstURL(t *testing.T) {
	e := verbsEngine()
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ patch, want string }{
		{`{"metadata":{"name":null}}`, "the name of the object (web based on URL) was undeterminable: name must be provided"},
		{`{"metadata":{"name":"other"}}`, "the name of the object (other) does not match the name on the URL (web)"},
	} {
		res, err := e.Patch(Request{Live: verbsLive(t, e), Patch: Patch{MergePatch, []byte(c.patch)}, Manager: "kubectl-patch", Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rejection == nil || res.Rejection.Code != 400 || res.Rejection.Message != c.want {
			t.Errorf("%s: got %+v, want 400 %q", c.patch, res.Rejection, c.want)
		}
	}
}
