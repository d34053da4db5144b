package conversion

import (
	fu "github.com/ssa-diff/ssa-diff/internal/fromunstructured"
	"github.com/ssa-diff/ssa-diff/internal/wire/autoscalingv2"
)

// hpaV2Direct decodes obj, an HPA at autoscaling/v2 in its unstructured form, into the wire
// type as the converter does (package fromunstructured), or reports false: the converter
// then decodes it, and says what is wrong.
func hpaV2Direct(obj map[string]any) (*autoscalingv2.HorizontalPodAutoscaler, bool) {
	o, _ := fu.Open(obj)
	h := &autoscalingv2.HorizontalPodAutoscaler{}
	fu.String(&o, "apiVersion", &h.APIVersion)
	fu.String(&o, "kind", &h.Kind)
	fu.Struct(&o, "metadata", &h.ObjectMeta, fu.ReadObjectMeta)
	fu.Struct(&o, "spec", &h.Spec, readHPASpecV2)
	fu.Struct(&o, "status", &h.Status, readHPAStatusV2)
	return h, o.OK()
}

func readHPASpecV2(o *fu.Object, s *autoscalingv2.HorizontalPodAutoscalerSpec) {
	fu.Struct(o, "scaleTargetRef", &s.ScaleTargetRef, readCrossVersionReferenceV2)
	o.Int32Ptr("minReplicas", &s.MinReplicas)
	o.Int32("maxReplicas", &s.MaxReplicas)
	fu.List(o, "metrics", &s.Metrics, readMetricSpecV2)
	fu.StructPtr(o, "behavior", &s.Behavior, func(o *fu.Object, b *autoscalingv2.HorizontalPodAutoscalerBehavior) {
		fu.StructPtr(o, "scaleUp", &b.ScaleUp, readScalingRulesV2)
		fu.StructPtr(o, "scaleDown", &b.ScaleDown, readScalingRulesV2)
	})
}

func readCrossVersionReferenceV2(o *fu.Object, r *autoscalingv2.CrossVersionObjectReference) {
	fu.String(o, "kind", &r.Kind)
	fu.String(o, "name", &r.Name)
	fu.String(o, "apiVersion", &r.APIVersion)
}

func readScalingRulesV2(o *fu.Object, r *autoscalingv2.HPAScalingRules) {
	o.Int32Ptr("stabilizationWindowSeconds", &r.StabilizationWindowSeconds)
	fu.StringPtr(o, "selectPolicy", &r.SelectPolicy)
	fu.List(o, "policies", &r.Policies, func(o *fu.Object, p *autoscalingv2.HPAScalingPolicy) {
		fu.String(o, "type", &p.Type)
		o.Int32("value", &p.Value)
		o.Int32("periodSeconds", &p.PeriodSeconds)
	})
	o.QuantityPtr("tolerance", &r.Tolerance)
}

func readMetricIdentifierV2(o *fu.Object, m *autoscalingv2.MetricIdentifier) {
	fu.String(o, "name", &m.Name)
	fu.StructPtr(o, "selector", &m.Selector, fu.LabelSelector)
}

func readMetricTargetV2(o *fu.Object, t *autoscalingv2.MetricTarget) {
	fu.String(o, "type", &t.Type)
	o.QuantityPtr("value", &t.Value)
	o.QuantityPtr("averageValue", &t.AverageValue)
	o.Int32Ptr("averageUtilization", &t.AverageUtilization)
}

func readMetricSpecV2(o *fu.Object, m *autoscalingv2.MetricSpec) {
	fu.String(o, "type", &m.Type)
	fu.StructPtr(o, "object", &m.Object, func(o *fu.Object, s *autoscalingv2.ObjectMetricSource) {
		fu.Struct(o, "describedObject", &s.DescribedObject, readCrossVersionReferenceV2)
		fu.Struct(o, "target", &s.Target, readMetricTargetV2)
		fu.Struct(o, "metric", &s.Metric, readMetricIdentifierV2)
	})
	fu.StructPtr(o, "pods", &m.Pods, func(o *fu.Object, s *autoscalingv2.PodsMetricSource) {
		fu.Struct(o, "metric", &s.Metric, readMetricIdentifierV2)
		fu.Struct(o, "target", &s.Target, readMetricTargetV2)
	})
	fu.StructPtr(o, "resource", &m.Resource, func(o *fu.Object, s *autoscalingv2.ResourceMetricSource) {
		fu.String(o, "name", &s.Name)
		fu.Struct(o, "target", &s.Target, readMetricTargetV2)
	})
	fu.StructPtr(o, "containerResource", &m.ContainerResource, func(o *fu.Object, s *autoscalingv2.ContainerResourceMetricSource) {
		fu.String(o, "name", &s.Name)
		fu.Struct(o, "target", &s.Target, readMetricTargetV2)
		fu.String(o, "container", &s.Container)
	})
	fu.StructPtr(o, "external", &m.External, func(o *fu.Object, s *autoscalingv2.ExternalMetricSource) {
		fu.Struct(o, "metric", &s.Metric, readMetricIdentifierV2)
		fu.Struct(o, "target", &s.Target, readMetricTargetV2)
	})
}

func readMetricValueStatusV2(o *fu.Object, s *autoscalingv2.MetricValueStatus) {
	o.QuantityPtr("value", &s.Value)
	o.QuantityPtr("averageValue", &s.AverageValue)
	o.Int32Ptr("averageUtilization", &s.AverageUtilization)
}

func readHPAStatusV2(o *fu.Object, s *autoscalingv2.HorizontalPodAutoscalerStatus) {
	o.Int64Ptr("observedGeneration", &s.ObservedGeneration)
	o.TimePtr("lastScaleTime", &s.LastScaleTime)
	o.Int32("currentReplicas", &s.CurrentReplicas)
	o.Int32("desiredReplicas", &s.DesiredReplicas)
	fu.List(o, "currentMetrics", &s.CurrentMetrics, readMetricStatusV2)
	fu.List(o, "conditions", &s.Conditions, func(o *fu.Object, c *autoscalingv2.HorizontalPodAutoscalerCondition) {
		fu.String(o, "type", &c.Type)
		fu.String(o, "status", &c.Status)
		o.Time("lastTransitionTime", &c.LastTransitionTime)
		fu.String(o, "reason", &c.Reason)
		fu.String(o, "message", &c.Message)
		o.Int64Ptr("observedGeneration", &c.ObservedGeneration)
	})
}

func readMetricStatusV2(o *fu.Object, m *autoscalingv2.MetricStatus) {
	fu.String(o, "type", &m.Type)
	fu.StructPtr(o, "object", &m.Object, func(o *fu.Object, s *autoscalingv2.ObjectMetricStatus) {
		fu.Struct(o, "metric", &s.Metric, readMetricIdentifierV2)
		fu.Struct(o, "current", &s.Current, readMetricValueStatusV2)
		fu.Struct(o, "describedObject", &s.DescribedObject, readCrossVersionReferenceV2)
	})
	fu.StructPtr(o, "pods", &m.Pods, func(o *fu.Object, s *autoscalingv2.PodsMetricStatus) {
		fu.Struct(o, "metric", &s.Metric, readMetricIdentifierV2)
		fu.Struct(o, "current", &s.Current, readMetricValueStatusV2)
	})
	fu.StructPtr(o, "resource", &m.Resource, func(o *fu.Object, s *autoscalingv2.ResourceMetricStatus) {
		fu.String(o, "name", &s.Name)
		fu.Struct(o, "current", &s.Current, readMetricValueStatusV2)
	})
	fu.StructPtr(o, "containerResource", &m.ContainerResource, func(o *fu.Object, s *autoscalingv2.ContainerResourceMetricStatus) {
		fu.String(o, "name", &s.Name)
		fu.Struct(o, "current", &s.Current, readMetricValueStatusV2)
		fu.String(o, "container", &s.Container)
	})
	fu.StructPtr(o, "external", &m.External, func(o *fu.Object, s *autoscalingv2.ExternalMetricStatus) {
		fu.Struct(o, "metric", &s.Metric, readMetricIdentifierV2)
		fu.Struct(o, "current", &s.Current, readMetricValueStatusV2)
	})
}
