// Command ssa-diff-admission runs, for ssa-diff, the admission that goes through
// Kubernetes' own libraries: PodSecurity and the ValidatingAdmissionPolicy and
// MutatingAdmissionPolicy plugins of k8s.io/apiserver. ssa-diff starts it when the cluster
// state it was given holds what that admission acts on, and asks it over standard input
// and output (package internal/admission/wire); it is not meant to be run by hand. It
// also prints the go-cmp diff Kubernetes 1.32 and 1.33 put in refusing a changed
// ephemeral container (package internal/api/gocmp), which ssa-diff asks for only then. It
// lives apart from ssa-diff so that those libraries' start-up and size cost only the runs
// that need them.
//
// Install it beside ssa-diff:
//
//	go install github.com/ssa-diff/ssa-diff/cmd/ssa-diff-admission@latest
package main

import (
	"fmt"
	"os"

	"github.com/ssa-diff/ssa-diff/internal/admission/library"
	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	"github.com/ssa-diff/ssa-diff/internal/api/gocmp"
)

func main() {
	library.SilenceLogs()
	diff := func(d wire.Diff) (string, error) { return gocmp.Print(d.Minor, d.Type, d.Old, d.New) }
	if err := wire.Serve(os.Stdin, os.Stdout, library.New, diff); err != nil {
		fmt.Fprintln(os.Stderr, "ssa-diff-admission:", err)
		os.Exit(2)
	}
}
