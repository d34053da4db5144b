// Package emit writes a run's report as the run predicts it: each result in order, once it
// is done, to the -o output (standard output or a file), with the one-screen summary, the
// HTML page and the other formats' files beside it; every file is committed only once the
// whole report is written (package outfiles), so a run that fails or is stopped leaves the
// previous files. On a terminal, a progress line says how many objects are predicted.
//
// It knows nothing of the command's flags (package cli sets a Writer from them), nor of the
// prediction: it prints the slots it is given (package plan) and returns the exit status
// the report's summary says.
package emit
