package report

import (
	"reflect"
	"strings"
	"testing"
)

// forcedTakeover is an Argo CD sync taking replicas from the HPA (by force) and the rest
// from client-side apply (by migration), deleting a field.
func forcedTakeover() *Result {
	hpa := Manager{Manager: "kube-controller-manager", Operation: "Update", APIVersion: "apps/v1", Subresource: "scale"}
	csa := Manager{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "apps/v1"}
	return &Result{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Action: ActionUpdate, Changed: true,
		Conflicts: []Conflict{{Manager: hpa, Owner: `"kube-controller-manager" with subresource "scale" using apps/v1`, Path: ".spec.replicas", Live: int64(5), Applied: int64(2)}},
		Ownership: []Ownership{
			{Manager: Manager{Manager: "argocd-controller", Operation: "Apply"}, Gained: []string{".spec.replicas"}},
			{Manager: hpa, Taken: []string{".spec.replicas"}, Removed: true},
			{Manager: csa, Taken: []string{".metadata.labels.app", ".spec.template.spec.containers[name=\"app\"].image"}, Removed: true},
		},
		Deleted:  []string{".data.debug"},
		Warnings: []string{"sync option Replace=true: …"},
	}
}

func levels(fs []Finding) map[string]string {
	out := map[string]string{}
	for _, f := range fs {
		out[f.Category+" "+f.Manager] = f.Level
	}
	return out
}

func TestEvaluate(t *testing.T) {
	lines := map[string]int{".spec.replicas": 8, ".metadata.labels.app": 5}
	line := func(p string) int { return lines[p] }
	res := forcedTakeover()
	res.Source.Line = 1

	got := levels(Evaluate(DefaultPolicy(), res, "argocd-controller", line))
	want := map[string]string{"conflict kube-controller-manager": LevelWarning, "takeover kube-controller-manager": LevelWarning,
		"takeover kubectl-client-side-apply": LevelWarning, "deletion ": LevelWarning, "warning ": LevelWarning}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("default policy: %v", got)
	}

	p := Policy{FailOn: []string{"conflicts", "takeover", "deletion"}, AllowTakeoverFrom: []string{"kubectl-client-side-*"}, Protect: []string{"kube-controller-*"}}
	fs := Evaluate(p, res, "argocd-controller", line)
	got = levels(fs)
	want = map[string]string{"conflict kube-controller-manager": LevelFailure, "protected kube-controller-manager": LevelFailure,
		"takeover kubectl-client-side-apply": LevelNotice, "deletion ": LevelFailure, "warning ": LevelWarning}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("strict policy: %v", got)
	}
	for _, f := range fs {
		switch f.Category {
		case CategoryConflict, CategoryProtected:
			if f.Line != 8 {
				t.Errorf("%s at line %d, want the field's line 8", f.Category, f.Line)
			}
		case CategoryDeletion:
			if f.Line != 1 {
				t.Errorf("deletion at line %d, want the object's (the field is not in the manifest)", f.Line)
			}
		}
	}
	// An allowed manager's forced conflict does not fail either.
	p.Protect = nil
	p.AllowTakeoverFrom = []string{"kube-controller-manager"}
	got = levels(Evaluate(p, res, "argocd-controller", nil))
	if got["conflict kube-controller-manager"] != LevelNotice || got["takeover kube-controller-manager"] != LevelNotice {
		t.Errorf("allowed manager: %v", got)
	}
}

func TestEvaluateRejection(t *testing.T) {
	res := &Result{Action: ActionRejected, Error: &Error{Code: 409, Reason: "Conflict", Message: "Apply failed with 1 conflict: conflict with \"hpa\": .spec.replicas"},
		Conflicts: []Conflict{{Manager: Manager{Manager: "hpa", Operation: "Update"}, Owner: `"hpa"`, Path: ".spec.replicas", Live: int64(5), Applied: int64(2)}}}
	p := Policy{FailOn: []string{"conflicts"}, AllowTakeoverFrom: []string{"hpa"}}
	fs := Evaluate(p, res, "kubectl", nil)
	if len(fs) != 2 || fs[0].Category != CategoryRejected || fs[0].Level != LevelWarning || fs[1].Category != CategoryConflict || fs[1].Level != LevelFailure {
		t.Fatalf("%+v", fs)
	}
	if !strings.Contains(fs[1].Message, `conflict with "hpa": .spec.replicas (live 5, applied 2)`) {
		t.Errorf("message %q", fs[1].Message)
	}
}

func TestExitStatuses(t *testing.T) {
	run := func(p Policy, results ...*Result) int {
		var tally Tally
		for _, r := range results {
			if p.FailOn != nil {
				r.Findings = Evaluate(p, r, "argocd-controller", nil)
			}
			tally.Add(r)
		}
		return tally.Summary().ExitCode
	}
	unchanged := func() *Result { return &Result{Action: ActionUnchanged} }
	rejected := func() *Result { return &Result{Action: ActionRejected, Error: &Error{Code: 422}} }
	broken := func() *Result { return &Result{Action: ActionError, Error: &Error{Message: "bad"}} }
	strict := Policy{FailOn: []string{"takeover"}}
	denied := func() *Result {
		return &Result{Action: ActionRejected, Error: &Error{Code: 422, Admission: "ValidatingAdmissionPolicy",
			Message: `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max' with binding 'max' denied request: at most 3`}}
	}
	warned := func() *Result {
		return &Result{Action: ActionCreate, Changed: true, Warnings: []string{"the server would warn: Validation failed for ValidatingAdmissionPolicy 'max' with binding 'max-warn': at most 3"}}
	}
	onlyPolicy := Policy{FailOn: []string{"policy"}}
	for _, c := range []struct {
		name string
		got  int
		want int
	}{
		{"nothing", run(Policy{}, unchanged()), ExitUnchanged},
		{"changes", run(DefaultPolicy(), unchanged(), forcedTakeover()), ExitChanged},
		{"rejected, not evaluated", run(Policy{}, rejected()), ExitRejected},
		{"rejected", run(DefaultPolicy(), rejected(), forcedTakeover()), ExitRejected},
		{"rejected does not fail", run(Policy{FailOn: []string{}}, rejected()), ExitChanged},
		{"takeover fails", run(strict, forcedTakeover()), ExitPolicy},
		{"rejected wins over takeover", run(Policy{FailOn: []string{"takeover", "rejected"}}, forcedTakeover(), rejected()), ExitRejected},
		{"protected", run(Policy{FailOn: []string{}, Protect: []string{"kube-*"}}, forcedTakeover()), ExitPolicy},
		{"errors win", run(strict, forcedTakeover(), broken()), ExitError},
		{"denied by policy, --fail-on policy", run(onlyPolicy, denied()), ExitRejected},
		{"denied by policy, --fail-on none", run(Policy{FailOn: []string{}}, denied()), ExitChanged},
		{"warned by a policy, --fail-on policy", run(onlyPolicy, warned()), ExitPolicy},
		{"warned by a policy, by default", run(DefaultPolicy(), warned()), ExitChanged},
		{"another refusal, --fail-on policy", run(onlyPolicy, rejected()), ExitChanged},
	} {
		if c.got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, c.got, c.want)
		}
	}
}
