package conversion

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/wire/autoscalingv2"
	"k8s.io/apimachinery/pkg/runtime"
)

var hpaV2Seeds = []string{
	`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","namespace":"n","labels":{"a":"b"},"annotations":{"autoscaling.alpha.kubernetes.io/metrics":"[]"},"creationTimestamp":"2026-12-01T09:00:00Z","generation":2},
	 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"minReplicas":2,"maxReplicas":10,
	  "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}},
	   {"type":"Pods","pods":{"metric":{"name":"rps","selector":{"matchLabels":{"a":"b"},"matchExpressions":[{"key":"k","operator":"In","values":["x",null]}]}},"target":{"type":"AverageValue","averageValue":"1500m"}}},
	   {"type":"Object","object":{"describedObject":{"kind":"Ingress","name":"i"},"metric":{"name":"hits"},"target":{"type":"Value","value":"10k"}}},
	   {"type":"ContainerResource","containerResource":{"name":"memory","container":"c","target":{"type":"AverageValue","averageValue":" 1Gi "}}},
	   {"type":"External","external":{"metric":{"name":"queue"},"target":{"type":"Value","value":"30"}}},null],
	  "behavior":{"scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15}],"tolerance":"0.05"},"scaleDown":{}}},
	 "status":{"observedGeneration":2,"lastScaleTime":"2026-12-01T09:00:00Z","currentReplicas":3,"desiredReplicas":4,
	  "currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":50,"averageValue":"100m"}}},{"type":"Object","object":{"metric":{"name":"m"},"current":{"value":"1"},"describedObject":{"kind":"S","name":"s"}}},{"type":"Pods","pods":{"metric":{"name":"p"},"current":{"averageValue":"2"}}},{"type":"ContainerResource","containerResource":{"name":"cpu","container":"c","current":{"averageUtilization":1}}},{"type":"External","external":{"metric":{"name":"e"},"current":{"value":"3"}}}],
	  "conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-12-01T09:00:00Z","reason":"r","message":"m","observedGeneration":2}]},
	 "extra":{"x":1}}`,
	`{"spec":{"maxReplicas":4294967297,"minReplicas":-1},"status":{"desiredReplicas":1}}`,
	`{"spec":{"metrics":null,"behavior":null},"status":{"currentMetrics":null,"conditions":[]}}`,
	`{"spec":{"maxReplicas":1.5}}`,
	`{"spec":{"maxReplicas":"1"}}`,
	`{"spec":{"metrics":[{"resource":{"target":{"averageValue":1}}}]}}`,
	`{"spec":{"metrics":[{"resource":{"target":{"averageValue":"1<"}}}]}}`,
	`{"spec":{"metrics":[{"resource":{"target":{"averageValue":"x"}}}]}}`,
	`{"spec":{"behavior":{"scaleUp":{"tolerance":"1e3"}}}}`,
	`{"spec":[]}`,
	`{"metadata":{"name":1}}`,
	`{"status":{"conditions":[{"lastTransitionTime":"now"}]}}`,
	`{"status":{"lastScaleTime":5}}`,
}

// sameHPAV2 holds hpaV2Direct to apimachinery's converter on an object decoded from data:
// the same HPA when it decodes, and no decoding where the converter fails. It reports
// whether hpaV2Direct decoded.
func sameHPAV2(t *testing.T, data []byte) bool {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	obj, ok := numbers(v).(map[string]any)
	if !ok {
		return false
	}
	want := &autoscalingv2.HorizontalPodAutoscaler{}
	err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, want)
	got, ok := hpaV2Direct(obj)
	switch {
	case ok && err != nil:
		t.Fatalf("%s: decoded %#v where the converter fails: %v", data, got, err)
	case ok && !reflect.DeepEqual(got, want):
		t.Fatalf("%s:\n got %#v\nwant %#v", data, got, want)
	}
	return ok
}

func TestHPAV2Direct(t *testing.T) {
	for i, want := range []bool{true, true, true, false, false, false, false, false, true, false, false, false, false} {
		if got := sameHPAV2(t, []byte(hpaV2Seeds[i])); got != want {
			t.Errorf("%s: decoded %v, want %v", hpaV2Seeds[i], got, want)
		}
	}
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	more, _ := filepath.Glob("../../conformance/testdata/minors/*/*/*.json")
	decoded := 0
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(`"autoscaling/v2"`)) && sameHPAV2(t, data) {
			decoded++
		}
	}
	if decoded < 3 {
		t.Errorf("only %d recorded HPAs decoded directly", decoded)
	}
}

// FuzzHPAV2Direct holds hpaV2Direct to the converter on any object.
func FuzzHPAV2Direct(f *testing.F) {
	for _, s := range hpaV2Seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameHPAV2(t, data) })
}

// TestHPAV2DirectMutations holds hpaV2Direct to the converter on the first seed with
// values replaced at random, at every depth, by values of every decoded type: most of
// them turn a member into one the converter refuses or converts otherwise.
func TestHPAV2DirectMutations(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 1))
	values := []func() any{
		func() any { return nil },
		func() any { return "x" },
		func() any {
			return []string{"1", "250m", " 2Gi", "1e3", "0.5", "-1", "2026-12-01T09:00:00Z", "In", ""}[r.IntN(9)]
		},
		func() any { return int64(r.IntN(1 << 20)) },
		func() any { return int64(1) << 40 },
		func() any { return float64(r.IntN(100)) / 4 },
		func() any { return r.IntN(2) == 0 },
		func() any { return map[string]any{} },
		func() any { return map[string]any(nil) },
		func() any { return []any{} },
		func() any { return []any{nil, "a"} },
	}
	var mutate func(v any, depth int) any
	mutate = func(v any, depth int) any {
		if r.IntN(6) == 0 || depth > 8 {
			return values[r.IntN(len(values))]()
		}
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if r.IntN(3) == 0 {
					x[k] = mutate(e, depth+1)
				}
			}
		case []any:
			for i, e := range x {
				if r.IntN(2) == 0 {
					x[i] = mutate(e, depth+1)
				}
			}
		}
		return v
	}
	decoded := 0
	for i := 0; i < 3000; i++ {
		obj := decodeJSON(t, hpaV2Seeds[0])
		mutate(obj, 0)
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if sameHPAV2(t, data) {
			decoded++
		}
	}
	if decoded < 100 || decoded > 2900 {
		t.Errorf("%d of 3000 mutated HPAs decoded directly: the mutations are not telling", decoded)
	}
}
