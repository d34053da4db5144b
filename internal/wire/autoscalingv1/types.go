// Package autoscalingv1 is the wire form of the autoscaling/v1 HorizontalPodAutoscaler and
// of the metric types its annotations hold: Go types with the names, field order, JSON
// tags and JSON behaviour of k8s.io/api/autoscaling/v1's (which ssa-diff does not link: it
// pulls in k8s.io/api/core/v1 and its costly package initialisation). Decoding into them
// and encoding them writes what the server writes, byte for byte; their type names are the
// server's, so that a decoding error names the same Go struct field as the server's does.
// conformance/defaulting holds them to k8s.io/api's types field by field.
package autoscalingv1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HorizontalPodAutoscaler at autoscaling/v1.
type HorizontalPodAutoscaler struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              HorizontalPodAutoscalerSpec   `json:"spec,omitempty"`
	Status            HorizontalPodAutoscalerStatus `json:"status,omitempty"`
}

// CrossVersionObjectReference names the scaled object, or the object a metric describes.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// HorizontalPodAutoscalerSpec is the v1 spec: one CPU target at most.
type HorizontalPodAutoscalerSpec struct {
	ScaleTargetRef                 CrossVersionObjectReference `json:"scaleTargetRef"`
	MinReplicas                    *int32                      `json:"minReplicas,omitempty"`
	MaxReplicas                    int32                       `json:"maxReplicas"`
	TargetCPUUtilizationPercentage *int32                      `json:"targetCPUUtilizationPercentage,omitempty"`
}

// HorizontalPodAutoscalerStatus is the v1 status.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration              *int64       `json:"observedGeneration,omitempty"`
	LastScaleTime                   *metav1.Time `json:"lastScaleTime,omitempty"`
	CurrentReplicas                 int32        `json:"currentReplicas"`
	DesiredReplicas                 int32        `json:"desiredReplicas"`
	CurrentCPUUtilizationPercentage *int32       `json:"currentCPUUtilizationPercentage,omitempty"`
}

// MetricSpec is one metric in the v2beta1 shape the metrics annotation holds.
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
	Target       CrossVersionObjectReference `json:"target"`
	MetricName   string                      `json:"metricName"`
	TargetValue  resource.Quantity           `json:"targetValue"`
	Selector     *metav1.LabelSelector       `json:"selector,omitempty"`
	AverageValue *resource.Quantity          `json:"averageValue,omitempty"`
}

// PodsMetricSource is a metric averaged over the pods.
type PodsMetricSource struct {
	MetricName         string                `json:"metricName"`
	TargetAverageValue resource.Quantity     `json:"targetAverageValue"`
	Selector           *metav1.LabelSelector `json:"selector,omitempty"`
}

// ResourceMetricSource is a resource of the pods.
type ResourceMetricSource struct {
	Name                     string             `json:"name"`
	TargetAverageUtilization *int32             `json:"targetAverageUtilization,omitempty"`
	TargetAverageValue       *resource.Quantity `json:"targetAverageValue,omitempty"`
}

// ContainerResourceMetricSource is a resource of one container of the pods.
type ContainerResourceMetricSource struct {
	Name                     string             `json:"name"`
	TargetAverageUtilization *int32             `json:"targetAverageUtilization,omitempty"`
	TargetAverageValue       *resource.Quantity `json:"targetAverageValue,omitempty"`
	Container                string             `json:"container"`
}

// ExternalMetricSource is a metric from outside the cluster.
type ExternalMetricSource struct {
	MetricName         string                `json:"metricName"`
	MetricSelector     *metav1.LabelSelector `json:"metricSelector,omitempty"`
	TargetValue        *resource.Quantity    `json:"targetValue,omitempty"`
	TargetAverageValue *resource.Quantity    `json:"targetAverageValue,omitempty"`
}

// MetricStatus is one current metric in the shape of the current-metrics annotation.
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
	Target       CrossVersionObjectReference `json:"target"`
	MetricName   string                      `json:"metricName"`
	CurrentValue resource.Quantity           `json:"currentValue"`
	Selector     *metav1.LabelSelector       `json:"selector,omitempty"`
	AverageValue *resource.Quantity          `json:"averageValue,omitempty"`
}

// PodsMetricStatus is the current average of a pods metric.
type PodsMetricStatus struct {
	MetricName          string                `json:"metricName"`
	CurrentAverageValue resource.Quantity     `json:"currentAverageValue"`
	Selector            *metav1.LabelSelector `json:"selector,omitempty"`
}

// ResourceMetricStatus is the current use of a resource of the pods.
type ResourceMetricStatus struct {
	Name                      string            `json:"name"`
	CurrentAverageUtilization *int32            `json:"currentAverageUtilization,omitempty"`
	CurrentAverageValue       resource.Quantity `json:"currentAverageValue"`
}

// ContainerResourceMetricStatus is the current use of a resource of one container.
type ContainerResourceMetricStatus struct {
	Name                      string            `json:"name"`
	CurrentAverageUtilization *int32            `json:"currentAverageUtilization,omitempty"`
	CurrentAverageValue       resource.Quantity `json:"currentAverageValue"`
	Container                 string            `json:"container"`
}

// ExternalMetricStatus is the current value of a metric from outside the cluster.
type ExternalMetricStatus struct {
	MetricName          string                `json:"metricName"`
	MetricSelector      *metav1.LabelSelector `json:"metricSelector,omitempty"`
	CurrentValue        resource.Quantity     `json:"currentValue"`
	CurrentAverageValue *resource.Quantity    `json:"currentAverageValue,omitempty"`
}

// HorizontalPodAutoscalerCondition is one condition, as the conditions annotation holds it.
type HorizontalPodAutoscalerCondition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
	Reason             string      `json:"reason,omitempty"`
	Message            string      `json:"message,omitempty"`
	ObservedGeneration *int64      `json:"observedGeneration,omitempty"`
}
