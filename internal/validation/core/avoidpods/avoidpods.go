package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// AvoidPods is the value of the scheduler.alpha.kubernetes.io/preferAvoidPods annotation.
type AvoidPods struct {
	PreferAvoidPods []PreferAvoidPodsEntry `json:"preferAvoidPods,omitempty"`
}

// PreferAvoidPodsEntry names the controller whose pods the node would rather not run.
type PreferAvoidPodsEntry struct {
	PodSignature PodSignature `json:"podSignature"`
	EvictionTime metav1.Time  `json:"evictionTime,omitempty"`
	Reason       string       `json:"reason,omitempty"`
	Message      string       `json:"message,omitempty"`
}

// PodSignature identifies the pods by their controller.
type PodSignature struct {
	PodController *metav1.OwnerReference `json:"podController,omitempty"`
}
