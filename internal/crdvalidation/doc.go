// Package crdvalidation is the validation apiextensions-apiserver runs on a custom resource
// before storing it (rules.md valid.crd-schema, valid.crd-cel, valid.metadata): what makes the
// server answer 422 Invalid to a write of a custom resource, error for error, in the server's
// order, as the minor of Validator.Server has it (the latest by default; formats, numeric
// ranges and CEL follow the minor).
//
// # What runs, in which order
//
// A create (the registry's BeforeCreate) runs the custom resource strategy's validation:
//
//  1. apiVersion and kind against the CRD version (alone when they are wrong);
//  2. the object's metadata (name rules of custom resources: a DNS-1123 subdomain, labels,
//     annotations, finalizers, owner references);
//  3. the OpenAPI schema of the version (package openapi), then the /scale paths;
//  4. the metadata of embedded resources (x-kubernetes-embedded-resource);
//  5. list-type set and map uniqueness;
//  6. the CEL rules (x-kubernetes-validations) — unless an earlier error is one that stops
//     them (a missing required field, an unsupported enum value, a wrong type, too long,
//     too many): then the list ends with "some validation rules were not checked because the
//     object was invalid; correct the existing errors to complete validation" instead;
//
// and, only when all of that passed, the generic metadata checks with the path-segment name
// rule. An update (BeforeUpdate) runs the generic metadata checks first (name, namespace and
// uid immutable, resourceVersion present, generation not decreasing), then the same strategy
// validation with ratcheting: values the update leaves unchanged may stay invalid (package
// correlate), list uniqueness is only enforced if the old object satisfied it, and CEL
// transition rules (oldSelf) see the stored object. A status update validates the status
// schema alone (errors under "status."), the scale status paths and the CEL rules.
//
// Warnings are what the server sends back in Warning headers: finalizer names it advises
// against, and CEL rule failures that ratcheting let through.
package crdvalidation
