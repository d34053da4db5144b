// Package admissionregistration is the validation of the admissionregistration.k8s.io
// group's kinds as the registry of kube-apiserver 1.32 to 1.38 runs it (Strategy): webhook
// configurations (webhook names, client configs given as a URL or a service, rules and
// scopes, failure, match, side-effect and reinvocation policies, review versions, timeouts,
// selectors and match conditions), validating and mutating admission policies (match
// constraints, parameters, variables, validations, audit annotations, mutations) and their
// bindings.
//
// # CEL expressions
//
// The server compiles every CEL expression these kinds hold when they are written — it
// does not run them — and refuses one that does not parse, does not type-check, or does not
// evaluate to the type its place asks for (bool for conditions and validations, string for
// messages, string or null for audit annotation values, a JSONPatch list or an Object for
// mutations). This package compiles them the same way, in package cellib's environments:
// object, oldObject and params are dyn; request and namespaceObject have the server's
// declared types; authorizer is there but in messages; a policy's variables are compiled
// first, in order, and each is then seen by the later expressions with the type it
// evaluates to. An expression the stored object already holds compiles in the "stored"
// environment, a new one in the "new" environment (libraries of the version the server
// stays compatible with). Expressions are never run, so nothing about an object the
// policy will see is checked.
//
// On an update, what the stored object already broke stays acceptable where the server
// relaxes it (webhook side effects, review versions, repeated webhook names, selector
// values), and match conditions left unchanged are not compiled again.
//
// Messages and the values they print are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package admissionregistration
