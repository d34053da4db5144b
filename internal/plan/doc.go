// Package plan is a run's results in the order the report prints them, before and while
// they are predicted: one Slot per manifest (or per document that could not be read), then
// the live objects the applier prunes, then the live objects that could not be read.
//
// The slots are made of the pairing (Slots), less the kinds --skip names (Skip) and the
// objects of other shards (Shard); Steps makes them the steps predict.Run.PredictAll
// predicts (a pair that could be read is predicted, every other slot passes through), and
// Settle makes a slot's result of its step's outcome, judged by the report's verdict
// (report.Verdict.Judge), naming where the live object it was predicted against was read:
// the live state's, or the manifest of the step before it in its chain.
//
// The package knows nothing of the command: it is the glue between input (the pairs),
// predict (the steps) and report (the results) that any embedder running a whole repository
// would write.
package plan
