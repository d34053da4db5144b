// Package crdvalidation holds ssa-diff's validation of custom resources to
// apiextensions-apiserver's own: the custom resource strategy of
// k8s.io/apiextensions-apiserver (schema validators, CEL validator, status strategy) run
// through k8s.io/apiserver's rest.ValidateCreate and rest.ValidateUpdate, in process, beside
// merge.KubernetesHooks.Validate, on the same CRDs and objects. It is a separate module so
// that the product never links the server's code.
//
// # The model
//
// A seed makes a CRD (package-level Generator): a random structural schema that uses every
// OpenAPI keyword a CRD may use (types and formats, bounds, lengths, counts, patterns, enums,
// required, nullable, allOf/anyOf/oneOf/not, int-or-string, preserve-unknown-fields, embedded
// resources, list-type set and map, map types) and CEL rules of every kind (plain and
// transition rules, message, messageExpression, reason, fieldPath, optionalOldSelf, the
// Kubernetes libraries, rules that fail at runtime or run out of cost). Then objects for it:
// creates (valid, and mutated: wrong types, bounds broken, duplicates, missing required
// fields, bad metadata), updates (an old object and a new one that changes some of it, so
// that ratcheting and transition rules matter) and status updates. Each is validated by both
// sides; the field errors are compared as a multiset of their text (the server lists some
// in Go map order), and the warnings as a set.
//
// Both sides are one minor: ssa-diff predicts the release of the apiextensions-apiserver the
// module links (v0.37.2: Kubernetes 1.37; see serverMinor), so that the harness holds another
// minor's code when a go.mod pins it. (A -modfile pinning an older release alone does not
// build: ssa-diff's own requirements raise apimachinery, apiserver and cel-go to 1.37's.)
//
// TestDifferential runs CRDVAL_OBJECTS objects (default: a bounded run of a few seconds;
// make conformance-long runs 100,000+). A divergence prints the seed, the schema, the
// objects and both answers.
package crdvalidation
