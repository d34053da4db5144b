// Command pgo writes the CPU profile that Go's profile-guided optimisation reads: the
// repository's default.pgo, beside main.go, which `go build` and `go install` of the
// module's main package apply by default (-pgo=auto).
//
// It runs the command in this process, as the binary would run it, once for each
// invocation given, under one CPU profile:
//
//	go run . -o ../../default.pgo -C ../.. -- 'ARGS…' 'ARGS…'
//
// Each argument is one invocation's arguments, split at white space. An invocation that
// could not predict (exit status 2) stops the profile with its error: a profile of error
// paths would optimise the wrong code. `make pgo` gives the invocations: the benchmark
// corpus through each output format, 10,000 objects in the JSON report.
//
// With -trace FILE it also writes an execution trace of the invocations (runtime/trace),
// which holds the CPU profile's samples too: ./busy reads it, to see when the CPUs wait.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"strings"

	"github.com/ssa-diff/ssa-diff/cli"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "pgo:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("pgo", flag.ContinueOnError)
	out := fs.String("o", "default.pgo", "the profile to write")
	dir := fs.String("C", ".", "the directory the invocations run in")
	traceOut := fs.String("trace", "", "an execution trace to write as well")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("no invocation given")
	}
	// The profile's path is taken before changing directory, as given.
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	var tf *os.File
	if *traceOut != "" {
		if tf, err = os.Create(*traceOut); err != nil {
			f.Close()
			return err
		}
	}
	if err := os.Chdir(*dir); err != nil {
		f.Close()
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	if tf != nil {
		if err := trace.Start(tf); err != nil {
			pprof.StopCPUProfile()
			f.Close()
			tf.Close()
			return err
		}
	}
	runErr := invoke(fs.Args())
	if tf != nil {
		trace.Stop()
		if err := tf.Close(); err != nil && runErr == nil {
			runErr = err
		}
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// invoke runs each invocation in turn; their output is discarded.
func invoke(invocations []string) error {
	for _, inv := range invocations {
		var stderr bytes.Buffer
		status := cli.Main("ssa-diff", strings.Fields(inv), strings.NewReader(""), io.Discard, &stderr, os.Getenv)
		if status == 2 {
			return fmt.Errorf("ssa-diff %s: exit status 2: %s", inv, strings.TrimSpace(stderr.String()))
		}
		fmt.Fprintf(os.Stderr, "ssa-diff %s: exit status %d\n", inv, status)
	}
	return nil
}
