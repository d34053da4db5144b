package schema

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies fences the package: no k8s.io/apimachinery (the
// generator module may use it, the product must not), and nothing of the
// CLI.
func TestDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"k8s.io/apimachinery", "k8s.io/client-go", "k8s.io/apiextensions-apiserver", "github.com/spf13/pflag", "github.com/sergi/go-diff", "github.com/ssa-diff/ssa-diff/cli"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("schema depends on %s", dep)
			}
		}
	}
}
