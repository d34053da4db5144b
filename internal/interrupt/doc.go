// Package interrupt stops a run of the command at SIGINT or SIGTERM (Run).
//
// A run is stopped by SIGINT (Ctrl-C) or SIGTERM (a CI job cancelled, a pod stopped): the
// requests to the cluster in flight are cancelled, no worker starts another prediction,
// and nothing more is written — a file being written (--output-file, --save-live) is left
// as it was. The exit status is the shell's for a process the signal ended.
//
// Run hands the signals back when it returns (a test, a library); RunToExit, for a command's
// main whose process exits with the status it answers, keeps them caught until the exit.
package interrupt
