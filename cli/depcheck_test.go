package cli

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The library packages know nothing of the command: a Go program embedding the engine must
// not pull in the CLI, its flag parser, its diff printer or the cluster client (client-go).
func TestLibrariesDoNotImportTheCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	forbidden := []string{"github.com/ssa-diff/ssa-diff/cli", "github.com/spf13/pflag", "github.com/sergi/go-diff", "sigs.k8s.io/kustomize", "k8s.io/client-go"}
	for _, pkg := range []string{"fieldpath", "schema", "merge"} {
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", "./"+pkg+"/...")
		cmd.Dir = repoRoot(t)
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("go list ./%s/...: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
	// The input package is a library too: no flag parsing in it.
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", "./cli/input", "./cli/report", "./cli/blame")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Skip(err)
	}
	if strings.Contains(string(out), "github.com/spf13/pflag") {
		t.Error("cli/input, cli/report or cli/blame import pflag")
	}
	// Only cli/render links kustomize (its plugin loader weighs on the binary).
	if strings.Contains(string(out), "sigs.k8s.io/kustomize") {
		t.Error("cli/input, cli/report or cli/blame import kustomize")
	}
	if strings.Contains(string(out), "k8s.io/client-go") {
		t.Error("cli/input, cli/report or cli/blame import client-go: only cli/cluster talks to clusters")
	}
}

// Packages whose init is expensive never enter the binary: client-go's typed clientset and
// its scheme (every built-in type registered at start, ~3 ms of every run, offline too),
// its discovery package (which imports that scheme), and kubectl's own packages; and the
// validation packages of apiextensions-apiserver, which pull in kube-openapi's strfmt (its
// format regular expressions compiled at start, 6 ms), govalidator (2 ms), the server's
// metrics registry and feature gates (3 ms): internal/crdvalidation restates them on cel-go
// and k8s.io/apiserver/pkg/cel's types (conformance/crdvalidation holds it to them).
func TestNoExpensiveInit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", ".")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Skip(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range []string{"k8s.io/client-go/kubernetes", "k8s.io/client-go/discovery", "k8s.io/kubectl", "k8s.io/cli-runtime", "k8s.io/api/core",
			"k8s.io/apiextensions-apiserver", "k8s.io/kube-openapi/pkg/validation/strfmt", "k8s.io/kube-openapi/pkg/validation/validate", "k8s.io/apiserver/pkg/cel/library",
			"k8s.io/apiserver/pkg/cel/environment", "k8s.io/component-base", "github.com/asaskevich/govalidator", "github.com/prometheus"} {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("the binary links %s", dep)
			}
		}
	}
}
