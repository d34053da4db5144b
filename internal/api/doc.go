// Package api holds Kubernetes 1.37's internal API types as ssa-diff needs them to predict
// what the API server's registry does with an object after field management: validate it
// (and, for a few kinds, convert it between served versions).
//
// # Why internal types
//
// The API server decodes a request at the version it was sent at, converts it to the
// group's internal version, and runs the registry's rules and validation on the internal Go
// types. Those types differ from the served ones in places (fields that only conversion
// fills, annotations conversion removes), and when a validation error prints a value it
// prints it as encoding/json writes the internal type — with Go field names where the
// internal type has no JSON tags: `roleRef: Invalid value: {"APIGroup":…,"Kind":…}`.
// To say what the server says, byte for byte, ssa-diff validates the same shapes.
//
// # The packages
//
// Each subpackage (core, apps, batch, …) mirrors one internal group of
// k8s.io/kubernetes/pkg/apis: the same type names, fields in the same order, the same Go
// types and struct tags, and the exported constants with their values. They are generated
// (zz_generated.types.go, by conformance/internalapi/gen, which reads the server's own
// types): never edit them by hand. Package external mirrors the few served types the
// internal ones refer to. Every generated field carries an `ext` tag: the JSON name of the
// field of the served version it is converted from, or "-" when only a conversion rule
// fills it.
//
// [Decode] reads an object of the served version — the JSON maps ssa-diff's engine holds —
// into its internal type, field by field through the `ext` tags, then applies the
// conversion rules that are more than a copy (a Secret's stringData, a Deployment's
// rollback annotation, …: conversion.go). conformance/internalapi holds Decode to the
// server's own conversion on random objects of every served kind. [DecodeToValidate], which
// validation uses, is Decode without the text of the object's own managedFields' fields,
// which no validation reads.
package api
