package conversion

import (
	"slices"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
)

// Kubernetes 1.36 stopped converting the zero targetValue autoscaling/v1 always writes of
// an Object metric with an average value: 1.34 and 1.35 kept it as the v2 target's value
// (which validation then refuses: "must be positive").
func TestHPAFromV1ZeroTargetValuePerMinor(t *testing.T) {
	const v1 = `{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"annotations":{"autoscaling.alpha.kubernetes.io/metrics":"[{\"type\":\"Object\",\"object\":{\"target\":{\"kind\":\"Service\",\"name\":\"web\"},\"metricName\":\"rps\",\"targetValue\":\"0\",\"averageValue\":\"2\"}}]"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3}}`
	for _, v := range kube.Minors() {
		t.Run(v.String(), func(t *testing.T) {
			out, err := Convert(serverconfig.MustFor(v), decodeJSON(t, v1), "autoscaling/v2")
			if err != nil {
				t.Fatal(err)
			}
			target := `{"type":"AverageValue","averageValue":"2"}`
			if !v.AtLeast(36) {
				target = `{"type":"AverageValue","value":"0","averageValue":"2"}`
			}
			sameJSON(t, "spec", out["spec"].(map[string]any), `{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"metrics":[{"type":"Object","object":{"describedObject":{"kind":"Service","name":"web"},"metric":{"name":"rps"},"target":`+target+`}}]}`)
		})
	}
}

// An HPA condition's observedGeneration is a field from Kubernetes 1.37 (k8s.io/api v0.37):
// before it the server's decoding drops it — of a body, and of autoscaling/v1's conditions
// annotation — as any unknown field, a value of the wrong type too (differential seeds 115
// and 195 at 1.33 against 1.33.13's field manager).
func TestHPAConditionObservedGenerationPerMinor(t *testing.T) {
	const v2 = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3},"status":{"desiredReplicas":1,"conditions":[{"type":"AbleToScale","status":"True","observedGeneration":4}]}}`
	const v1 = `{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{"autoscaling.alpha.kubernetes.io/conditions":"[{\"type\":\"AbleToScale\",\"status\":\"True\",\"lastTransitionTime\":null,\"observedGeneration\":4}]"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3},"status":{"currentReplicas":0,"desiredReplicas":1}}`
	const wrongType = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"status":{"conditions":[{"type":"AbleToScale","status":"True","observedGeneration":"x"}]}}`
	for _, v := range kube.Minors() {
		t.Run(v.String(), func(t *testing.T) {
			cfg := serverconfig.MustFor(v)
			kept := v.AtLeast(37)
			cond := `{"type":"AbleToScale","status":"True","lastTransitionTime":null}`
			annot := `[{"type":"AbleToScale","status":"True","lastTransitionTime":null}]`
			if kept {
				cond = `{"type":"AbleToScale","status":"True","lastTransitionTime":null,"observedGeneration":4}`
				annot = `[{"type":"AbleToScale","status":"True","lastTransitionTime":null,"observedGeneration":4}]`
			}
			in := decodeJSON(t, v2)
			for _, to := range []string{"autoscaling/v2", "autoscaling/v1"} {
				out, err := Convert(cfg, in, to)
				if err != nil {
					t.Fatal(err)
				}
				if to == "autoscaling/v2" {
					sameJSON(t, to+" status", out["status"].(map[string]any), `{"desiredReplicas":1,"currentMetrics":null,"conditions":[`+cond+`]}`)
				} else if got := out["metadata"].(map[string]any)["annotations"].(map[string]any)[hpaConditionsAnnotation]; got != annot {
					t.Errorf("%s conditions annotation: %v, want %s", to, got, annot)
				}
			}
			if _, ok := in["status"].(map[string]any)["conditions"].([]any)[0].(map[string]any)["observedGeneration"]; !ok {
				t.Error("Convert changed its input")
			}
			out, err := Convert(cfg, decodeJSON(t, v1), "autoscaling/v2")
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, "v1→v2 conditions", map[string]any{"c": out["status"].(map[string]any)["conditions"]}, `{"c":[`+cond+`]}`)
			warnings, err := DecodeBody(cfg, decodeJSON(t, v2))
			want := []string{`unknown field "status.conditions[0].observedGeneration"`}
			if kept {
				want = nil
			}
			if err != nil || !slices.Equal(warnings, want) {
				t.Errorf("DecodeBody: warnings %q (%v), want %q", warnings, err, want)
			}
			_, err = DecodeBody(cfg, decodeJSON(t, wrongType))
			if kept != (err != nil) {
				t.Errorf("DecodeBody of a string observedGeneration: %v (the field is known: %v)", err, kept)
			}
		})
	}
}

// An HPA's scaling rules have a tolerance from Kubernetes 1.33 (k8s.io/api v0.33): 1.32's
// decoding drops it, its behavior annotation has no Tolerance, and the two tolerance
// annotations are not round-trip ones there (differential seed 115 at 1.32 against
// 1.32.13's field manager).
func TestHPAToleranceBefore133(t *testing.T) {
	const v2 = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{"autoscaling.alpha.kubernetes.io/scale-up-tolerance":"0.1"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"behavior":{"scaleUp":{"selectPolicy":"Max","tolerance":"50m"}}}}`
	const v1 = `{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","annotations":{"autoscaling.alpha.kubernetes.io/scale-up-tolerance":"0.1","autoscaling.alpha.kubernetes.io/behavior":"{\"ScaleUp\":{\"StabilizationWindowSeconds\":null,\"SelectPolicy\":\"Max\",\"Policies\":null,\"Tolerance\":\"50m\"},\"ScaleDown\":null}"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3}}`
	for _, v := range kube.Minors() {
		t.Run(v.String(), func(t *testing.T) {
			cfg := serverconfig.MustFor(v)
			has := v.AtLeast(33)
			out, err := Convert(cfg, decodeJSON(t, v2), "autoscaling/v1")
			if err != nil {
				t.Fatal(err)
			}
			ann := out["metadata"].(map[string]any)["annotations"].(map[string]any)
			behavior := `{"ScaleUp":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":null},"ScaleDown":null}`
			if has {
				behavior = `{"ScaleUp":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":null,"Tolerance":"50m"},"ScaleDown":null}`
			}
			if got := ann[hpaBehaviorAnnotation]; got != behavior {
				t.Errorf("behavior annotation %v, want %s", got, behavior)
			}
			if _, kept := ann[hpaScaleUpToleranceAnnot]; kept == has {
				t.Errorf("scale-up-tolerance annotation kept: %v", kept)
			}
			out, err = Convert(cfg, decodeJSON(t, v1), "autoscaling/v2")
			if err != nil {
				t.Fatal(err)
			}
			scaleUp := `{"selectPolicy":"Max"}`
			if has {
				scaleUp = `{"selectPolicy":"Max","tolerance":"50m"}`
			}
			sameJSON(t, "v1→v2 scaleUp", out["spec"].(map[string]any)["behavior"].(map[string]any)["scaleUp"].(map[string]any), scaleUp)
			anns, _ := out["metadata"].(map[string]any)["annotations"].(map[string]any)
			_, kept := anns[hpaScaleUpToleranceAnnot]
			if kept == has {
				t.Errorf("v1→v2: scale-up-tolerance annotation kept: %v", kept)
			}
		})
	}
}
