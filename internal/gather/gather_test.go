package gather

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/plan"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// A run's inputs from options alone, no flag parsed: the minor asked for, the manifest
// paired with its live object, one slot; then the engine of that minor predicts it.
func TestReadPairSlots(t *testing.T) {
	dir := "../../testdata/examples/hpa-owns-replicas/"
	kind, _ := appliers.KindOf("kubectl")
	newApplier := func(ns string) (appliers.Applier, error) { return kind.New(appliers.Settings{Namespace: ns}) }
	client, err := newApplier("default")
	if err != nil {
		t.Fatal(err)
	}
	minor := kube.Minors()[0]
	choice, err := predict.ParseMinorChoice("--kube-version", minor.String())
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	in, err := Read(context.Background(), Options{Stderr: &stderr, Limits: input.DefaultLimits(), Manifests: []string{dir + "manifest.yaml"},
		Live: dir + "live.json", Namespace: "default", Minor: choice, ApplierName: "kubectl", Applier: client, NewApplier: newApplier})
	if err != nil {
		t.Fatal(err)
	}
	if in.Registry.Minor() != minor {
		t.Errorf("minor %s, want %s (asked for)", in.Registry.Minor(), minor)
	}
	if err := in.Pair(); err != nil {
		t.Fatal(err)
	}
	slots, _ := in.Slots(in.Applier)
	if len(slots) != 1 || slots[0].Pair == nil || slots[0].Pair.Live == nil {
		t.Fatalf("slots %+v, want the manifest paired with its live object", slots)
	}
	eng, model := in.Engine(in.Registry, kubeapiserver.Config{}, Admission{})
	defer model.Close()
	run := &predict.Run{Predictor: eng, Applier: in.Applier, Schemas: in.Registry, Judge: in.Judge, NoDrift: in.NoDrift()}
	var outcome *predict.Outcome
	for range run.PredictAll(context.Background(), plan.Steps(slots, nil), predict.Schedule{Jobs: 1, Done: func(_ int, o *predict.Outcome) { outcome = o }}) {
	}
	if outcome == nil || outcome.Err != nil || outcome.Prediction == nil {
		t.Fatalf("the slot's outcome: %+v", outcome)
	}
	if strings.Contains(stderr.String(), "error") {
		t.Errorf("stderr: %s", stderr.String())
	}
}
