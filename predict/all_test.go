package predict

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/merge"
)

// fakePredictor answers every request with the request's object, panics on an object named
// "boom", and counts the requests.
type fakePredictor struct{ n atomic.Int64 }

func (f *fakePredictor) Predict(_ appliers.Applier, req merge.Request) (*merge.Result, error) {
	f.n.Add(1)
	if req.Endpoint.Name == "boom" {
		panic("the engine broke")
	}
	return &merge.Result{Object: req.Object}, nil
}

func fakeStep(name string) Step {
	id := Identity{Kind: "ConfigMap", Namespace: "ns", Name: name}
	return Step{Object: id, Name: name + ".yaml", Apply: Apply{Namespace: "ns", Name: name},
		Manifest: func() (map[string]any, error) { return map[string]any{"metadata": map[string]any{"name": name}}, nil }}
}

// TestPredictAllKeepsOrderAndChains: outcomes come in the steps' order whatever the
// workers, a chain's later step is predicted against the object the earlier leaves, a panic
// is the step's error, and a caller that stops iterating stops the run.
func TestPredictAllKeepsOrderAndChains(t *testing.T) {
	f := &fakePredictor{}
	run := &Run{Predictor: f, Applier: appliers.KubectlApply{FieldManager: "kubectl"}}
	var steps []Step
	for _, n := range []string{"a", "b", "a", "boom", "c"} {
		steps = append(steps, fakeStep(n))
	}
	steps = append(steps, Step{Name: "unread.yaml"})
	var got []int
	for i, o := range run.PredictAll(context.Background(), steps, Schedule{Jobs: 3}) {
		got = append(got, i)
		switch i {
		case 2:
			if o.LiveFrom != 0 || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "also applied by a.yaml") {
				t.Errorf("the chain's second step: LiveFrom %d, warnings %q", o.LiveFrom, o.Warnings)
			}
		case 3:
			if o.Err == nil || !strings.Contains(o.Err.Error(), "internal error in ssa-diff (please report it): the engine broke") {
				t.Errorf("a panic: %v", o.Err)
			}
		case 5:
			if o.Prediction != nil || o.Err != nil {
				t.Errorf("a step not predicted: %+v", o)
			}
		default:
			if o.Err != nil || o.Prediction == nil || o.LiveFrom != -1 {
				t.Errorf("step %d: %+v", i, o)
			}
		}
	}
	if len(got) != len(steps) {
		t.Fatalf("yielded %v", got)
	}
	for i, k := range got {
		if i != k {
			t.Fatalf("out of order: %v", got)
		}
	}

	many := make([]Step, 200)
	for i := range many {
		many[i] = fakeStep(strings.Repeat("x", i+1))
	}
	f.n.Store(0)
	for range run.PredictAll(context.Background(), many, Schedule{Jobs: 1}) {
		// A slow caller: the worker has time to run ahead as far as it may.
		for deadline := time.Now().Add(100 * time.Millisecond); f.n.Load() <= 8 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		break
	}
	// However the goroutines are scheduled, the worker runs at most the lookahead window
	// (8 steps a job) past what was yielded.
	if n := f.n.Load(); n > 8 {
		t.Errorf("a caller that stopped after one outcome: %d predictions made, want at most 8", n)
	}
}
