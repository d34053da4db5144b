// Package openapi validates a custom resource against the OpenAPI v3 schema of its CRD
// version, keyword by keyword, as kube-openapi's validator does inside kube-apiserver — same
// checks, same order at each node, same messages ("spec.replicas in body should be greater
// than or equal to 1") — and turns its findings into the field errors the API server puts
// in a 422, as apiextensions-apiserver does.
//
// # The model
//
// The schema is walked with the value. At each node the checks run in the server's order:
// type (and numeric format), the combinators (anyOf, oneOf, allOf, not, dependencies), string
// length and pattern, string format, number bounds and multipleOf, list items and counts,
// enum, then object members (additionalProperties, properties, required,
// patternProperties). A null meets only the type and enum checks. Errors with the same text
// are reported once. Each node also counts how many checks applied ("match count"): when
// every anyOf or oneOf alternative fails, the errors of the alternative with the most
// matches are the ones reported, as on the server.
//
// Formats are the Kubernetes format set (package formats); a format the server does not
// know is dropped before validating, as the server strips it from the schema.
//
// # Ratcheting
//
// On an update the value is walked together with its correlation to the old object
// (package correlate): a node that fails but whose value the update leaves unchanged drops
// its errors. Correlation follows properties, map values and list-type map items; it stops
// at anyOf/oneOf/allOf/not, whose subschemas validate as on a create.
//
// Errors that are not about one field (combinator failures, numeric range notes) are
// reported at the root path given to Validate, as the server reports them.
package openapi
