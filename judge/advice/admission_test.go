package advice

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
)

// TestPolicyAdvice: denied-by-policy and warned-by-policy name the policy, the binding and
// the validation that does not hold, read from the cluster state.
func TestPolicyAdvice(t *testing.T) {
	policy := map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
		"metadata": map[string]any{"name": "max-replicas"},
		"spec": map[string]any{"validations": []any{
			map[string]any{"expression": "has(object.metadata.labels)", "message": "labels are required"},
			map[string]any{"expression": "object.spec.replicas <= 3", "messageExpression": "'at most 3, not ' + string(object.spec.replicas)"},
		}}}
	state, err := clusterstate.New([]clusterstate.Object{{Object: policy, Source: "cluster.json:4"}})
	if err != nil {
		t.Fatal(err)
	}
	ep := merge.Endpoint{GVK: schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "shop", Name: "web"}
	for _, tc := range []struct {
		name string
		res  *merge.Result
		want []string
	}{
		{name: "a denial by a messageExpression names that validation",
			res: &merge.Result{Endpoint: ep, Action: merge.ActionRejected, Rejection: &merge.StatusError{Code: 422, Reason: "Invalid", Admission: "ValidatingAdmissionPolicy",
				Message: `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: at most 3, not 5`}},
			want: []string{"warning [denied-by-policy] the ValidatingAdmissionPolicy \"max-replicas\" (binding \"max-replicas-prod\") refuses the write: \"at most 3, not 5\"; its validation `object.spec.replicas <= 3` (cluster.json:4)"}},
		{name: "a denial by a static message names its validation",
			res: &merge.Result{Endpoint: ep, Action: merge.ActionRejected, Rejection: &merge.StatusError{Code: 422, Reason: "Invalid", Admission: "ValidatingAdmissionPolicy",
				Message: `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: labels are required`}},
			want: []string{"its validation `has(object.metadata.labels)`"}},
		{name: "a Warn binding",
			res:  &merge.Result{Endpoint: ep, Action: merge.ActionCreate, Warnings: []string{"the server would warn: Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'w': at most 3, not 9"}},
			want: []string{"info [warned-by-policy] the ValidatingAdmissionPolicy \"max-replicas\" (binding \"w\") warns"}},
		{name: "PodSecurity",
			res: &merge.Result{Endpoint: merge.Endpoint{GVK: schema.GVK{Version: "v1", Kind: "Pod"}, Namespace: "shop", Name: "app"}, Action: merge.ActionRejected,
				Rejection: &merge.StatusError{Code: 403, Reason: "Forbidden", Admission: "PodSecurity", Message: `pods "app" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true`}},
			want: []string{`warning [denied-by-policy] the namespace shop enforces a Pod Security level the Pod does not meet: violates PodSecurity "restricted:latest": runAsNonRoot != true`}},
		{name: "another refusal: no advice",
			res: &merge.Result{Endpoint: ep, Action: merge.ActionRejected, Rejection: &merge.StatusError{Code: 422, Reason: "Invalid", Message: "Deployment.apps \"web\" is invalid"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Analyze(Input{Result: tc.res}, Options{Cluster: state})
			var lines []string
			for _, a := range got {
				if a.ID == IDDeniedByPolicy || a.ID == IDWarnedByPolicy {
					lines = append(lines, a.String())
				}
			}
			if len(lines) != len(tc.want) {
				t.Fatalf("advice %q, want %d", lines, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(lines[i], w) {
					t.Errorf("advice %q\nwant it to hold %q", lines[i], w)
				}
			}
		})
	}
}
