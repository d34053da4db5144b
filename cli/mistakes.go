package cli

// This file asks package mistakes about a newcomer's first mistakes: on the command line
// before anything is read (a URL given as a file, standard input given twice), and those
// only the input shows (MANIFESTS and LIVE swapped; an exported manifest and an
// unsubstituted variable are asked of each result, reported).

import (
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/internal/mistakes"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/merge"
)

// usageError prints a mistake on the command line with the one prefix every error of the
// command has, "error: ", and where the usage is (`cmd --help`); it returns exit status 2.
func usageError(stderr io.Writer, cmd, msg string) int {
	fmt.Fprintf(stderr, "error: %s\nRun '%s --help' for usage.\n", msg, cmd)
	return report.ExitError
}

// checkInputPaths refuses the paths ssa-diff cannot read as the user meant them.
func (o *options) checkInputPaths() error { return mistakes.InputPaths(o.inputPaths()) }

// inputPaths are the manifests' and the live state's paths, as given.
func (o *options) inputPaths() []string {
	paths := append([]string(nil), o.manifests...)
	paths = append(paths, o.render.kustomize...)
	if o.live != "" {
		paths = append(paths, o.live)
	}
	return paths
}

// applies reports a run whose requests are applies (not a raw update, patch or create, nor
// one of kubectl's other commands), for which a manifest is what a person wrote.
func (o *options) applies() bool {
	return (o.verbs.v == "" || o.verbs.v == merge.VerbApply) && o.verbs.cmd == nil
}
