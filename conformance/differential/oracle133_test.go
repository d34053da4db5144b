package differential

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
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
		for _, f := range []string{"go.mod", "go.sum", "main.go", "minor.go", "doc.go"} {
			if _, err := os.Stat(filepath.Join(dst, f)); err != nil {
				t.Errorf("%s: %s not copied: %v", m, f, err)
			}
		}
		// The program is oraclemain's with the module's import paths; minor.go and doc.go
		// are the module's.
		want, _ := os.ReadFile("oraclemain/main.go")
		got, _ := os.ReadFile(filepath.Join(dst, "main.go"))
		modOracle := "github.com/ssa-diff/ssa-diff/conformance/differential/" + mod + "/oracle"
		if !strings.Contains(string(got), `"`+modOracle+`"`) || strings.Contains(string(got), `"`+thisOracle+`"`) {
			t.Errorf("%s: main.go does not import %s", m, modOracle)
		}
		back := strings.ReplaceAll(strings.ReplaceAll(string(got), modOracle, thisOracle), "sigs.k8s.io/structured-merge-diff/"+oracleSMD[m], thisSMD)
		if back != string(want) {
			t.Errorf("%s: main.go changed beyond its import paths", m)
		}
		for _, f := range []string{"minor.go", "doc.go"} {
			want, _ := os.ReadFile(filepath.Join(mod, f))
			got, _ := os.ReadFile(filepath.Join(dst, f))
			if string(got) != string(want) {
				t.Errorf("%s: %s is not the module's", m, f)
			}
		}
		if n := minorConst(t, filepath.Join(dst, "minor.go")); n != m {
			t.Errorf("%s: the ported program names minor %s", m, n)
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
			if strings.Contains(string(got), thisSMD) && "sigs.k8s.io/structured-merge-diff/"+oracleSMD[m] != thisSMD {
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

// TestOracleMainNamesItsMinor: oraclemain, built in this module, names this module's minor.
func TestOracleMainNamesItsMinor(t *testing.T) {
	if n := minorConst(t, "oraclemain/minor.go"); n != InProcessMinor {
		t.Errorf("oraclemain/minor.go names %s, this module links %s", n, InProcessMinor)
	}
}

// minorConst reads the constant minor of a minor.go.
func minorConst(t *testing.T, path string) kube.Minor {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var found kube.Minor
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "minor" || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
			if n, err := strconv.Atoi(lit.Value); err == nil {
				found = kube.Minor(n)
			}
		}
		return false
	})
	if found == 0 {
		t.Fatalf("%s has no constant minor", path)
	}
	return found
}
