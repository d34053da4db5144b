// Package policy is the validation of a PodDisruptionBudget as the registry of
// kube-apiserver 1.32 to 1.38 runs it (Strategy): a budget given as minAvailable or maxUnavailable (not both),
// each an integer or a percentage of at most 100% as a workload's rollout knobs are
// (package apps), a well-formed selector — one whose label values an older server took
// stays acceptable on update — and a known unhealthy-pod eviction policy. Its status
// conditions follow apimachinery's rules and its counters are not negative.
//
// The kind's handwritten validation checks no metadata of its own: on a create, the
// registry's checks of metadata run only when the spec is valid.
//
// Messages and the values they print are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package policy
