package helmrun

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
)

// TestHistoryWithoutRecords: a release the live state holds no record of has no history,
// and an upgrade is warned that Helm finds none; an install is not.
func TestHistoryWithoutRecords(t *testing.T) {
	reg, err := schema.NewRegistry(kube.Minors()[len(kube.Minors())-1])
	if err != nil {
		t.Fatal(err)
	}
	r := Release{Name: "web", Namespace: "apps", Driver: "configmap", Command: appliers.HelmOptions{Command: appliers.HelmCommand("upgrade")}}
	if kind, resource := r.RecordKind(); kind != "ConfigMap" || resource != "configmaps" {
		t.Errorf("--helm-driver configmap: %s %s", kind, resource)
	}
	history, msgs, err := r.History(nil, reg)
	if err != nil || len(history) != 0 {
		t.Fatalf("history %v, %v", history, err)
	}
	want := `no record of the release "web" in namespace "apps" in the live state (ConfigMaps labelled owner=helm,name=web): Helm would find none`
	if len(msgs) != 1 || !msgs[0].Warning || msgs[0].Text != want {
		t.Errorf("messages %+v", msgs)
	}
	r.Command.Command = "install"
	if _, msgs, _ := r.History(nil, reg); len(msgs) != 0 {
		t.Errorf("install: %+v", msgs)
	}
}
