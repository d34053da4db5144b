package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// Defaulters of autoscaling/v1 and autoscaling/v2 (k8s.io/kubernetes
// pkg/apis/autoscaling/{v1,v2}).

var autoscalingDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler", defaultHPAv1},
	{"io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler", defaultHPAv2},
}

// defaultHPAv1 follows autoscaling/v1 SetDefaults_HorizontalPodAutoscaler.
func defaultHPAv1(m map[string]any) {
	setIfNil(unstructured.EnsureObject(m, "spec"), "minReplicas", int64(1))
}

// defaultHPAv2 follows autoscaling/v2 SetDefaults_HorizontalPodAutoscaler and
// SetDefaults_HorizontalPodAutoscalerBehavior: a CPU utilisation target of
// 80% when no metric is given, and complete scale-up/scale-down rules once a
// behavior is given.
func defaultHPAv2(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	setIfNil(spec, "minReplicas", int64(1))
	if len(unstructured.List(spec, "metrics")) == 0 {
		spec["metrics"] = []any{map[string]any{
			"type": "Resource",
			"resource": map[string]any{
				"name":   "cpu",
				"target": map[string]any{"type": "Utilization", "averageUtilization": int64(80)},
			},
		}}
	}
	b := unstructured.Object(spec, "behavior")
	if b == nil {
		return
	}
	b["scaleUp"] = scalingRules(unstructured.Object(b, "scaleUp"), map[string]any{
		"stabilizationWindowSeconds": int64(0),
		"selectPolicy":               "Max",
		"policies": []any{
			map[string]any{"type": "Pods", "value": int64(4), "periodSeconds": int64(15)},
			map[string]any{"type": "Percent", "value": int64(100), "periodSeconds": int64(15)},
		},
	})
	b["scaleDown"] = scalingRules(unstructured.Object(b, "scaleDown"), map[string]any{
		"selectPolicy": "Max",
		"policies": []any{
			map[string]any{"type": "Percent", "value": int64(100), "periodSeconds": int64(15)},
		},
	})
}

// scalingRules overlays the set fields of given on the defaults (upstream
// copyHPAScalingRules): a nil policies list takes the default list.
func scalingRules(given, defaults map[string]any) map[string]any {
	if given == nil {
		return defaults
	}
	for _, k := range []string{"selectPolicy", "stabilizationWindowSeconds", "policies", "tolerance"} {
		if v, ok := given[k]; ok && v != nil {
			defaults[k] = v
		}
	}
	return defaults
}
