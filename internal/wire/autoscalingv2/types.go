// Package autoscalingv2 is the wire form of the autoscaling/v2 HorizontalPodAutoscaler: Go
// types with the names, field order, JSON tags and JSON behaviour of
// k8s.io/api/autoscaling/v2's (see package autoscalingv1 for why they are not linked).
// The internal version of the kind has this shape, so package conversion uses these types
// for it too. conformance/defaulting holds them to k8s.io/api's types field by field.
package autoscalingv2

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Values of the enumerations conversion looks at.
const (
	ResourceMetricSourceType = "Resource"
	UtilizationMetricType    = "Utilization"
	ValueMetricType          = "Value"
	AverageValueMetricType   = "AverageValue"
	ResourceCPU              = "cpu"
)

// HorizontalPodAutoscaler at autoscaling/v2.
type HorizontalPodAutoscaler struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              HorizontalPodAutoscalerSpec   `json:"spec,omitempty"`
	Status            HorizontalPodAutoscalerStatus `json:"status,omitempty"`
}

// HorizontalPodAutoscalerSpec is the v2 spec.
type HorizontalPodAutoscalerSpec struct {
	ScaleTargetRef CrossVersionObjectReference      `json:"scaleTargetRef"`
	MinReplicas    *int32                           `json:"minReplicas,omitempty"`
	MaxReplicas    int32                            `json:"maxReplicas"`
	Metrics        []MetricSpec                     `json:"metrics,omitempty"`
	Behavior       *HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
}

// CrossVersionObjectReference names the scaled object, or the object a metric describes.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// MetricSpec is one metric.
type MetricSpec struct {
	Type              string                         `json:"type"`
	Object            *ObjectMetricSource            `json:"object,omitempty"`
	Pods              *PodsMetricSource              `json:"pods,omitempty"`
	Resource          *ResourceMetricSource          `json:"resource,omitempty"`
	ContainerResource *ContainerResourceMetricSource `json:"containerResource,omitempty"`
	External          *ExternalMetricSource          `json:"external,omitempty"`
}

// ObjectMetricSource is a metric of another object.
type ObjectMetricSource struct {
	DescribedObject CrossVersionObjectReference `json:"describedObject"`
	Target          MetricTarget                `json:"target"`
	Metric          MetricIdentifier            `json:"metric"`
}

// PodsMetricSource is a metric averaged over the pods.
type PodsMetricSource struct {
	Metric MetricIdentifier `json:"metric"`
	Target MetricTarget     `json:"target"`
}

// ResourceMetricSource is a resource of the pods.
type ResourceMetricSource struct {
	Name   string       `json:"name"`
	Target MetricTarget `json:"target"`
}

// ContainerResourceMetricSource is a resource of one container of the pods.
type ContainerResourceMetricSource struct {
	Name      string       `json:"name"`
	Target    MetricTarget `json:"target"`
	Container string       `json:"container"`
}

// ExternalMetricSource is a metric from outside the cluster.
type ExternalMetricSource struct {
	Metric MetricIdentifier `json:"metric"`
	Target MetricTarget     `json:"target"`
}

// MetricIdentifier names a metric.
type MetricIdentifier struct {
	Name     string                `json:"name"`
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
}

// MetricTarget is a metric's target.
type MetricTarget struct {
	Type               string             `json:"type"`
	Value              *resource.Quantity `json:"value,omitempty"`
	AverageValue       *resource.Quantity `json:"averageValue,omitempty"`
	AverageUtilization *int32             `json:"averageUtilization,omitempty"`
}

// HorizontalPodAutoscalerBehavior is how fast to scale up and down.
type HorizontalPodAutoscalerBehavior struct {
	ScaleUp   *HPAScalingRules `json:"scaleUp,omitempty"`
	ScaleDown *HPAScalingRules `json:"scaleDown,omitempty"`
}

// HPAScalingRules are the rules of one direction.
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32             `json:"stabilizationWindowSeconds,omitempty"`
	SelectPolicy               *string            `json:"selectPolicy,omitempty"`
	Policies                   []HPAScalingPolicy `json:"policies,omitempty"`
	Tolerance                  *resource.Quantity `json:"tolerance,omitempty"`
}

// HPAScalingPolicy is one policy.
type HPAScalingPolicy struct {
	Type          string `json:"type"`
	Value         int32  `json:"value"`
	PeriodSeconds int32  `json:"periodSeconds"`
}

// HorizontalPodAutoscalerStatus is the v2 status.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration *int64                             `json:"observedGeneration,omitempty"`
	LastScaleTime      *metav1.Time                       `json:"lastScaleTime,omitempty"`
	CurrentReplicas    int32                              `json:"currentReplicas,omitempty"`
	DesiredReplicas    int32                              `json:"desiredReplicas"`
	CurrentMetrics     []MetricStatus                     `json:"currentMetrics"`
	Conditions         []HorizontalPodAutoscalerCondition `json:"conditions,omitempty"`
}

// MetricStatus is one current metric.
type MetricStatus struct {
	Type              string                         `json:"type"`
	Object            *ObjectMetricStatus            `json:"object,omitempty"`
	Pods              *PodsMetricStatus              `json:"pods,omitempty"`
	Resource          *ResourceMetricStatus          `json:"resource,omitempty"`
	ContainerResource *ContainerResourceMetricStatus `json:"containerResource,omitempty"`
	External          *ExternalMetricStatus          `json:"external,omitempty"`
}

// ObjectMetricStatus is the current value of another object's metric.
type ObjectMetricStatus struct {
	Metric          MetricIdentifier            `json:"metric"`
	Current         MetricValueStatus           `json:"current"`
	DescribedObject CrossVersionObjectReference `json:"describedObject"`
}

// PodsMetricStatus is the current average of a pods metric.
type PodsMetricStatus struct {
	Metric  MetricIdentifier  `json:"metric"`
	Current MetricValueStatus `json:"current"`
}

// ResourceMetricStatus is the current use of a resource of the pods.
type ResourceMetricStatus struct {
	Name    string            `json:"name"`
	Current MetricValueStatus `json:"current"`
}

// ContainerResourceMetricStatus is the current use of a resource of one container.
type ContainerResourceMetricStatus struct {
	Name      string            `json:"name"`
	Current   MetricValueStatus `json:"current"`
	Container string            `json:"container"`
}

// ExternalMetricStatus is the current value of a metric from outside the cluster.
type ExternalMetricStatus struct {
	Metric  MetricIdentifier  `json:"metric"`
	Current MetricValueStatus `json:"current"`
}

// MetricValueStatus is a metric's current value.
type MetricValueStatus struct {
	Value              *resource.Quantity `json:"value,omitempty"`
	AverageValue       *resource.Quantity `json:"averageValue,omitempty"`
	AverageUtilization *int32             `json:"averageUtilization,omitempty"`
}

// HorizontalPodAutoscalerCondition is one condition.
type HorizontalPodAutoscalerCondition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
	Reason             string      `json:"reason,omitempty"`
	Message            string      `json:"message,omitempty"`
	ObservedGeneration *int64      `json:"observedGeneration,omitempty"`
}
