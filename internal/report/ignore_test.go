package report

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/judge"
)

// The ignore rules make notices of what they hide, and leave a refusal what it is
// (SEMANTICS: a conflict is refused whoever owns the field).
func TestEvaluateIgnore(t *testing.T) {
	hpa := Manager{Manager: "hpa", Operation: "Update", Subresource: "scale"}
	live := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": map[string]any{"replicas": int64(4), "paused": true}}
	forced := &Result{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Action: ActionUpdate, Live: live, Object: live,
		Conflicts: []Conflict{{Manager: hpa, Owner: "hpa", Path: ".spec.replicas", Live: int64(4), Applied: int64(6)}},
		Ownership: []Ownership{{Manager: hpa, Taken: []string{".spec.replicas"}}},
		Deleted:   []string{".spec.paused"}}
	refused := &Result{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Action: ActionRejected, Live: live,
		Error:     &Error{Code: 409, Reason: "Conflict", Message: "Apply failed with 1 conflict"},
		Conflicts: []Conflict{{Manager: hpa, Owner: "hpa", Path: ".spec.replicas", Live: int64(4), Applied: int64(6)}}}
	path, err := judge.ParseIgnoreRule("apps/Deployment:/spec/paused")
	if err != nil {
		t.Fatal(err)
	}
	ig, err := judge.NewIgnore(path, judge.IgnoreRule{Group: "*", Kind: "*", Managers: []string{"hpa"}})
	if err != nil {
		t.Fatal(err)
	}
	all := Policy{FailOn: []string{"conflicts", CategoryTakeover, CategoryDeletion, CategoryRejected}}
	quiet := all
	quiet.Ignore = ig
	levels := func(p Policy, res *Result) string {
		var out []string
		for _, f := range Evaluate(p, res, "kubectl", nil) {
			out = append(out, f.Category+"="+f.Level)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		p    Policy
		res  *Result
		want string
	}{
		{all, forced, "conflict=failure takeover=failure deletion=failure"},
		{quiet, forced, "conflict=notice takeover=notice deletion=notice"},
		{all, refused, "rejected=failure conflict=failure"},
		{quiet, refused, "rejected=failure conflict=failure"},
	} {
		if got := levels(c.p, c.res); got != c.want {
			t.Errorf("ignore %v, %s: %s, want %s", c.p.Ignore != nil, c.res.Action, got, c.want)
		}
	}
	if f := Evaluate(quiet, forced, "kubectl", nil); !strings.HasSuffix(f[2].Message, " (ignored: --ignore-path/--ignore-manager)") {
		t.Errorf("the notice does not say why: %q", f[2].Message)
	}
	// Another kind's rule hides nothing of it.
	other, _ := judge.ParseIgnoreRule("core/ConfigMap:/spec/paused")
	igc, _ := judge.NewIgnore(other)
	if got := levels(Policy{FailOn: all.FailOn, Ignore: igc}, forced); got != "conflict=failure takeover=failure deletion=failure" {
		t.Errorf("a ConfigMap's rule: %s", got)
	}
}
