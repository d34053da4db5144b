// Package gate is the pre-merge gate's policy: of the things one write does — its refusal,
// the conflicts, the fields taken from other managers, the fields deleted, the
// approximations the prediction rests on, the server's warnings — which fail the run.
//
// The policy judges a Write, the typed facts of one judged prediction (what package
// predict predicted and package judge found about it), into Findings, in the order
// refusal or failure, conflicts, takeovers, deletions, approximations, warnings. A
// finding's Level is failure when the policy says it fails the run (--fail-on lists the
// categories; a failure to predict and a takeover from a protected manager always fail),
// notice for what the policy allows or the ignore rules hide, warning otherwise.
//
// The package knows nothing of reports or of the command: a report (internal/report)
// converts its results into Writes, the command parses --fail-on, --protect and
// --allow-takeover-from with ParseFailOn and CheckGlobs.
package gate
