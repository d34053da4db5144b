package library

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	"sigs.k8s.io/yaml"
)

func objects(t *testing.T, docs string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, d := range strings.Split(docs, "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(d), &m); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(m)
		var n map[string]any
		if err := json.Unmarshal(b, &n); err != nil {
			t.Fatal(err)
		}
		out = append(out, asInts(n).(map[string]any))
	}
	return out
}

func asInts(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = asInts(x)
		}
	case []any:
		for i, x := range t {
			t[i] = asInts(x)
		}
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
	}
	return v
}

var deployments = wire.Kind{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespaced: true}

const replicasPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  failurePolicy: Fail
  matchConstraints:
    matchPolicy: Equivalent
    namespaceSelector: {}
    objectSelector: {}
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
      scope: '*'
  validations:
  - expression: object.spec.replicas <= 3
    messageExpression: "'replicas must be at most 3, not ' + string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: max-replicas-deny}
spec:
  policyName: max-replicas
  validationActions: [Deny]
  matchResources:
    matchPolicy: Equivalent
    namespaceSelector: {matchLabels: {env: prod}}
    objectSelector: {}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: max-replicas-warn}
spec:
  policyName: max-replicas
  validationActions: [Warn, Audit]
  matchResources:
    matchPolicy: Equivalent
    namespaceSelector: {matchLabels: {env: dev}}
    objectSelector: {}
---
apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {env: prod, kubernetes.io/metadata.name: shop}}
---
apiVersion: v1
kind: Namespace
metadata: {name: lab, labels: {env: dev, kubernetes.io/metadata.name: lab}}`

// TestValidatingPolicy drives k8s.io/apiserver's ValidatingAdmissionPolicy plugin from the
// objects of a Setup: a Deny binding refuses with the server's code and words, a Warn and
// Audit binding warns and annotates.
func TestValidatingPolicy(t *testing.T) {
	lib, err := New(wire.Setup{Minor: 37, Objects: objects(t, replicasPolicy), Kinds: []wire.Kind{deployments}})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	deploy := func(ns string, replicas int64) map[string]any {
		return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": ns},
			"spec": map[string]any{"replicas": replicas}}
	}
	call := func(ns string, replicas int64) wire.Answer {
		a, err := lib.Call(wire.Call{Phase: wire.PhaseValidating, Kind: deployments, Namespace: ns, Name: "web", Operation: "CREATE", FieldManager: "m", Object: deploy(ns, replicas)})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := call("shop", 5)
	if a.Refusal == nil {
		t.Fatalf("not refused: %+v", a)
	}
	// A validation without a reason refuses with 422 Invalid, in the words of a 403.
	if got, want := a.Refusal.Message, "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-deny' denied request: replicas must be at most 3, not 5"; got != want || a.Refusal.Code != 422 || a.Refusal.Reason != "Invalid" {
		t.Errorf("refusal %d %s %q, want 422 Invalid %q", a.Refusal.Code, a.Refusal.Reason, got, want)
	}
	if a := call("shop", 2); a.Refusal != nil || len(a.Warnings) > 0 {
		t.Errorf("2 replicas: %+v", a)
	}
	a = call("lab", 5)
	if a.Refusal != nil || len(a.Warnings) != 1 || a.Warnings[0] != "Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-warn': replicas must be at most 3, not 5" {
		t.Errorf("lab: %+v", a)
	}
	if len(a.Audit) != 1 || !strings.HasPrefix(a.Audit[0], "validation.policy.admission.k8s.io/validation_failure: ") {
		t.Errorf("audit %q", a.Audit)
	}
}
