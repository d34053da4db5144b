// Package coordination is the validation of the coordination.k8s.io kinds served at v1
// (Lease) as the registry of kube-apiserver 1.32 to 1.38 runs it: a positive duration, transitions not
// below zero, a known or domain-qualified coordination strategy, and a preferred holder
// only with a strategy. Declarative validation runs, but each minor enforces none of the kind's
// rules.
package coordination
