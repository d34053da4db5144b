// Package validation predicts the registry's validation of built-in kinds: what
// kube-apiserver (1.32 to 1.38, at the minor of the server described) answers with 422 Invalid when an object that field management,
// defaulting and the registry's rules produced breaks the kind's rules (rules.md valid.builtin, valid.update, valid.metadata).
//
// [Validate] takes the object about to be stored, and the stored one on an update, as the
// JSON of the version they are served at; decodes both into the kind's internal type
// (package internal/api), as the server converts them; and runs the kind's strategy in the
// order the generic registry runs it (package registry). Each group's rules are a package
// of their own (core, apps, batch, networking, rbac, storage, …), written from the
// server's behaviour and held to the server's own validation by conformance/validation.
//
// [ValidateWrite], which the engine uses, first runs what a kind's REST storage does before
// the registry (registry.Strategy.BeginWrite: a Service's allocator checks its IP fields
// and refuses them alone); [Validate] is the strategy's part, the one
// conformance/validation holds to the server's strategies.
//
// A kind whose validation is not ported is reported as such, never passed silently.
package validation
