package conversion

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/wire/autoscalingv1"
	"github.com/ssa-diff/ssa-diff/internal/wire/autoscalingv2"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The annotations in which autoscaling/v1 keeps what it cannot express (k8s.io/kubernetes
// pkg/apis/autoscaling/annotations.go).
const (
	hpaMetricsAnnotation        = "autoscaling.alpha.kubernetes.io/metrics"
	hpaCurrentMetricsAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics"
	hpaBehaviorAnnotation       = "autoscaling.alpha.kubernetes.io/behavior"
	hpaConditionsAnnotation     = "autoscaling.alpha.kubernetes.io/conditions"
	hpaScaleDownToleranceAnnot  = "autoscaling.alpha.kubernetes.io/scale-down-tolerance"
	hpaScaleUpToleranceAnnot    = "autoscaling.alpha.kubernetes.io/scale-up-tolerance"
	// hpaDefaultCPUUtilization is the target an HPA without metrics gets from autoscaling/v1.
	hpaDefaultCPUUtilization int32 = 80
)

// hpaConditionObservedGenerationSince is the minor from which an HPA condition has an
// observedGeneration (k8s.io/api v0.37, in autoscaling/v1's conditions annotation too;
// the wire types here are the newest release's). Before it, the server's decoding drops
// the field, of a body and of the annotation alike (found by the differential harness at
// 1.33 against 1.33.13's field manager; k8s.io/api v0.32–v0.36 have no such field).
const hpaConditionObservedGenerationSince = 37

// hpaToleranceSince is the minor from which an HPA's scaling rules have a tolerance
// (k8s.io/api v0.33, the internal version too, so the behavior annotation names it) and
// the two tolerance annotations are round-trip ones. Kubernetes 1.32 has neither: its
// decoding drops spec.behavior's tolerances, its behavior annotation has no Tolerance, and
// the tolerance annotations are an object's own (found by the differential harness at 1.32
// against 1.32.13's field manager).
const hpaToleranceSince = 33

// hpaRoundTripAnnotations never reach the internal version.
var hpaRoundTripAnnotations = []string{
	hpaMetricsAnnotation, hpaBehaviorAnnotation, hpaScaleDownToleranceAnnot,
	hpaScaleUpToleranceAnnot, hpaCurrentMetricsAnnotation, hpaConditionsAnnotation,
}

// hpaRoundTripAnnotationsBefore133 are the round-trip annotations before hpaToleranceSince.
var hpaRoundTripAnnotationsBefore133 = []string{
	hpaMetricsAnnotation, hpaBehaviorAnnotation, hpaCurrentMetricsAnnotation, hpaConditionsAnnotation,
}

// hpaConversion converts HorizontalPodAutoscalers. The hub is an autoscaling/v2 object
// standing for the internal version (same shape), never carrying round-trip annotations.
var hpaConversion = &kindConversion{
	versions: []string{"v2", "v1"},
	hub:      "v2",
	newObject: func(version string) any {
		if version == "v1" {
			return &autoscalingv1.HorizontalPodAutoscaler{}
		}
		return &autoscalingv2.HorizontalPodAutoscaler{}
	},
	decodable: hpaDecodable,
	direct: func(version string, obj map[string]any) (any, bool) {
		if version != "v2" {
			return nil, false
		}
		return hpaV2Direct(obj)
	},
	toHub: func(cfg *serverconfig.Config, _ string, in any) any {
		if v1, ok := in.(*autoscalingv1.HorizontalPodAutoscaler); ok {
			return hpaV1ToHub(cfg, v1)
		}
		hub := in.(*autoscalingv2.HorizontalPodAutoscaler)
		hub.Annotations = withoutRoundTripAnnotations(cfg, hub.Annotations)
		return hub
	},
	fromHub: func(cfg *serverconfig.Config, h any, version string) (any, error) {
		hub := h.(*autoscalingv2.HorizontalPodAutoscaler)
		if version == "v1" {
			out, err := hpaHubToV1(cfg, hub)
			if err != nil {
				return nil, err
			}
			out.TypeMeta = metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "HorizontalPodAutoscaler"}
			return out, nil
		}
		out := *hub
		out.Annotations = withoutRoundTripAnnotations(cfg, out.Annotations)
		out.TypeMeta = metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"}
		return &out, nil
	},
}

// hpaDecodable is obj, an HPA at autoscaling/v2 (or v1, which has neither field), without
// what the Go types of cfg's minor lack: its conditions' observedGeneration before 1.37,
// spec.behavior's tolerances before 1.33; and the paths of the fields it took out. obj is
// not changed; the result shares what it does not change.
func hpaDecodable(cfg *serverconfig.Config, obj map[string]any) (map[string]any, []string) {
	var removed []string
	if !cfg.AtLeast(hpaToleranceSince) {
		obj, removed = withoutTolerances(obj)
	}
	if cfg.AtLeast(hpaConditionObservedGenerationSince) {
		return obj, removed
	}
	status, _ := obj["status"].(map[string]any)
	conditions, _ := status["conditions"].([]any)
	has := false
	for _, c := range conditions {
		if m, ok := c.(map[string]any); ok {
			if _, ok := m["observedGeneration"]; ok {
				has = true
				break
			}
		}
	}
	if !has {
		return obj, removed
	}
	out := make([]any, len(conditions))
	for i, c := range conditions {
		m, ok := c.(map[string]any)
		if _, has := m["observedGeneration"]; !ok || !has {
			out[i] = c
			continue
		}
		without := maps.Clone(m)
		delete(without, "observedGeneration")
		out[i] = without
		removed = append(removed, fmt.Sprintf("status.conditions[%d].observedGeneration", i))
	}
	st := maps.Clone(status)
	st["conditions"] = out
	o := maps.Clone(obj)
	o["status"] = st
	return o, removed
}

// withoutTolerances is obj without spec.behavior.scaleUp.tolerance and
// spec.behavior.scaleDown.tolerance, copied where they were, and the paths of those it had.
func withoutTolerances(obj map[string]any) (map[string]any, []string) {
	spec, _ := obj["spec"].(map[string]any)
	behavior, _ := spec["behavior"].(map[string]any)
	var rules map[string]any
	var removed []string
	for _, dir := range []string{"scaleDown", "scaleUp"} {
		r, _ := behavior[dir].(map[string]any)
		if _, ok := r["tolerance"]; !ok {
			continue
		}
		removed = append(removed, "spec.behavior."+dir+".tolerance")
		c := maps.Clone(r)
		delete(c, "tolerance")
		if rules == nil {
			rules = maps.Clone(behavior)
		}
		rules[dir] = c
	}
	if rules == nil {
		return obj, nil
	}
	sp := maps.Clone(spec)
	sp["behavior"] = rules
	o := maps.Clone(obj)
	o["spec"] = sp
	return o, removed
}

// hpaConditionsText is the conditions annotation's text as the Go types of cfg's minor
// read it: without the conditions' observedGeneration before 1.37 (as hpaDecodable). A
// text that is not a list of objects is returned as it is (neither reads it).
func hpaConditionsText(cfg *serverconfig.Config, text string) []byte {
	if cfg.AtLeast(hpaConditionObservedGenerationSince) {
		return []byte(text)
	}
	var conditions []map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &conditions) != nil {
		return []byte(text)
	}
	for _, c := range conditions {
		delete(c, "observedGeneration")
	}
	b, err := json.Marshal(conditions)
	if err != nil {
		return []byte(text)
	}
	return b
}

// withoutRoundTripAnnotations is a copy of the annotations without the round-trip ones
// of cfg's minor, or the annotations themselves when they have none.
func withoutRoundTripAnnotations(cfg *serverconfig.Config, in map[string]string) map[string]string {
	roundTrip := hpaRoundTripAnnotations
	if !cfg.AtLeast(hpaToleranceSince) {
		roundTrip = hpaRoundTripAnnotationsBefore133
	}
	found := false
	for _, k := range roundTrip {
		if _, ok := in[k]; ok {
			found = true
			break
		}
	}
	if !found {
		return in
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	for _, k := range roundTrip {
		delete(out, k)
	}
	return out
}

// isCPUUtilization tells the one metric autoscaling/v1 has a field for.
func isCPUUtilization(m *autoscalingv2.MetricSpec) bool {
	return m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil &&
		m.Resource.Name == autoscalingv2.ResourceCPU && m.Resource.Target.AverageUtilization != nil
}

func cpuUtilizationMetric(percent int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{
		Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{
			Name:   autoscalingv2.ResourceCPU,
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &percent},
		},
	}
}

// hpaV1ToHub reads an autoscaling/v1 HPA into the hub, taking back from the annotations
// what v1 keeps there.
func hpaV1ToHub(cfg *serverconfig.Config, in *autoscalingv1.HorizontalPodAutoscaler) *autoscalingv2.HorizontalPodAutoscaler {
	out := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: in.ObjectMeta}
	out.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference(in.Spec.ScaleTargetRef)
	out.Spec.MinReplicas = in.Spec.MinReplicas
	out.Spec.MaxReplicas = in.Spec.MaxReplicas
	if p := in.Spec.TargetCPUUtilizationPercentage; p != nil {
		out.Spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilizationMetric(*p)}
	}
	out.Status.ObservedGeneration = in.Status.ObservedGeneration
	out.Status.LastScaleTime = in.Status.LastScaleTime
	out.Status.CurrentReplicas = in.Status.CurrentReplicas
	out.Status.DesiredReplicas = in.Status.DesiredReplicas
	if p := in.Status.CurrentCPUUtilizationPercentage; p != nil {
		u := *p
		out.Status.CurrentMetrics = []autoscalingv2.MetricStatus{{
			Type:     autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricStatus{Name: autoscalingv2.ResourceCPU, Current: autoscalingv2.MetricValueStatus{AverageUtilization: &u}},
		}}
	}

	ann := in.Annotations
	if text, ok := ann[hpaMetricsAnnotation]; ok {
		var others []autoscalingv1.MetricSpec
		if json.Unmarshal([]byte(text), &others) == nil {
			// The other metrics first, then the CPU target of the spec, if any.
			metrics := make([]autoscalingv2.MetricSpec, 0, len(others)+len(out.Spec.Metrics))
			for i := range others {
				metrics = append(metrics, metricV1ToHub(cfg, &others[i]))
			}
			out.Spec.Metrics = append(metrics, out.Spec.Metrics...)
		}
	}
	if text, ok := ann[hpaBehaviorAnnotation]; ok {
		var b internalBehavior
		if !cfg.AtLeast(hpaToleranceSince) {
			var old internalBehaviorBefore133
			if json.Unmarshal([]byte(text), &old) == nil {
				b = old.current()
			}
		} else if json.Unmarshal([]byte(text), &b) != nil {
			b = internalBehavior{}
		}
		if b.ScaleUp != nil || b.ScaleDown != nil {
			out.Spec.Behavior = b.toV2()
		}
	}
	if text, ok := ann[hpaCurrentMetricsAnnotation]; ok {
		var current []autoscalingv1.MetricStatus
		if json.Unmarshal([]byte(text), &current) == nil {
			// They replace what status.currentCPUUtilizationPercentage said.
			out.Status.CurrentMetrics = make([]autoscalingv2.MetricStatus, len(current))
			for i := range current {
				out.Status.CurrentMetrics[i] = metricStatusV1ToHub(&current[i])
			}
		}
	}
	if len(out.Spec.Metrics) == 0 {
		out.Spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilizationMetric(hpaDefaultCPUUtilization)}
	}
	if text, ok := ann[hpaConditionsAnnotation]; ok {
		var conditions []autoscalingv1.HorizontalPodAutoscalerCondition
		if json.Unmarshal(hpaConditionsText(cfg, text), &conditions) == nil {
			out.Status.Conditions = make([]autoscalingv2.HorizontalPodAutoscalerCondition, len(conditions))
			for i, c := range conditions {
				out.Status.Conditions[i] = autoscalingv2.HorizontalPodAutoscalerCondition{
					Type: c.Type, Status: c.Status,
					LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message,
					ObservedGeneration: c.ObservedGeneration,
				}
			}
		}
	}
	out.Annotations = withoutRoundTripAnnotations(cfg, ann)
	return out
}

// hpaHubToV1 writes the hub as autoscaling/v1, keeping in annotations what v1 has no field for.
func hpaHubToV1(cfg *serverconfig.Config, in *autoscalingv2.HorizontalPodAutoscaler) (*autoscalingv1.HorizontalPodAutoscaler, error) {
	out := &autoscalingv1.HorizontalPodAutoscaler{ObjectMeta: in.ObjectMeta}
	out.Spec.ScaleTargetRef = autoscalingv1.CrossVersionObjectReference(in.Spec.ScaleTargetRef)
	out.Spec.MinReplicas = in.Spec.MinReplicas
	out.Spec.MaxReplicas = in.Spec.MaxReplicas
	for i := range in.Spec.Metrics {
		if m := &in.Spec.Metrics[i]; isCPUUtilization(m) {
			u := *m.Resource.Target.AverageUtilization
			out.Spec.TargetCPUUtilizationPercentage = &u
			break
		}
	}
	out.Status.ObservedGeneration = in.Status.ObservedGeneration
	out.Status.LastScaleTime = in.Status.LastScaleTime
	out.Status.CurrentReplicas = in.Status.CurrentReplicas
	out.Status.DesiredReplicas = in.Status.DesiredReplicas
	// The last CPU utilisation among the current metrics wins.
	for _, m := range in.Status.CurrentMetrics {
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == autoscalingv2.ResourceCPU && m.Resource.Current.AverageUtilization != nil {
			u := *m.Resource.Current.AverageUtilization
			out.Status.CurrentCPUUtilizationPercentage = &u
		}
	}

	ann := withoutRoundTripAnnotations(cfg, in.Annotations)
	copied := false
	set := func(key string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("annotation %s: %w", key, err)
		}
		if !copied {
			c := make(map[string]string, len(ann)+1)
			for k, v := range ann {
				c[k] = v
			}
			ann, copied = c, true
		}
		ann[key] = string(b)
		return nil
	}
	others := make([]autoscalingv1.MetricSpec, 0, len(in.Spec.Metrics))
	for i := range in.Spec.Metrics {
		if m := &in.Spec.Metrics[i]; !isCPUUtilization(m) {
			others = append(others, metricHubToV1(m))
		}
	}
	if len(others) > 0 {
		if err := set(hpaMetricsAnnotation, others); err != nil {
			return nil, err
		}
	}
	if n := len(in.Status.CurrentMetrics); n > 0 {
		current := make([]autoscalingv1.MetricStatus, n)
		for i := range in.Status.CurrentMetrics {
			current[i] = metricStatusHubToV1(&in.Status.CurrentMetrics[i])
		}
		if err := set(hpaCurrentMetricsAnnotation, current); err != nil {
			return nil, err
		}
	}
	if b := in.Spec.Behavior; b != nil {
		var behavior any = behaviorFromV2(b)
		if !cfg.AtLeast(hpaToleranceSince) {
			behavior = behaviorBefore133FromV2(b)
		}
		if err := set(hpaBehaviorAnnotation, behavior); err != nil {
			return nil, err
		}
	}
	if n := len(in.Status.Conditions); n > 0 {
		conditions := make([]autoscalingv1.HorizontalPodAutoscalerCondition, n)
		for i, c := range in.Status.Conditions {
			conditions[i] = autoscalingv1.HorizontalPodAutoscalerCondition{
				Type: c.Type, Status: c.Status,
				LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message,
				ObservedGeneration: c.ObservedGeneration,
			}
		}
		if err := set(hpaConditionsAnnotation, conditions); err != nil {
			return nil, err
		}
	}
	out.Annotations = ann
	return out, nil
}

func describedObject(r autoscalingv1.CrossVersionObjectReference) autoscalingv2.CrossVersionObjectReference {
	return autoscalingv2.CrossVersionObjectReference(r)
}

func quantityPtr(q resource.Quantity) *resource.Quantity { return &q }

// metricV1ToHub reads one v1 metric (the shape of the metrics annotation).
func metricV1ToHub(cfg *serverconfig.Config, in *autoscalingv1.MetricSpec) autoscalingv2.MetricSpec {
	out := autoscalingv2.MetricSpec{Type: in.Type}
	if s := in.Object; s != nil {
		target := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: quantityPtr(s.TargetValue), AverageValue: s.AverageValue}
		if s.AverageValue != nil {
			target.Type = autoscalingv2.AverageValueMetricType
			// v1 always writes targetValue ("0" when unset): only a real one is kept.
			// Kubernetes 1.36 changed this: before, the zero was kept too, and refused by
			// validation (pkg/apis/autoscaling/v1/conversion.go
			// Convert_v1_ObjectMetricSource_To_autoscaling_ObjectMetricSource in 1.34, 1.35).
			if s.TargetValue.IsZero() && cfg.AtLeast(36) {
				target.Value = nil
			}
		}
		out.Object = &autoscalingv2.ObjectMetricSource{
			DescribedObject: describedObject(s.Target),
			Target:          target,
			Metric:          autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.Selector},
		}
	}
	if s := in.Pods; s != nil {
		out.Pods = &autoscalingv2.PodsMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.Selector},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: quantityPtr(s.TargetAverageValue)},
		}
	}
	if s := in.Resource; s != nil {
		out.Resource = &autoscalingv2.ResourceMetricSource{Name: s.Name, Target: resourceTarget(s.TargetAverageUtilization, s.TargetAverageValue)}
	}
	if s := in.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricSource{Name: s.Name, Container: s.Container,
			Target: resourceTarget(s.TargetAverageUtilization, s.TargetAverageValue)}
	}
	if s := in.External; s != nil {
		t := autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, Value: s.TargetValue, AverageValue: s.TargetAverageValue}
		if s.TargetValue != nil {
			t.Type = autoscalingv2.ValueMetricType
		}
		out.External = &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.MetricSelector},
			Target: t,
		}
	}
	return out
}

// resourceTarget is the target of a (container) resource metric: a utilisation when one is
// given, an average value otherwise.
func resourceTarget(utilization *int32, average *resource.Quantity) autoscalingv2.MetricTarget {
	t := autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: average, AverageUtilization: utilization}
	if utilization != nil {
		t.Type = autoscalingv2.UtilizationMetricType
	}
	return t
}

// metricStatusV1ToHub reads one v1 current metric (the shape of the current-metrics annotation).
func metricStatusV1ToHub(in *autoscalingv1.MetricStatus) autoscalingv2.MetricStatus {
	out := autoscalingv2.MetricStatus{Type: in.Type}
	if s := in.Object; s != nil {
		out.Object = &autoscalingv2.ObjectMetricStatus{
			Metric:          autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.Selector},
			Current:         autoscalingv2.MetricValueStatus{Value: quantityPtr(s.CurrentValue), AverageValue: s.AverageValue},
			DescribedObject: describedObject(s.Target),
		}
	}
	if s := in.Pods; s != nil {
		out.Pods = &autoscalingv2.PodsMetricStatus{
			Metric:  autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.Selector},
			Current: autoscalingv2.MetricValueStatus{AverageValue: quantityPtr(s.CurrentAverageValue)},
		}
	}
	if s := in.Resource; s != nil {
		out.Resource = &autoscalingv2.ResourceMetricStatus{Name: s.Name,
			Current: autoscalingv2.MetricValueStatus{AverageValue: quantityPtr(s.CurrentAverageValue), AverageUtilization: s.CurrentAverageUtilization}}
	}
	if s := in.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricStatus{Name: s.Name, Container: s.Container,
			Current: autoscalingv2.MetricValueStatus{AverageValue: quantityPtr(s.CurrentAverageValue), AverageUtilization: s.CurrentAverageUtilization}}
	}
	if s := in.External; s != nil {
		out.External = &autoscalingv2.ExternalMetricStatus{
			Metric:  autoscalingv2.MetricIdentifier{Name: s.MetricName, Selector: s.MetricSelector},
			Current: autoscalingv2.MetricValueStatus{Value: quantityPtr(s.CurrentValue), AverageValue: s.CurrentAverageValue},
		}
	}
	return out
}

func valueOr0(q *resource.Quantity) resource.Quantity {
	if q == nil {
		return resource.Quantity{}
	}
	return *q
}

// metricHubToV1 writes one metric as v1 writes it into the metrics annotation.
func metricHubToV1(in *autoscalingv2.MetricSpec) autoscalingv1.MetricSpec {
	out := autoscalingv1.MetricSpec{Type: in.Type}
	if s := in.Object; s != nil {
		out.Object = &autoscalingv1.ObjectMetricSource{
			Target:       autoscalingv1.CrossVersionObjectReference(s.DescribedObject),
			MetricName:   s.Metric.Name,
			TargetValue:  valueOr0(s.Target.Value),
			Selector:     s.Metric.Selector,
			AverageValue: s.Target.AverageValue,
		}
	}
	if s := in.Pods; s != nil {
		out.Pods = &autoscalingv1.PodsMetricSource{MetricName: s.Metric.Name, TargetAverageValue: valueOr0(s.Target.AverageValue), Selector: s.Metric.Selector}
	}
	if s := in.Resource; s != nil {
		out.Resource = &autoscalingv1.ResourceMetricSource{Name: s.Name, TargetAverageUtilization: s.Target.AverageUtilization, TargetAverageValue: s.Target.AverageValue}
	}
	if s := in.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv1.ContainerResourceMetricSource{Name: s.Name, Container: s.Container,
			TargetAverageUtilization: s.Target.AverageUtilization, TargetAverageValue: s.Target.AverageValue}
	}
	if s := in.External; s != nil {
		out.External = &autoscalingv1.ExternalMetricSource{MetricName: s.Metric.Name, MetricSelector: s.Metric.Selector,
			TargetValue: s.Target.Value, TargetAverageValue: s.Target.AverageValue}
	}
	return out
}

// metricStatusHubToV1 writes one current metric as v1 writes it into the current-metrics
// annotation.
func metricStatusHubToV1(in *autoscalingv2.MetricStatus) autoscalingv1.MetricStatus {
	out := autoscalingv1.MetricStatus{Type: in.Type}
	if s := in.Object; s != nil {
		o := &autoscalingv1.ObjectMetricStatus{
			Target:       autoscalingv1.CrossVersionObjectReference(s.DescribedObject),
			MetricName:   s.Metric.Name,
			CurrentValue: valueOr0(s.Current.Value),
			Selector:     s.Metric.Selector,
		}
		if s.Current.AverageValue != nil {
			o.AverageValue = quantityPtr(*s.Current.AverageValue)
		}
		out.Object = o
	}
	if s := in.Pods; s != nil {
		out.Pods = &autoscalingv1.PodsMetricStatus{MetricName: s.Metric.Name, CurrentAverageValue: valueOr0(s.Current.AverageValue), Selector: s.Metric.Selector}
	}
	if s := in.Resource; s != nil {
		out.Resource = &autoscalingv1.ResourceMetricStatus{Name: s.Name, CurrentAverageUtilization: s.Current.AverageUtilization, CurrentAverageValue: valueOr0(s.Current.AverageValue)}
	}
	if s := in.ContainerResource; s != nil {
		out.ContainerResource = &autoscalingv1.ContainerResourceMetricStatus{Name: s.Name, Container: s.Container,
			CurrentAverageUtilization: s.Current.AverageUtilization, CurrentAverageValue: valueOr0(s.Current.AverageValue)}
	}
	if s := in.External; s != nil {
		out.External = &autoscalingv1.ExternalMetricStatus{MetricName: s.Metric.Name, MetricSelector: s.Metric.Selector,
			CurrentValue: valueOr0(s.Current.Value), CurrentAverageValue: s.Current.AverageValue}
	}
	return out
}

// internalBehavior is spec.behavior as the internal Go type of k8s.io/kubernetes encodes it
// with encoding/json: no JSON tags, so the Go field names, in declaration order, and no
// field omitted. autoscaling/v1 keeps the behavior in this form.
type internalBehavior struct {
	ScaleUp   *internalScalingRules
	ScaleDown *internalScalingRules
}

type internalScalingRules struct {
	StabilizationWindowSeconds *int32
	SelectPolicy               *string
	Policies                   []internalScalingPolicy
	Tolerance                  *resource.Quantity
}

type internalScalingPolicy struct {
	Type          string
	Value         int32
	PeriodSeconds int32
}

func behaviorFromV2(in *autoscalingv2.HorizontalPodAutoscalerBehavior) internalBehavior {
	return internalBehavior{ScaleUp: rulesFromV2(in.ScaleUp), ScaleDown: rulesFromV2(in.ScaleDown)}
}

func rulesFromV2(in *autoscalingv2.HPAScalingRules) *internalScalingRules {
	if in == nil {
		return nil
	}
	out := &internalScalingRules{StabilizationWindowSeconds: in.StabilizationWindowSeconds, Tolerance: in.Tolerance}
	if in.SelectPolicy != nil {
		s := *in.SelectPolicy
		out.SelectPolicy = &s
	}
	if in.Policies != nil {
		out.Policies = make([]internalScalingPolicy, len(in.Policies))
		for i, p := range in.Policies {
			out.Policies[i] = internalScalingPolicy{Type: p.Type, Value: p.Value, PeriodSeconds: p.PeriodSeconds}
		}
	}
	return out
}

func (b internalBehavior) toV2() *autoscalingv2.HorizontalPodAutoscalerBehavior {
	return &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: b.ScaleUp.toV2(), ScaleDown: b.ScaleDown.toV2()}
}

func (r *internalScalingRules) toV2() *autoscalingv2.HPAScalingRules {
	if r == nil {
		return nil
	}
	out := &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: r.StabilizationWindowSeconds, Tolerance: r.Tolerance}
	if r.SelectPolicy != nil {
		s := *r.SelectPolicy
		out.SelectPolicy = &s
	}
	if r.Policies != nil {
		out.Policies = make([]autoscalingv2.HPAScalingPolicy, len(r.Policies))
		for i, p := range r.Policies {
			out.Policies[i] = autoscalingv2.HPAScalingPolicy{Type: p.Type, Value: p.Value, PeriodSeconds: p.PeriodSeconds}
		}
	}
	return out
}

// internalBehaviorBefore133 is the internal version's behavior before hpaToleranceSince,
// as the behavior annotation holds it there: its scaling rules have no Tolerance.
type internalBehaviorBefore133 struct {
	ScaleUp   *internalScalingRulesBefore133
	ScaleDown *internalScalingRulesBefore133
}

type internalScalingRulesBefore133 struct {
	StabilizationWindowSeconds *int32
	SelectPolicy               *string
	Policies                   []internalScalingPolicy
}

func behaviorBefore133FromV2(in *autoscalingv2.HorizontalPodAutoscalerBehavior) internalBehaviorBefore133 {
	b := behaviorFromV2(in)
	return internalBehaviorBefore133{ScaleUp: b.ScaleUp.before133(), ScaleDown: b.ScaleDown.before133()}
}

func (r *internalScalingRules) before133() *internalScalingRulesBefore133 {
	if r == nil {
		return nil
	}
	return &internalScalingRulesBefore133{StabilizationWindowSeconds: r.StabilizationWindowSeconds, SelectPolicy: r.SelectPolicy, Policies: r.Policies}
}

func (b internalBehaviorBefore133) current() internalBehavior {
	up := func(r *internalScalingRulesBefore133) *internalScalingRules {
		if r == nil {
			return nil
		}
		return &internalScalingRules{StabilizationWindowSeconds: r.StabilizationWindowSeconds, SelectPolicy: r.SelectPolicy, Policies: r.Policies}
	}
	return internalBehavior{ScaleUp: up(b.ScaleUp), ScaleDown: up(b.ScaleDown)}
}
