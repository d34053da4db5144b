package gate

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseFailOn(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
		err  string
	}{
		{[]string{"rejected"}, []string{"rejected"}, ""},
		{[]string{"takeover,conflicts", "deletion"}, []string{"conflicts", "takeover", "deletion"}, ""},
		{[]string{"conflict, takeovers,deletions"}, []string{"conflicts", "takeover", "deletion"}, ""},
		{[]string{"all"}, []string{"conflicts", "takeover", "deletion", "rejected", "prune", "approximate", "policy"}, ""},
		{[]string{"policies"}, []string{"policy"}, ""},
		{[]string{"prunes,approximations"}, []string{"prune", "approximate"}, ""},
		{[]string{"all", "none"}, []string{}, ""},
		{[]string{"none,rejected"}, []string{"rejected"}, ""},
		{[]string{"drift"}, nil, `unknown --fail-on value "drift"`},
	} {
		got, err := ParseFailOn(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q %v, want %q", c.in, got, err, c.want)
		}
	}
	if err := CheckGlobs([]string{"kube-*", "a[b"}); err == nil {
		t.Error("a malformed glob is accepted")
	}
}

// TestEvaluateOutcomes holds each outcome's first finding to its category and level, the
// conflicts of a refused write to "conflict with", and --protect above --allow-takeover-from.
func TestEvaluateOutcomes(t *testing.T) {
	policy := Policy{FailOn: []string{CategoryPolicy}, AllowTakeoverFrom: []string{"*"}, Protect: []string{"kube-*"}}
	for _, c := range []struct {
		name          string
		w             Write
		category      string
		level, prefix string
	}{
		{"failed", Write{Outcome: Failed, Line: 3, Failure: &Failure{Message: "bad yaml", Line: 9}}, CategoryError, LevelFailure, "bad yaml"},
		{"failed without a message", Write{Outcome: Failed}, CategoryError, LevelFailure, "ssa-diff could not predict"},
		{"refused by a policy", Write{Outcome: Refused, Refusal: &Refusal{Code: 422, Reason: "Invalid", Message: "denied", Admission: "PodSecurity"}}, CategoryRejected, LevelFailure, "the server would refuse the apply (422 Invalid): denied"},
		{"refused by validation", Write{Outcome: Refused, Refusal: &Refusal{Code: 422, Message: "bad"}}, CategoryRejected, LevelWarning, "the server would refuse the apply (422): bad"},
		{"refused with a conflict", Write{Outcome: Refused, Conflicts: []Conflict{{Manager: "hpa", Owner: `"hpa"`, Path: ".spec.replicas"}}}, CategoryRejected, LevelWarning, "the server would refuse"},
		{"pruned", Write{Outcome: Pruned, PruneMessage: "argocd prunes it"}, CategoryPrune, LevelWarning, "argocd prunes it"},
		{"protected", Write{Takeovers: []Takeover{{Manager: "kube-scheduler", Described: "kube-scheduler (Update)", Paths: []string{".a"}}}}, CategoryProtected, LevelFailure, "takes 1 field from kube-scheduler (Update), which --protect protects"},
		{"policy warning", Write{Warnings: []string{"the server would warn: would violate PodSecurity \"restricted:latest\""}}, CategoryPolicy, LevelFailure, "the server would warn"},
		{"recreated", Write{Recreated: "delete (Replace=true)"}, CategoryDeletion, LevelWarning, "the object is deleted and created again (delete (Replace=true))"},
	} {
		fs := policy.Evaluate(c.w, "me", nil)
		if len(fs) == 0 {
			t.Errorf("%s: no finding", c.name)
			continue
		}
		f := fs[0]
		if f.Category != c.category || f.Level != c.level || !strings.HasPrefix(f.Message, c.prefix) {
			t.Errorf("%s: %s %s %q, want %s %s %q…", c.name, f.Category, f.Level, f.Message, c.category, c.level, c.prefix)
		}
		if c.name == "refused with a conflict" && (len(fs) != 2 || !strings.HasPrefix(fs[1].Message, `conflict with "hpa": .spec.replicas`)) {
			t.Errorf("%s: %+v", c.name, fs)
		}
	}
}
