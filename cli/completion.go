package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/completion"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge/gate"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
)

// This file gives package completion what it knows of the command: its flag sets, with the
// values of each flag (completionCommand); `ssa-diff completion SHELL` writes a shell's
// script, `ssa-diff __complete WORDS... CURRENT` answers a request, as does the binary run
// as KubectlCompletionProgram.

// KubectlCompletionProgram is the name of the kubectl plugin's completion executable: a
// link to (or, on Windows, a copy of) the binary under this name on the PATH completes
// `kubectl ssa-diff`.
const KubectlCompletionProgram = "kubectl_complete-ssa_diff"

// completionCommand is the command as completion sees it.
func completionCommand(prog string) completion.Command {
	return completion.Command{Flags: completionFlags(prog), Blame: blameCompletionFlags(prog), Merge: mergeCompletionFlags(prog), Formats: output.Formats()}
}

// runComplete answers a completion request of WORDS (the last the word being completed).
func runComplete(args []string, stdout io.Writer) int {
	io.WriteString(stdout, completionCommand("ssa-diff").Complete(args, os.ReadDir).String())
	return 0
}

// ipFamilyChoices are --service-ip-families' values.
var ipFamilyChoices = []string{"IPv4", "IPv6", "IPv4,IPv6", "IPv6,IPv4"}

// kubeVersionChoices are --kube-version's values: the supported minors and nearest.
func kubeVersionChoices() []string {
	var vs []string
	for _, v := range kube.Minors() {
		vs = append(vs, v.String())
	}
	return append(vs, "nearest")
}

// completionFlags lists the prediction's flags.
func completionFlags(prog string) []completion.Flag {
	fs, _, _, _ := flagSet(prog, &options{})
	choices := map[string][]string{
		"applier":             appliers.Names(),
		"output":              output.Formats(),
		"color":               {"auto", "always", "never"},
		"subresource":         merge.Subresources(),
		"verb":                {"apply", "update", "patch", "create"},
		"patch-type":          {"json", "merge", "strategic"},
		"fail-on":             append(append([]string(nil), gate.FailOnValues...), "none", "all"),
		"disable-advice":      adviceIDs(),
		"kube-version":        kubeVersionChoices(),
		"service-ip-families": ipFamilyChoices,
	}
	for _, k := range appliers.Kinds() {
		for _, o := range k.Options {
			switch {
			case len(o.Choices) > 0:
				choices[o.Name] = o.Choices
			case len(o.Completions) > 0:
				choices[o.Name] = o.Completions
			}
		}
	}
	files := map[string]bool{"filename": true, "crd": true, "schema": true, "report-html": true, "save-live": true, "kubeconfig": true, "admission-from": true,
		"argocd-application": true, "flux-kustomization-file": true, "flux-substitute-from": true}
	dirs := map[string]bool{"kustomize": true, "source-root": true}
	return completion.FlagsOf(fs, choices, files, dirs, map[string]bool{"output-file": true})
}

// blameCompletionFlags lists blame's flags.
func blameCompletionFlags(prog string) []completion.Flag {
	fs, _ := blameFlagSet(prog, &blameOptions{})
	return completion.FlagsOf(fs, map[string][]string{
		"time":   {"relative", "full", "none"},
		"output": {"text", "json"},
		"color":  {"auto", "always", "never"},
	}, nil, nil, nil)
}

// mergeCompletionFlags lists merge's flags: the prediction's that say how to print
// (mergeFlags), with their values.
func mergeCompletionFlags(prog string) []completion.Flag {
	var out []completion.Flag
	for _, f := range completionFlags(prog) {
		if mergeFlags[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// runCompletion writes the completion script of a shell.
func runCompletion(prog string, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return usageError(stderr, prog, fmt.Sprintf("completion takes one shell: %s completion %s", prog, strings.Join(completion.Shells(), "|")))
	}
	shells := completion.Shells()
	if !slices.Contains(shells, args[0]) {
		return usageError(stderr, prog, fmt.Sprintf("completion: unknown shell %q (want %s)", args[0], strings.Join(shells, ", ")))
	}
	err := completionCommand(prog).Script(stdout, args[0])
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return report.ExitError
	}
	return 0
}
