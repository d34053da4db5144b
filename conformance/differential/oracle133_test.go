package differential

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOracle133InStep holds oracle133's port of package oracle to it: the same files,
// but for the structured-merge-diff major version they import (v4 at 1.33, v6 here).
func TestOracle133InStep(t *testing.T) {
	files, err := filepath.Glob("oracle/*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		n++
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		port := filepath.Join("oracle133", "oracle", filepath.Base(f))
		got, err := os.ReadFile(port)
		if err != nil {
			t.Errorf("%s has no port: %v", f, err)
			continue
		}
		w := strings.ReplaceAll(string(want), "sigs.k8s.io/structured-merge-diff/v6", "sigs.k8s.io/structured-merge-diff/v4")
		if string(got) != w {
			t.Errorf("%s differs from %s but for the structured-merge-diff import: copy it again (sed s#structured-merge-diff/v6#structured-merge-diff/v4#)", port, f)
		}
	}
	if n == 0 {
		t.Fatal("no files in oracle/")
	}
	ports, _ := filepath.Glob("oracle133/oracle/*.go")
	if len(ports) != n {
		t.Errorf("oracle133/oracle has %d files, oracle %d", len(ports), n)
	}
}
