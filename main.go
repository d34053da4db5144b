// Command ssa-diff predicts Kubernetes server-side apply offline: what the API server would
// store, who would own which fields and which conflicts it would answer. See package cli.
// Installed as kubectl-ssa_diff it is the kubectl plugin `kubectl ssa-diff`.
package main

import (
	"os"

	"github.com/ssa-diff/ssa-diff/cli"
)

func main() {
	os.Exit(cli.Main(cli.ProgramName(os.Args[0]), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
