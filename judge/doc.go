// Package judge is the stage after a prediction: what the prediction of an apply means for
// the person about to make it, beyond what the server would answer.
//
// # The model
//
// Package merge predicts the server's answer; package appliers the answers to a client's
// whole sequence of requests. A prediction can still rest on what ssa-diff cannot see, and
// a refusal is more useful when it points at a field. A [Judge], made once for a run from
// the run's schemas and the live state, adds that to every prediction:
//
//   - [Judge.Approximations]: what the prediction rests on that it could not see, each with
//     a machine-readable reason — a kind without a schema (the deduced type: every list
//     atomic), a schema from an OpenAPI v2 document (no defaults), a live object or managers
//     at another version of the kind (converted by structure), an admission webhook of the
//     live state that intercepts the request ([ReadWebhooks]: its rules, scope and object
//     selector match) and may change or refuse what is predicted;
//   - [Judge.RefusalFields]: the fields a refusal is about — its causes' fields, or the
//     fields its schema errors name — each with the declared field of the closest name
//     when the schema does not declare it ([Judge.DidYouMean]).
//
// An [Ignore] ([NewIgnore] of [IgnoreRule]s; [ParseIgnoreRule] reads the command's
// syntax) is what a reviewer does not want to see: fields by JSON pointer or JSONPath,
// optionally for a group/kind/namespace/name, and the fields of managers, as Argo CD's
// ignoreDifferences and Flux's spec.ignore. It hides them from diffs and findings, never
// from a prediction.
//
// Package judge/advice checks the spec/status discipline of a prediction and the state of
// the live object; the appliers' Prunes says what each client deletes. Nothing here reads
// files or flags: the command builds a Judge from what it read.
package judge

import "github.com/ssa-diff/ssa-diff/schema"

// Judge judges the predictions of one run. Its fields are read, never changed: a Judge is
// safe for concurrent use.
type Judge struct {
	// Schemas are the run's: the built-in kinds of its Kubernetes minor, the CRDs and
	// OpenAPI documents given.
	Schemas *schema.Registry
	// Webhooks are the admission webhooks the live state declares (ReadWebhooks).
	Webhooks []Webhook
}
