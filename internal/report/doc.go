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
// The policy is package gate's (judge/gate): it judges a result's typed facts
// (Result.Write) into Findings — the refusal, each conflict, each manager losing fields
// (takeover, or protected when the policy protects it), the deleted fields, the warnings.
// A run's step becomes its Result through one call, Verdict.Judge: the prediction as the
// report says it (or why there is none), its findings located in the manifest.
//
// The exit status of a run follows from the results (Tally, Summarize): 2 when any object
// could not be predicted, else 3 when a rejection fails, else 4 when another finding fails,
// else 1 when anything would change (or a rejection does not fail), else 0. Results without
// findings are judged by DefaultPolicy, which fails on rejections only.
package report
