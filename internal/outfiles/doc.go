// Package outfiles writes the report's files all at once (package atomicfile): the -o
// output to standard output or to --output-file's FILE ([Open]), and the pages written
// beside it — --report-html, and --output-file's FORMAT=PATH — each a format's writer on a
// buffered temporary file ([Tee]). A file takes its place only when committed, once the
// whole report is written: a run that fails or is stopped half-way leaves the previous
// file, or none.
package outfiles
