package predict

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// recorder is a Predictor that answers every request with answer (a conflict by default)
// and keeps the requests.
type recorder struct {
	requests []merge.Request
	answer   func(merge.Request) *merge.Result
}

func (r *recorder) Predict(_ appliers.Applier, req merge.Request) (*merge.Result, error) {
	r.requests = append(r.requests, req)
	if r.answer != nil {
		return r.answer(req), nil
	}
	if req.Force {
		return &merge.Result{Action: merge.ActionUpdate}, nil
	}
	return &merge.Result{Action: merge.ActionRejected, Rejection: &merge.StatusError{Code: 409, Reason: "Conflict"}}, nil
}

func configMap(ns string) map[string]any {
	md := map[string]any{"name": "settings"}
	if ns != "" {
		md["namespace"] = ns
	}
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md}
}

func namespaceOf(obj map[string]any) any {
	return obj["metadata"].(map[string]any)["namespace"]
}

// TestRequestsCarryTheNamespaceTheClientWrites: kubectl and the GitOps controllers write the
// namespace an object goes to into a body that names none (and it is what the last-applied
// annotation records); a raw API request is sent as written, and so is an apply whose kind
// the server does not serve or is not the live object's. The manifest itself is never changed.
func TestRequestsCarryTheNamespaceTheClientWrites(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	cm := schema.GVK{Version: "v1", Kind: "ConfigMap"}
	gone := schema.GVK{Group: "extensions", Version: "v1beta1", Kind: "Deployment"}
	for _, c := range []struct {
		name    string
		applier appliers.Applier
		apply   Apply
		want    any
	}{
		{"kubectl fills it in", appliers.KubectlApply{FieldManager: "kubectl"}, Apply{Manifest: configMap(""), GVK: cm, Namespace: "shop", Name: "settings"}, "shop"},
		{"argocd fills it in", appliers.ArgoCDSync{}, Apply{Manifest: configMap(""), GVK: cm, Namespace: "shop", Name: "settings"}, "shop"},
		{"a namespace written stays", appliers.KubectlApply{}, Apply{Manifest: configMap("web"), GVK: cm, Namespace: "web", Name: "settings"}, "web"},
		{"a raw request is sent as written", appliers.API{FieldManager: "ctl"}, Apply{Manifest: configMap(""), GVK: cm, Namespace: "shop", Name: "settings"}, nil},
		{"a kind not served is refused before", appliers.KubectlApply{}, Apply{Manifest: configMap(""), GVK: gone, Namespace: "shop", Name: "settings"}, nil},
		{"a kind not the live object's", appliers.KubectlApply{}, Apply{Manifest: configMap(""), GVK: cm, Namespace: "shop", Name: "settings", AsWritten: true}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recorder{answer: func(merge.Request) *merge.Result { return &merge.Result{Action: merge.ActionCreate} }}
			run := &Run{Predictor: rec, Applier: c.applier, Schemas: reg}
			before := namespaceOf(c.apply.Manifest)
			if _, err := run.Predict(c.apply); err != nil {
				t.Fatal(err)
			}
			if got := namespaceOf(rec.requests[0].Object); got != c.want {
				t.Errorf("the request's namespace is %v, want %v", got, c.want)
			}
			if namespaceOf(c.apply.Manifest) != before {
				t.Error("the manifest was changed")
			}
			ep := rec.requests[0].Endpoint
			if ep.GVK != c.apply.GVK || ep.Namespace != c.apply.Namespace || ep.Name != "settings" {
				t.Errorf("endpoint %+v", ep)
			}
		})
	}
}

// TestAConflictIsPredictedAgainWithForce: a refusal with conflicts is predicted a second
// time with force when the run asks for it — not when the apply already forces, nor for an
// applier that always forces (its first answer is forced), nor for another refusal.
func TestAConflictIsPredictedAgainWithForce(t *testing.T) {
	invalid := func(req merge.Request) *merge.Result {
		return &merge.Result{Action: merge.ActionRejected, Rejection: &merge.StatusError{Code: 422, Reason: "Invalid"}}
	}
	for _, c := range []struct {
		name        string
		run         Run
		answer      func(merge.Request) *merge.Result
		wantForced  bool
		wantRequest int
	}{
		{"asked", Run{Applier: appliers.KubectlApply{}, ForcedAlso: true}, nil, true, 2},
		{"not asked", Run{Applier: appliers.KubectlApply{}}, nil, false, 1},
		{"already forced", Run{Applier: appliers.KubectlApply{}, ForcedAlso: true, Force: true}, nil, false, 1},
		{"an applier that always forces", Run{Applier: appliers.FluxApply{}, ForcedAlso: true}, nil, false, 1},
		{"a refusal that is no conflict", Run{Applier: appliers.KubectlApply{}, ForcedAlso: true}, invalid, false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recorder{answer: c.answer}
			run := c.run
			run.Predictor = rec
			p, err := run.Predict(Apply{Manifest: configMap("shop"), GVK: schema.GVK{Version: "v1", Kind: "ConfigMap"}, Namespace: "shop", Name: "settings"})
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.requests) != c.wantRequest || (p.WithForce != nil) != c.wantForced {
				t.Fatalf("%d requests, with force %v; want %d, %v", len(rec.requests), p.WithForce != nil, c.wantRequest, c.wantForced)
			}
			if c.wantForced && (!rec.requests[1].Force || p.WithForce.Action != merge.ActionUpdate) {
				t.Errorf("the second request %+v answered %+v", rec.requests[1], p.WithForce)
			}
		})
	}
}

// TestWithDefaultNamespaceCopies: the body with the namespace shares nothing the caller
// could see change; an object without metadata, or no namespace to give, is returned as is.
func TestWithDefaultNamespaceCopies(t *testing.T) {
	obj := configMap("")
	got := WithDefaultNamespace(obj, "shop")
	if namespaceOf(got) != "shop" || namespaceOf(obj) != nil {
		t.Fatalf("got %v from %v", got, obj)
	}
	if same := WithDefaultNamespace(obj, ""); !reflect.DeepEqual(same, obj) {
		t.Errorf("no namespace: %v", same)
	}
	bare := map[string]any{"kind": "ConfigMap"}
	if same := WithDefaultNamespace(bare, "shop"); !reflect.DeepEqual(same, bare) {
		t.Errorf("no metadata: %v", same)
	}
}
