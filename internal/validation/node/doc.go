// Package node is the validation of the node.k8s.io kinds (RuntimeClass) as
// the registry of kube-apiserver 1.32 to 1.38 runs it: a handler (a DNS label that never changes:
// rules.md valid.update), the pod overhead (resource limits of a container), and the scheduling node
// selector and tolerations (unique by key, operator, value and effect), with the beta
// declarative rules each minor enforces on the handler and the warnings on deprecated node
// labels.
package node
