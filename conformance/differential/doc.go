// Package differential compares ssa-diff's engine (package merge) with the API server's
// own field manager, k8s.io/apimachinery's pkg/util/managedfields, run in-process on the
// same schemas. It is a separate module so that the product never links the server's
// code.
//
// # The model
//
// A seed makes a Sequence: it picks a kind (built-in kinds and one CRD-defined kind,
// Widget), a set of managers, and a pool of field values drawn from the kind's schema by
// package gen; then op after op — applies (some forced, some through /status, some by
// "kubectl" with a last-applied annotation, some refused), updates (PUT, some through
// /status, some creating the object, some with managedFields reset to [] or [{}],
// renamed, dropped, replaced, or invalid), each at a logical time that moves on by zero
// or more seconds. Each op runs on both predictors, the oracle (package oracle) and the
// engine (Engine), against the same live object; their answers are compared (Compare):
// the stored object and its managedFields as canonical JSON (both sides stamp the same
// second, so times compare exactly), refusals by code, reason and message byte for byte
// and causes as a multiset. The oracle's answer becomes the next live object.
//
// Neither side runs the Go defaulting or registry strategies of built-in kinds (the
// engine runs with hooks that do nothing, the oracle with no defaulter): the comparison is
// of field management. So the generator draws for a built-in kind only values its Go
// types take (integers where they are integers, times in time fields), but for the kinds
// the oracle decodes into them, which refuses the rest as the server does. For a kind served at several versions (the HorizontalPodAutoscaler)
// ops go to any of its versions and the live object is read back at any: the oracle
// converts with the server's scheme, the engine with package internal/conversion. Custom resources are decoded as
// the API server does (pruning, null pruning, structural defaults) on the oracle side,
// and the engine runs the CRD defaults the schema package derives.
//
// A divergence is shrunk (Shrinker): ops are dropped, fields are dropped from bodies,
// then the single diverging request is reduced along with its live object, its
// managedFields entries and the fields they own, as long as the divergence keeps its
// category. The result is written as a CaseFile under testdata/, which TestCases replays.
//
// # Other minors
//
// Every other minor's field manager cannot be linked here (its k8s.io/apimachinery is
// another version of the same module; 1.32 and 1.33 link structured-merge-diff v4, 1.38
// v7 and needs Go 1.27): each is served by a process (Process): BuildOracle builds the module of
// OracleModules with package oracle and the program of oraclemain ported to its import
// paths, and the engine runs at that minor.
package differential
