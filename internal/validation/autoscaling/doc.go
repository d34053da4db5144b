// Package autoscaling is the validation of a HorizontalPodAutoscaler as the registry of kube-apiserver
// 1.32 to 1.38 runs it, whichever version (autoscaling/v1 or v2) it is written at: the
// strategy (Strategy) with the options it derives from the stored object, the rules over
// the internal type of package internal/api/autoscaling, and the declarative validation
// each minor enforces (beta: minReplicas and maxReplicas bounds).
//
// A HorizontalPodAutoscaler scales a target (kind, name and an apiVersion with a group —
// ReplicationController excepted — that an update leaves alone may stay as it was) between
// minReplicas (0 allowed: gate HPAScaleToZero is beta and on in 1.37, but then an Object or
// External metric must drive it) and maxReplicas, on metrics of five sources (Object, Pods,
// Resource, ContainerResource, External), each with exactly its own source filled and a
// target of a type the source allows; its behavior bounds each direction's stabilization
// window and scaling policies.
//
// Messages and the values they print are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package autoscaling
