// Package scheduling is the validation of the scheduling.k8s.io kinds that
// kube-apiserver 1.32 to 1.38 serve at v1 (PriorityClass) as their registry runs it: a class's
// value (at most one billion unless it is one of the two system classes, whose names,
// values and globalDefault are fixed), its preemption policy, and on update an unchanged
// value and policy (rules.md valid.update). Declarative validation runs, but each minor enforces none of
// the kind's rules.
package scheduling
