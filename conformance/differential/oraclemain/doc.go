// Command oraclemain is the differential harness's oracle as a process, written once for
// every minor whose field manager cannot be linked next to the harness's (InProcessMinor's):
// it serves package oracle over JSON lines. It builds in the harness's module at
// InProcessMinor, so that the compiler and vet check it; the harness's BuildOracle copies
// it into a process module's build directory (oracle132 … oracle136, oracle138), next to package oracle,
// with the import paths of that module's package oracle and structured-merge-diff, and the
// module's minor.go naming its minor. What differs by minor is switched on the constant
// minor (a custom resource's /status reset fields before 1.36).
//
// It speaks JSON lines on its standard input and output: a first line describing the kinds
// to serve (Setup), then one Call per line, each answered by one Answer line, in order.
// A line that cannot be read is answered with Answer.Fail, and the process carries on;
// it ends at the end of its input.
package main
