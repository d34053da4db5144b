// Package library runs the admission that ssa-diff takes from Kubernetes' own libraries,
// as kube-apiserver runs it: PodSecurity through k8s.io/pod-security-admission, and the
// admission policies through k8s.io/apiserver's ValidatingAdmissionPolicy and
// MutatingAdmissionPolicy plugins — the plugins themselves, not a restatement of them.
//
// # The model
//
// kube-apiserver feeds those plugins from informers over its own storage. Here a [Runtime]
// feeds the same plugins from the objects of a wire.Setup: client-go's fake clientset and
// dynamic client hold them, the plugins' informers list and watch them, a REST mapper
// built from the kinds given resolves the policies' paramKinds. The plugins then match,
// compile and evaluate exactly as in the server: match conditions, namespace and object
// selectors, matchPolicy, params by name or selector, the authorizer variable (answered
// from the Setup's Authorization; an unanswered check is recorded), messageExpression,
// validationActions Deny, Warn and Audit, the refusal's code and message, the warnings'
// words; a mutating policy's ApplyConfiguration or JSONPatch.
//
// A server answers requests long after its policy plugins have read and compiled the
// policies; a plugin asked before that refuses ("not yet ready to handle request") once its
// own ten seconds of waiting are over, which a busy machine can exceed. [New] returns only
// when the plugins are ready (or fails after minutes), so that refusal is never predicted.
//
// This package links client-go's clientset and informers and the apiserver's CEL
// environments, whose package initialisation costs milliseconds: only the helper program
// (cmd/ssa-diff-admission) and tests link it, never the ssa-diff binary (package wire says
// how the model reaches it).
package library
