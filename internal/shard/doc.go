// Package shard splits one run's objects among N machines that do not talk to each other.
//
// A Spec is "I/N" (1-based): shard I of N. An object belongs to shard
//
//	FNV-1a 64(group "\x00" kind "\x00" namespace "\x00" name) mod N, plus 1
//
// the FNV-1a 64-bit hash (hash/fnv's New64a) of its identity's four parts joined by NUL
// bytes, as UTF-8, with the core group "" and a cluster-scoped object's namespace "". The
// key holds no version, no file and no position, so an object keeps its shard when the
// repository moves it between files or the apiVersion it is applied at changes; the hash
// is defined on bytes, so it is the same on every platform and in every release (a change
// of it would be a breaking change of the command line, documented as such).
//
// Every shard of a run reads every input (manifests, live state, schemas, CRDs) and pairs
// them as the whole run does; only the predictions are split. So each object is predicted
// in exactly one shard, with the same answer the whole run gives it, and no shard needs
// another's output. A manifest applied twice (the same identity) is one chain, predicted in
// the one shard its identity hashes to.
//
// Select keeps a shard's items and makes its Record: each result's position in the whole
// run, and the run's identity (a hash of every item's key and source, files named relative
// to the inputs' root: RelativeSources), which the report carries for `ssa-diff merge`
// (report.Merge) to refuse shards of other runs.
package shard
