// Package wire is how the server model asks the admission that runs through Kubernetes'
// own libraries — PodSecurity (k8s.io/pod-security-admission), ValidatingAdmissionPolicy
// and MutatingAdmissionPolicy (k8s.io/apiserver's plugins) — and how that admission answers.
//
// # The model
//
// Those libraries bring client-go's clientset and informers, the apiserver's CEL
// environments and metrics: linking them into the ssa-diff binary would cost every run
// milliseconds of package initialisation, also the runs that give no admission object.
// So they run in a helper program, ssa-diff-admission (cmd/ssa-diff-admission), that the
// model starts only when the cluster state holds something they act on (a policy binding,
// a namespace labelled for Pod Security), and asks over its standard input and output.
//
// A [Setup] is sent once: the server's minor, the objects the cluster holds, who sends the
// writes and what the authorizer answers for them. Then each [Call] is one admission phase
// of one write — the request's attributes and objects, as the server's admission sees them
// — and its [Answer] what the phase says: a refusal as the server words it, warnings, audit
// annotations, the object a mutating policy changed, the authorizer checks nobody
// answered. The messages are JSON, one a line. [Exec] starts a helper and is a [Library];
// [Serve] is the helper's side.
package wire
