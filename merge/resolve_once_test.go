package merge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestTheRegistryIsAskedInOnePlace: the engine asks the schema registry about a request's
// kind once (resolve, in kind.go), and every step reads the answer (kindTypes) rather than
// asking again. The only other questions are about other kinds' versions: the live object's
// own version when it is another (admitVersion), a managedFields entry's group when it is
// another (typeOf). Engine.PatchMeta and QualifiedResource (patch.go, clientLookup) answer a
// client about a kind, outside any request.
func TestTheRegistryIsAskedInOnePlace(t *testing.T) {
	allowed := map[string]int{"kind.go": -1, "versions.go": 1, "patch.go": 1}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "Lookup", "Resolve", "Serving", "Versions":
			default:
				return true
			}
			if recv, ok := sel.X.(*ast.SelectorExpr); ok && recv.Sel.Name == "schemas" {
				calls++
			}
			return true
		})
		if want, ok := allowed[name]; calls > 0 && !(ok && (want < 0 || calls <= want)) {
			t.Errorf("%s asks the registry %d times: ask resolve (kind.go) once per request and read its kindTypes", name, calls)
		}
	}
}

// BenchmarkResolve is what the registry's answers about one request's kind cost.
func BenchmarkResolve(b *testing.B) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	k := e.resolve(schema.GVKOf(deploymentRequest(b).Live))
	if k.known == nil || len(k.versions) == 0 {
		b.Fatalf("resolve: %+v", k)
	}
	b.ReportAllocs()
	for b.Loop() {
		e.resolve(k.gvk)
	}
}
