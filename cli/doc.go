// Package cli is the ssa-diff command: it reads manifests and live objects, asks the engine
// (package merge) what the API server would do with each apply, and prints the answer.
//
//	ssa-diff [flags] MANIFESTS [LIVE]
//	ssa-diff blame LIVE
//
// Run is the whole command behind a testable signature; main only calls it and exits with
// the status it returns:
//
//	0  nothing would change
//	1  something would change (the object, or who owns which fields)
//	2  ssa-diff could not predict (bad usage, unreadable or malformed input)
//	3  the server would reject at least one apply (conflicts or any other refusal)
//
// The pieces live in sub-packages: input reads files and pairs manifests with live objects,
// report is the versioned result model, output prints it in each format. Objects are
// predicted in parallel by a bounded pool of workers; results are printed in input order.
// Manifests for the same object are applied one after the other, each to the object the
// previous one leaves, as kubectl would.
package cli
