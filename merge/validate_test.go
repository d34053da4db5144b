package merge

import (
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// refusingHooks are the Kubernetes hooks with a validation that refuses what errs says for
// the object it sees, and records what it was given.
type refusingHooks struct {
	*kubeapiserver.Model
	errs         func(obj, old map[string]any) field.ErrorList
	warnings     []string
	notPredicted string
	seen         []validateCall
}

type validateCall struct {
	subresource string
	create      bool
	replicas    any
}

func (h *refusingHooks) Validate(t *schema.Type, sub string, obj, old map[string]any) server.Validation {
	spec, _ := obj["spec"].(map[string]any)
	h.seen = append(h.seen, validateCall{subresource: sub, create: old == nil, replicas: spec["replicas"]})
	v := h.Model.Validate(t, sub, obj, old)
	if h.errs != nil {
		v.Errors = append(v.Errors, h.errs(obj, old)...)
	}
	v.Warnings, v.NotPredicted = h.warnings, h.notPredicted
	return v
}

const validateDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: site
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: site}
  template:
    metadata:
      labels: {app: site}
    spec:
      containers:
      - name: web
        image: nginx:1.27
`

func twoErrors(obj, old map[string]any) field.ErrorList {
	p := field.NewPath("spec", "template", "spec", "containers").Index(0)
	return field.ErrorList{
		field.Invalid(p.Child("name"), "Web_1", "a lowercase RFC 1123 label must consist of lower case alphanumeric characters"),
		field.Required(p.Child("image"), ""),
	}
}

// rules.md valid.update: on an update the validation is given the stored object, and sees the object
// field management and the registry made (here the replicas the apply changes).
func TestValidationSeesTheUpdate(t *testing.T) {
	h := &refusingHooks{Model: kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), errs: func(obj, old map[string]any) field.ErrorList {
		if old == nil {
			return nil
		}
		return field.ErrorList{field.Invalid(field.NewPath("spec", "selector"), map[string]any{"matchLabels": map[string]any{"app": "site"}}, "field is immutable")}
	}}
	e := New(schema.MustNewRegistry(kube.Default()), h)
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	created, err := e.Apply(Request{Object: objFromYAML(t, validateDeployment), Manager: "deployer", Now: now})
	if err != nil || created.Rejection != nil {
		t.Fatalf("create: %v %+v", err, created.Rejection)
	}
	live := created.Object
	metadataOf(live)["uid"] = "0b6e8e0e-5d5a-4f3c-9c1e-2f0a3b4c5d6e"
	cfg := objFromYAML(t, strings.Replace(validateDeployment, "replicas: 2", "replicas: 3", 1))
	res, err := e.Apply(Request{Live: live, Object: cfg, Manager: "deployer", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	want := `Deployment.apps "site" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"site"}}: field is immutable`
	if res.Rejection == nil || res.Rejection.Message != want {
		t.Fatalf("got %+v\nwant %q", res.Rejection, want)
	}
	last := h.seen[len(h.seen)-1]
	if last.create || last.replicas != int64(3) {
		t.Errorf("validation saw %+v, want the update with replicas 3", last)
	}

	// An update (PUT) and a write through /scale are validated too; /scale validates the
	// parent as the main resource does.
	up, err := e.Update(Request{Live: live, Object: objFromYAML(t, strings.Replace(validateDeployment, "replicas: 2", "replicas: 4", 1)), Manager: "tuner", Now: now})
	if err != nil || up.Rejection == nil || up.Rejection.Code != 422 {
		t.Errorf("update: %v %+v, want 422", err, up.Rejection)
	}
	scale := map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]any{"name": "site", "namespace": "shop"}, "spec": map[string]any{"replicas": int64(5)}}
	sc, err := e.Update(Request{Live: live, Object: scale, Manager: "hpa",
		Endpoint: Endpoint{GVK: schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "shop", Name: "site", Subresource: "scale"}, Now: now})
	if err != nil || sc.Rejection == nil || sc.Rejection.Code != 422 {
		t.Errorf("scale: %v %+v, want 422", err, sc.Rejection)
	}
	if last := h.seen[len(h.seen)-1]; last.subresource != "" || last.replicas != int64(5) {
		t.Errorf("scale validated %+v, want the parent with replicas 5 as the main resource", last)
	}
}

// A validation that is not predicted for a kind says so on the result; the server's
// warnings are passed on; a valid object is stored.
func TestValidationWarnings(t *testing.T) {
	h := &refusingHooks{Model: kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), warnings: []string{"spec.template.spec.containers[0].image: use a digest"}, notPredicted: "validation of apps/v1 Deployment is not predicted"}
	e := New(schema.MustNewRegistry(kube.Default()), h)
	res, err := e.Apply(Request{Object: objFromYAML(t, validateDeployment), Manager: "deployer", Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != ActionCreate {
		t.Fatalf("action %s", res.Action)
	}
	want := []string{"the server would warn: spec.template.spec.containers[0].image: use a digest", "validation of apps/v1 Deployment is not predicted"}
	if strings.Join(res.Warnings, "|") != strings.Join(want, "|") {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}

// rules.md create.name-and-namespace: the uid of a stored object cannot change — validation every kind shares, with
// or without the kind's own rules; a body without uid keeps the stored one.
func TestValidationUIDImmutable(t *testing.T) {
	for _, hooks := range []server.Model{kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), server.FieldManagementOnly{Kubernetes: kube.Default()}} {
		e := New(schema.MustNewRegistry(kube.Default()), hooks)
		now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
		live := objFromYAML(t, cm+"  uid: 11111111-1111-1111-1111-111111111111\ndata: {a: \"1\"}\n")
		body := objFromYAML(t, cm+"  uid: 22222222-2222-2222-2222-222222222222\ndata: {a: \"1\"}\n")
		res, err := e.Apply(Request{Live: live, Object: body, Manager: "m", Now: now})
		if err != nil {
			t.Fatal(err)
		}
		want := `ConfigMap "c" is invalid: metadata.uid: Invalid value: "22222222-2222-2222-2222-222222222222": field is immutable`
		if res.Rejection == nil || res.Rejection.Message != want || res.Rejection.Details.Causes[0].Field != "metadata.uid" {
			t.Errorf("%T: got %+v, want %q", hooks, res.Rejection, want)
		}
		up, err := e.Update(Request{Live: live, Object: objFromYAML(t, cm+"data: {a: \"2\"}\n"), Manager: "m", Now: now})
		if err != nil || up.Rejection != nil {
			t.Errorf("%T: update without uid: %v %+v", hooks, err, up.Rejection)
		}
	}
}

// rules.md valid.builtin, version.conversion: an autoscaling/v1 HorizontalPodAutoscaler is validated as the server
// validates it, on the internal version: its CPU target is the hub's first metric, and the
// errors name the hub's paths (the answer of kube-apiserver 1.37.2 to this apply).
func TestHPAAtV1IsValidatedAtTheHub(t *testing.T) {
	const hpa = `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: hpa1}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 5
  maxReplicas: 3
  targetCPUUtilizationPercentage: 0
`
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	res, err := e.Apply(Request{Object: objFromYAML(t, hpa), Manager: "kubectl", Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	want := "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: [spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`, spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0]"
	s := res.Rejection
	if s == nil || s.Code != 422 || s.Message != want {
		t.Fatalf("got %+v\nwant 422 %q", s, want)
	}
	if d := s.Details; d == nil || d.Group != "autoscaling" || d.Kind != "HorizontalPodAutoscaler" || len(d.Causes) != 2 ||
		d.Causes[1].Field != "spec.metrics[0].resource.target.averageUtilization" {
		t.Errorf("details %+v", s.Details)
	}
	// At 50% and within bounds, the same object is created.
	fixed := strings.NewReplacer("minReplicas: 5", "minReplicas: 1", "targetCPUUtilizationPercentage: 0", "targetCPUUtilizationPercentage: 50").Replace(hpa)
	res, err = e.Apply(Request{Object: objFromYAML(t, fixed), Manager: "kubectl", Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
	if err != nil || res.Rejection != nil || res.Action != ActionCreate {
		t.Fatalf("valid HPA: %v %+v %s", err, res.Rejection, res.Action)
	}
}

// rules.md valid.builtin: a write whose object the registry's validation refuses is answered 422
// Invalid, the kind named with its group, the errors in brackets, each a cause.
func TestValidationRefusesWith422(t *testing.T) {
	h := &refusingHooks{Model: kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), errs: twoErrors}
	e := New(schema.MustNewRegistry(kube.Default()), h)
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	res, err := e.Apply(Request{Object: objFromYAML(t, validateDeployment), Manager: "deployer", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != ActionRejected || res.Object != nil {
		t.Fatalf("action %s, object %v: want rejected without object", res.Action, res.Object != nil)
	}
	want := `Deployment.apps "site" is invalid: [spec.template.spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters, spec.template.spec.containers[0].image: Required value]`
	s := res.Rejection
	if s.Code != 422 || s.Reason != "Invalid" || s.Message != want {
		t.Errorf("got %d %s %q\nwant 422 Invalid %q", s.Code, s.Reason, s.Message, want)
	}
	if d := s.Details; d == nil || d.Name != "site" || d.Group != "apps" || d.Kind != "Deployment" || len(d.Causes) != 2 ||
		d.Causes[1] != (StatusCause{Reason: "FieldValueRequired", Message: "Required value", Field: "spec.template.spec.containers[0].image"}) {
		t.Errorf("details %+v", s.Details)
	}
	if len(h.seen) != 1 || !h.seen[0].create || h.seen[0].subresource != "" {
		t.Errorf("validation calls %+v, want one, of a create", h.seen)
	}

}
