package judge_test

import (
	"fmt"
	"testing"

	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

var deployment = schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}

func TestDidYouMean(t *testing.T) {
	j := &judge.Judge{Schemas: schema.MustNewRegistry(kube.Default())}
	for path, want := range map[string]string{".spec.replcas": ".spec.replicas", ".spec.template.spec.containrs": ".spec.template.spec.containers",
		".spec.xyz": "", ".metadata.lables": ".metadata.labels", `.spec.template.spec.containers[name="a"].imag`: `.spec.template.spec.containers[name="a"].image`} {
		if got := j.DidYouMean(deployment, path); got != want {
			t.Errorf("%s: did you mean %q, want %q", path, got, want)
		}
	}
}

func TestRefusalFields(t *testing.T) {
	j := &judge.Judge{Schemas: schema.MustNewRegistry(kube.Default())}
	// A schema error without causes: the paths its message lists, one per line.
	st := &merge.StatusError{Code: 500, Message: "failed to create typed patch object (shop/web; apps/v1, Kind=Deployment): errors:\n  .spec.replcas: field not declared in schema\n  .spec.paused: expected boolean, got &value.valueUnstructured{Value:\"yes\"}"}
	got := j.RefusalFields(deployment, st)
	if len(got) != 2 || got[0] != (judge.ErrorField{Path: ".spec.replcas", DidYouMean: ".spec.replicas"}) || got[1] != (judge.ErrorField{Path: ".spec.paused"}) {
		t.Errorf("schema errors: %+v", got)
	}
	// Causes win; a conflict names none here.
	st = &merge.StatusError{Code: 422, Message: "…", Details: &merge.StatusDetails{Causes: []merge.StatusCause{{Field: "spec.template.spec.containers[0].image", Message: "Required value"}}}}
	if got := j.RefusalFields(deployment, st); len(got) != 1 || got[0].Path != ".spec.template.spec.containers[0].image" {
		t.Errorf("causes: %+v", got)
	}
	if got := j.RefusalFields(deployment, &merge.StatusError{Code: 409, Details: st.Details}); got != nil {
		t.Errorf("a conflict: %+v", got)
	}
}

// A kind without a schema and a mutating webhook of the live state that intercepts its
// creation: the two things the prediction rests on.
func ExampleJudge_Approximations() {
	hook := map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
		"metadata": map[string]any{"name": "sidecar-injector"},
		"webhooks": []any{map[string]any{"name": "inject.example.com", "rules": []any{map[string]any{
			"apiGroups": []any{"ops.example.com"}, "apiVersions": []any{"*"}, "resources": []any{"*"}, "operations": []any{"CREATE"}}}}}}
	j := &judge.Judge{Schemas: schema.MustNewRegistry(kube.Default()), Webhooks: judge.ReadWebhooks([]judge.LiveObject{{Object: hook, Source: "live.json:12"}})}
	manifest := map[string]any{"apiVersion": "ops.example.com/v1", "kind": "Backup", "metadata": map[string]any{"name": "nightly"}}
	approx, _ := j.Approximations(schema.GVKOf(manifest), manifest, nil, nil)
	for _, a := range approx {
		fmt.Println(a.Reason)
	}
	// Output:
	// no-schema
	// webhook
}
