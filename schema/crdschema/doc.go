// Package crdschema holds the OpenAPI v3 schema of a CustomResourceDefinition version as the
// API server reads it (apiextensions.k8s.io JSONSchemaProps): every keyword, typed, with the
// Kubernetes extensions (x-kubernetes-*), parsed once from the CRD object.
//
// # Why a typed copy
//
// The API server validates a custom resource against this schema three ways, and each needs
// more than the structured-merge-diff type that decides ownership:
//
//   - the OpenAPI keywords (type, format, pattern, enum, bounds, lengths, counts, required,
//     nullable, allOf/anyOf/oneOf/not …), as kube-openapi's validator checks them;
//   - the structural extensions: list types (set and map uniqueness), map types, embedded
//     resources and int-or-string, which also decide how CEL sees a value;
//   - the CEL rules of x-kubernetes-validations, compiled against the schema's types.
//
// Values keep the form the server's JSON decoding gives them: integers int64, other numbers
// float64, objects map[string]any, lists []any. A Schema never changes once parsed.
//
// # Validators compiled once
//
// A Validation is one CRD version's schema with a slot for what a validator compiles from it
// (CEL programs, regular expressions): Compiled builds it on first use, once, so a CRD that is
// loaded but never used costs nothing more, and one used for a thousand objects compiles its
// rules once.
package crdschema
