package olderminor

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A generator switched to a newer toolchain builds the older minors with the user's go
// command: the switched toolchain leaves PATH, GOROOT and GOTOOLCHAIN; nothing else changes.
func TestEnvUndoesTheSwitch(t *testing.T) {
	goroot := filepath.Join("/cache", "golang.org", "toolchain@v0.0.1-go1.27.3.linux-amd64")
	sep := string(filepath.ListSeparator)
	env := []string{"HOME=/h", "PATH=" + filepath.Join(goroot, "bin") + sep + "/usr/local/go/bin" + sep + "/bin", "GOROOT=" + goroot,
		"GOTOOLCHAIN=go1.27.3", "GOTOOLCHAIN_INTERNAL_SWITCH_COUNT=1", "GOFLAGS=-mod=mod"}
	got := envWithout(slices.Clone(env), goroot)
	want := []string{"HOME=/h", "PATH=/usr/local/go/bin" + sep + "/bin", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}
	if !slices.Equal(got, want) {
		t.Errorf("switched: %q, want %q", got, want)
	}
	if got := envWithout(slices.Clone(env), "/usr/local/go"); !slices.Equal(got, env) {
		t.Errorf("not switched: %q, want it as it is", got)
	}
}

// Command runs the go command of Env's PATH with the module file added to GOFLAGS.
func TestCommand(t *testing.T) {
	t.Setenv("GOFLAGS", "-mod=mod")
	cmd := Command("go.1.32.mod", "run", ".")
	if !slices.Contains(cmd.Env, "GOFLAGS=-mod=mod -modfile=go.1.32.mod") {
		t.Errorf("GOFLAGS not set: %q", cmd.Env)
	}
	if want := []string{"go", "run", "."}; !slices.Equal(cmd.Args, want) {
		t.Errorf("args %q, want %q", cmd.Args, want)
	}
	if cmd.Stdout != os.Stdout || cmd.Stderr != os.Stderr {
		t.Error("output not this process's")
	}
}
