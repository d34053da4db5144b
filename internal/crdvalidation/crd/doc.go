// Package crd validates CustomResourceDefinitions as apiextensions-apiserver of the server's
// minor (1.34 to 1.37) does when one is created or updated: the registry's strategy (ValidateCustomResourceDefinition and
// its update form) after the CRD is converted to the server's internal version, so that a
// CRD the server refuses is predicted as the same 422, error for error.
//
// # The internal version
//
// The server validates the internal form of a CRD, and its errors name the internal form's
// fields: when every version has the same schema (one version, or identical copies), the
// schema moves to spec.validation and its errors read "spec.validation.openAPIV3Schema…";
// likewise subresources and printer columns. Values printed in errors are the internal Go
// types marshalled to JSON, keys named after the Go fields ({"Rule":…,"Message":…}): this
// package keeps mirror types with the same fields for that purpose.
//
// # What is checked
//
// The object's metadata (its name must be <plural>.<group>), names, scope, versions (unique,
// one storage version, a schema for each), subresources, printer columns, selectable
// fields, conversion, stored versions, the API-approval annotation of protected groups, and
// each schema: structural rules (every node typed, nothing but value validations inside
// allOf/anyOf/oneOf/not, metadata at the root limited to name and generateName), the OpenAPI
// keywords a CRD may not use, list and map types, defaults (valid, pruned), and the CEL rules
// — compiled (new rules in the environment of the compatibility version), their fieldPath,
// reason and optionalOldSelf checked, and their estimated cost, multiplied by how many times
// the schema allows the node to occur, held to the per-rule and per-CRD budgets.
package crd
