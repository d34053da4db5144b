package crd

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A rule that does not compile is printed as JSON from 1.34; 1.33 prints the internal
// apiextensions.ValidationRule in Go syntax, a pointer set with its address (a stand-in
// here), as the field error of the linked apimachinery prints it. Recorded:
// server/kubeapiserver/testdata/crdminors/cel-compile (1.33, 1.34).
func TestRulePrintedBefore134(t *testing.T) {
	reason := "FieldValueInvalid"
	r := crdschema.Rule{Rule: "self.`a` >= 0", Reason: &reason}
	for minor, want := range map[int]string{
		33: "spec.rule: Invalid value: apiextensions.ValidationRule{Rule:\"self.`a` >= 0\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(0xc000000000), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed",
		34: "spec.rule: Invalid value: {\"Rule\":\"self.`a` \\u003e= 0\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":\"FieldValueInvalid\",\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed",
	} {
		cfg := &serverconfig.Config{Minor: kube.Minor(minor)}
		got := field.Invalid(field.NewPath("spec", "rule"), printedRule(cfg, r), "compilation failed").Error()
		if got != want {
			t.Errorf("1.%d:\n got %s\nwant %s", minor, got, want)
		}
	}
	if !strings.Contains(goRule(internalRule(crdschema.Rule{Rule: "x"})).String(), "Reason:(*apiextensions.FieldValueErrorReason)(nil)") {
		t.Error("an unset reason is not a nil pointer")
	}
}
