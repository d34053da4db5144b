// Package testkit holds what the tests of ssa-diff share, and nothing the product links:
//
//   - the recorded cases: RecordedDir is testdata/recorded of the repository (copies of the
//     answers of a real kube-apiserver 1.37.2, refreshed by make refresh-recorded) or
//     $SSA_DIFF_FIXTURES; a test that needs them fails, never skips, when they are absent.
//     RecordedCases and RecordedCase list them, StoredObjects and ReadObject read the
//     objects the server stored, decoded as the engine decodes (integers as int64);
//   - golden files: Golden compares bytes with a file and rewrites it under go test -update;
//   - differences: Diff lists the paths where two decoded objects differ, LineDiff the first
//     lines where two texts differ;
//   - the repository: RepoRoot, from any package of the main module or of the separate
//     modules under conformance/;
//   - folders: DirNames, what a run left in one.
//
// Its own tests hold the module's dependency fences (TestDependencyFences): which packages
// may never depend on which.
//
// The layout of a recorded case is described in testdata/recorded/README.md, and the rules
// each case shows in docs/rules.md.
package testkit
