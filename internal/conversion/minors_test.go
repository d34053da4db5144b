package conversion

import (
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
