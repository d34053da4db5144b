package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/ssa-diff/ssa-diff/kube"
)

// linkedVersion is the release's version when a release build sets it (goreleaser:
// -ldflags "-X github.com/ssa-diff/ssa-diff/cli.linkedVersion={{.Version}}"); the module's
// version in the build info otherwise. It is written only by the linker.
var linkedVersion string

// linkedCommit is the release's commit, set alike (-X …cli.linkedCommit={{.Commit}}), for
// builds without VCS information in their build info.
var linkedCommit string

// versionInfo is what `ssa-diff version` prints.
type versionInfo struct {
	Version    string // the module's version: v1.2.3, or (devel) for a build from a clone
	Commit     string // the VCS revision the binary was built from, if known
	CommitTime string
	Modified   bool     // built from a work tree with changes
	Go         string   // the Go release and platform
	Kubernetes []string // the kube-apiserver releases whose answers are predicted, one per minor, the default last
}

// readVersion reads the binary's build information.
func readVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	for _, m := range kube.Minors() {
		v.Kubernetes = append(v.Kubernetes, m.Release())
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			v.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.time":
				v.CommitTime = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if linkedVersion != "" {
		v.Version = linkedVersion
	}
	if v.Commit == "" {
		v.Commit = linkedCommit
	}
	return v
}

// runVersion prints the version: `ssa-diff version` and `ssa-diff --version`.
func runVersion(prog string, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		return usageError(stderr, prog, fmt.Sprintf("version takes no arguments, not %q", args))
	}
	v := readVersion()
	fmt.Fprintf(stdout, "ssa-diff %s\n", v.Version)
	commit := v.Commit
	if commit == "" {
		commit = "unknown"
	}
	if v.CommitTime != "" {
		commit += " (" + v.CommitTime
		if v.Modified {
			commit += ", modified"
		}
		commit += ")"
	}
	fmt.Fprintf(stdout, "  commit:     %s\n", commit)
	fmt.Fprintf(stdout, "  go:         %s\n", v.Go)
	fmt.Fprintf(stdout, "  kubernetes: %s (the kube-apiserver releases whose server-side apply is predicted: --kube-version; %s by default)\n",
		strings.Join(v.Kubernetes, ", "), kube.Default())
	return 0
}
