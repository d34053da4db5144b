package conversion

import (
	"bytes"
	"encoding/json"
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
