// Package output writes a report.Report in each of ssa-diff's formats. Every format is a
// Writer in a file of its own: text (for people: what the apply does, who loses what, a
// coloured diff), diff (the unified diff alone, as kubectl diff prints it), json and yaml
// (the versioned report), objects (the predicted objects as the server returns them), and
// for CI: github (workflow-command annotations at the manifests' lines), junit (one test
// case per object; failing findings fail it), markdown (a pull-request comment within
// GitHub's size limit) and html (one self-contained page: filters, side-by-side diffs, the
// ownership map of each object; html.go builds each part, htmlpage.go prints it, escaping
// each value as html/template would where it stands; style and script in html/);
// NewSummary is the one-screen overview of --summary.
//
// A Writer receives the results one by one in input order (Write) and then the complete
// report (Close). Streaming formats print as results arrive; the report formats print at
// Close, except json once Start gave it the report (its head final before the first
// result): it prints the head and each result as it arrives, and the rest at Close, the
// bytes of the whole report encoded at once. Writers never decide the exit status; the
// report does.
//
// Diffs and objects print as YAML the way kubectl prints them (renderYAML): keys in the YAML
// encoder's natural order, ties broken by bytes. A decoded object is written by emitYAML, a
// small emitter that reproduces the encoder byte for byte (its quoting, block scalars and
// folding at column 80) for the values decoding makes; anything else takes the encoder. A
// live and a predicted object that are equal are not printed at all (sameDisplay): their
// diff is empty.
package output
