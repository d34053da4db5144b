package validation_test

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
)

// TestReplicaSetUpdateCheckedAsNewAt133: kube-apiserver 1.33's ReplicaSet strategy checks
// an update as a new ReplicaSet first, then as an update, then the selector: the message
// says each error once, its causes count the spec's twice. Recorded from kube-apiserver
// 1.33.13 (a PUT of this write, unconditional: 5 causes).
func TestReplicaSetUpdateCheckedAsNewAt133(t *testing.T) {
	const stored = `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web, namespace: default, resourceVersion: "72"}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`
	c := workloadCase{old: stored, new: edit(t, edit(t, stored, "replicas: 1", "replicas: 1\n  minReadySeconds: -5"),
		"selector: {matchLabels: {app: web}}", "selector: {matchLabels: {app: web, tier: x}}")}
	const recorded = `ReplicaSet.apps "web" is invalid: [spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0, ` +
		"spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`, " +
		`spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable]`
	got, causes, _ := c.validateFull(t, serverconfig.MustFor(kube.Minor(33)))
	if got != recorded || causes != 5 {
		t.Errorf("got %d causes: %s\nrecorded 5: %s", causes, got, recorded)
	}
}
