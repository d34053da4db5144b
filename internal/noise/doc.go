// Package noise reads the controls that quiet a report without changing a prediction:
// the fields and managers hidden from the diffs and the gate (--ignore-path,
// --ignore-manager, with the rules an Argo CD Application's ignoreDifferences make: one
// judge.Ignore), the kinds neither predicted nor reported (--skip, as kubeconform's -skip)
// and the file paths not read when walking a directory (--ignore-filename-pattern).
//
// Read checks every value once and returns the Rules a run asks: Ignore, Skipped,
// IgnoreFile. The package knows nothing of flags: the command hands it the values.
package noise
