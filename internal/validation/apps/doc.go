// Package apps is the validation of the apps group's kinds — Deployment, ReplicaSet,
// StatefulSet, DaemonSet and ControllerRevision — as the registry of kube-apiserver 1.32 to 1.38 runs it:
// each kind's strategy (Strategy) with the validation options it derives from the old and
// new pod templates, the group's validators over the internal types of package
// internal/api/apps, and the declarative validation each minor enforces for the group.
//
// The workload kinds share a shape: a label selector that must select the pod template's
// labels (and, once stored, never changes), a pod template validated by package core, and a
// rollout policy (strategy, updateStrategy) whose integer-or-percent knobs follow one set
// of rules (rollout.go, which package policy reuses for a PodDisruptionBudget's budget).
// A StatefulSet's update may change only a few fields of its spec: the others are each
// reported as immutable, with the value the server prints.
//
// Messages and the values they print are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package apps
