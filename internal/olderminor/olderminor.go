// Package olderminor runs the go command for an older Kubernetes minor's build, from a
// generator that builds every minor kube/releases.txt lists (schema/gen,
// internal/defaults/gen): the generator's module file (go.mod) pins the newest release,
// and each older one has a module file of its own (go.1.<minor>.mod), which the build of
// that minor names with -modfile.
//
// The newest release may need a newer Go than the older ones (1.38 asks for Go 1.27): the
// go command that switched to it for the generator's own build put that toolchain first
// on PATH, and an older minor's build would take it too, rebuilding every package with
// it. Command takes that entry off again and runs the go command the user ran, with
// GOTOOLCHAIN=local ("auto" would read go.mod, the newest release's, not the -modfile of
// the older one), so each minor builds with the Go it was always built with.
//
// It is a module of its own, with no requirement, so that each generator module (and each
// of its older minors' module files) can require it without the product's dependencies.
package olderminor

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Command is `go args…` with the module file modfile (added to GOFLAGS), in Env's
// environment and with the go command found on Env's PATH. Its standard output and error
// are this process's.
func Command(modfile string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Env = append(Env(), "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -modfile="+modfile))
	cmd.Path = lookGo(cmd.Env)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd
}

// Env is the environment an older minor's build runs in: this process's, but without the
// switched toolchain's PATH entry, GOROOT and toolchain variables, and with
// GOTOOLCHAIN=local. When this process runs on the user's own go command (no switch), it
// is the environment as it is.
func Env() []string {
	return envWithout(os.Environ(), runtime.GOROOT())
}

// envWithout is env for a process running on the Go installed at goroot.
func envWithout(env []string, goroot string) []string {
	if !strings.Contains(filepath.ToSlash(goroot), "/golang.org/toolchain@") {
		return env // no switch: the go command on PATH is the user's
	}
	switched := filepath.Join(goroot, "bin")
	out := env[:0:0]
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "PATH="):
			var keep []string
			for _, dir := range filepath.SplitList(strings.TrimPrefix(kv, "PATH=")) {
				if dir != switched {
					keep = append(keep, dir)
				}
			}
			kv = "PATH=" + strings.Join(keep, string(filepath.ListSeparator))
		case strings.HasPrefix(kv, "GOTOOLCHAIN="), strings.HasPrefix(kv, "GOROOT="), strings.HasPrefix(kv, "GOTOOLCHAIN_INTERNAL_SWITCH_"):
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GOTOOLCHAIN=local")
}

// lookGo is the go command found on the PATH of env (exec.Command looks on this process's).
func lookGo(env []string) string {
	for _, kv := range env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(path) {
				if p := filepath.Join(dir, "go"); isExecutable(p) {
					return p
				}
			}
		}
	}
	return "go"
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
