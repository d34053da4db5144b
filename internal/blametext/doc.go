// Package blametext prints `ssa-diff blame`: who owns each field of live objects, and since
// when, from their metadata.managedFields (package blame annotates each line of an object's
// YAML with its owners). Text is the object's YAML with an owners column before each line
// (a manager, "(Update)" or "(/status)" after it when it updated or wrote a subresource,
// co-owners joined, then when the latest of them last wrote); JSON is each object's
// identity, source and owned fields. The command parses blame's flags into [Options].
package blametext
