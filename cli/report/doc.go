// Package report is the model of what ssa-diff tells its users: one Result per manifest
// object, in input order, and a Summary. It is the versioned contract of the JSON and YAML
// outputs (apiVersion ssa-diff/v1, kind Report; docs/report.schema.json describes it) and the
// common input of every output format.
//
// A Result is built from the engine's prediction (FromPrediction) or from a failure of
// ssa-diff itself (FromError, code 0). Its Action says what the server would do: create,
// update, unchanged, rejected (the server refuses: conflicts, a bad request …) or error
// (ssa-diff could not predict). Changed says whether anything a person cares about would
// change: the object or who owns which fields — a new timestamp alone does not count.
//
// The exit status of a run follows from the results (ExitCode): 2 when any object could not
// be predicted, else 3 when the server would reject any apply, else 1 when anything would
// change, else 0.
package report
