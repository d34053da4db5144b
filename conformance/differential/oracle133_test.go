package differential

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOraclePortedPerMinor: each process oracle's module gets package oracle as written
// here, but for the structured-merge-diff major version its minor links; nothing else of
// the package changes and the module's own files come along.
func TestOraclePortedPerMinor(t *testing.T) {
	for m, mod := range OracleModules {
		dst := t.TempDir()
		if err := portOracle(mod, dst, "sigs.k8s.io/structured-merge-diff/"+oracleSMD[m]); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		for _, f := range []string{"go.mod", "go.sum", "main.go"} {
			if _, err := os.Stat(filepath.Join(dst, f)); err != nil {
				t.Errorf("%s: %s not copied: %v", m, f, err)
			}
		}
		files, _ := filepath.Glob("oracle/*.go")
		ported := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			want, _ := os.ReadFile(f)
			got, err := os.ReadFile(filepath.Join(dst, "oracle", filepath.Base(f)))
			if err != nil {
				t.Errorf("%s: %s not ported: %v", m, f, err)
				continue
			}
			ported++
			if strings.Contains(string(got), thisSMD) {
				t.Errorf("%s: %s still imports %s", m, f, thisSMD)
			}
			if strings.ReplaceAll(string(got), "sigs.k8s.io/structured-merge-diff/"+oracleSMD[m], thisSMD) != string(want) {
				t.Errorf("%s: %s changed beyond its structured-merge-diff import", m, f)
			}
		}
		if ported == 0 {
			t.Errorf("%s: nothing ported", m)
		}
	}
}
