// Package core is the validation of the core group's kinds (ConfigMap, Secret, Service,
// the pod template …) as kube-apiserver 1.37's registry runs it: each kind's strategy
// (Strategy), the group's validators over the internal types of package internal/api/core,
// and the declarative validation 1.37 enforces for the group. Error messages and the values
// they print are the server's, byte for byte; rule ids in tests refer to SEMANTICS.md (V1,
// V2, V6).
//
// # The pod template
//
// Pod, PodTemplate and ReplicationController here, and every workload kind of the apps and
// batch groups, validate their pods with ValidatePodTemplateSpec or ValidatePodSpec
// (podspec.go): containers of every kind (container.go), volumes of every source
// (volumes.go), security contexts (securitycontext.go), scheduling constraints
// (affinity.go), resources and resource names (resources.go). What is checked depends on
// PodValidationOptions (podoptions.go): the 1.37 default feature gates, and leniencies for
// what the stored object already holds, so that an update is not refused for a value that
// was accepted when it was written — GetValidationOptionsFromPodTemplate computes them from
// the new and the stored template as the server does. Errors come in the server's order,
// which is the order of its checks, except where it ranges over a map (resource lists,
// annotations): then in any order.
//
// Updates that may not change what they change print the server's diff of the two
// internal objects (a Pod's spec, a claim's spec, a volume's source): apimachinery's
// diff.Diff of their JSON, field names as Go writes them.
//
// Declarative validation (declarative_pod.go) adds the few rules 1.37 enforces under these
// kinds (a ReplicationController's beta rules, eviction responders, volume health); the
// registry joins them to the handwritten errors. Warnings (warnings.go) are the ones the
// server returns with an accepted write.
package core
