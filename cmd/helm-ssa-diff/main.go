// Command helm-ssa-diff is the Helm 4 plugin `helm ssa-diff` (plugin.yaml beside the
// binary): it renders a chart with Helm's own libraries and predicts the install, upgrade
// or rollback with ssa-diff's Helm applier. See package internal/helmplugin.
package main

import (
	"os"

	"github.com/ssa-diff/ssa-diff/internal/helmplugin"
)

func main() {
	os.Exit(helmplugin.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
