package formats

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"testing"
)

// TestLazyRegexpsCompile: the expressions are compiled at their first use, not when the
// program starts, so one that does not compile would panic in the middle of a run. Every
// &lazyRegexp{pattern: …} of the package's files is compiled here (read from the source,
// so that one added later is held to it too).
func TestLazyRegexpsCompile(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "formats.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		lit, ok := node.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "lazyRegexp" {
			return true
		}
		for _, e := range lit.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok || kv.Key.(*ast.Ident).Name != "pattern" {
				continue
			}
			s, err := strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
			if err != nil {
				t.Fatalf("%v: %v", kv.Value, err)
			}
			if _, err := regexp.Compile(s); err != nil {
				t.Errorf("lazyRegexp %q: %v", s, err)
			}
			n++
		}
		return true
	})
	if n < 18 {
		t.Errorf("found %d lazyRegexp patterns in formats.go, want the 18 or more it holds", n)
	}
	if got := rxShortName.get(); got != rxShortName.get() || !got.MatchString("a-b") {
		t.Error("rxShortName.get: not one compiled expression matching a-b")
	}
}
