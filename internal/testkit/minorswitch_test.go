package testkit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// minorSwitchRoots are the trees whose code switches on the server's minor.
var minorSwitchRoots = []string{"internal", "server", "merge", "schema", "appliers"}

// TestMinorSwitchesNameTheirMinor: where a rule differs between minors, the difference is a
// small switch next to the rule with a comment naming the minor that changed it (issue 25).
// Every switch on a minor number — cfg.AtLeast(N), an offFeature's in(from, until), a
// keptInUse(f, N) — has, within the dozen lines above it (or the three below), or in the doc comment of the
// function holding it, a comment that names Kubernetes 1.N (or 1.N-1, the last minor before
// the change, for "up to 1.35" phrasing).
func TestMinorSwitchesNameTheirMinor(t *testing.T) {
	root := RepoRoot(t)
	var bad []string
	switches := 0
	for _, dir := range minorSwitchRoots {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "gen") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(d.Name(), "zz_generated") {
				return nil
			}
			found, problems, err := checkMinorSwitches(path)
			if err != nil {
				return err
			}
			switches += found
			for _, p := range problems {
				rel, _ := filepath.Rel(root, path)
				bad = append(bad, rel+":"+p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if switches < 50 {
		t.Errorf("found %d switches on a minor: the test no longer recognises them", switches)
	}
	for _, b := range bad {
		t.Errorf("%s: no comment near it names the minor it switches on", b)
	}
}

// checkMinorSwitches parses one file and lists the switches without their comment.
func checkMinorSwitches(path string) (found int, problems []string, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return 0, nil, err
	}
	// The comments by line, and the doc comment of the function around each position.
	commentAt := map[int]string{}
	for _, g := range f.Comments {
		for _, c := range g.List {
			commentAt[fset.Position(c.Pos()).Line] += c.Text
		}
	}
	var funcs []*ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs = append(funcs, fd)
		}
	}
	docOf := func(pos token.Pos) string {
		for _, fd := range funcs {
			if fd.Pos() <= pos && pos <= fd.End() && fd.Doc != nil {
				return fd.Doc.Text()
			}
		}
		return ""
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		minors := minorsSwitchedOn(call)
		if len(minors) == 0 {
			return true
		}
		found++
		line := fset.Position(call.Pos()).Line
		var near strings.Builder
		for l := line - 12; l <= line+3; l++ {
			near.WriteString(commentAt[l])
		}
		near.WriteString(docOf(call.Pos()))
		for _, m := range minors {
			if !namesMinor(near.String(), m) {
				problems = append(problems, fmt.Sprintf("%d: switch on 1.%d", line, m))
				break
			}
		}
		return true
	})
	return found, problems, nil
}

// minorsSwitchedOn are the minors a call switches on: X.AtLeast(N), X.in(A, B),
// keptInUse(f, N) with integer literals (0 meaning unbounded).
func minorsSwitchedOn(call *ast.CallExpr) []int {
	var name string
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		name = fn.Sel.Name
	case *ast.Ident:
		name = fn.Name
	}
	var args []ast.Expr
	switch {
	case name == "AtLeast" && len(call.Args) == 1:
		args = call.Args
	case name == "in" && len(call.Args) == 2:
		args = call.Args
	case name == "keptInUse" && len(call.Args) == 2:
		args = call.Args[1:]
	default:
		return nil
	}
	var out []int
	for _, a := range args {
		lit, ok := a.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			return nil // not a minor literal (version.Version values are named)
		}
		n, _ := strconv.Atoi(lit.Value)
		if n >= 30 && n < 100 {
			out = append(out, n)
		}
	}
	return out
}

// namesMinor reports whether text names Kubernetes 1.m, or 1.m-1 (for "up to" phrasing).
func namesMinor(text string, m int) bool {
	return regexp.MustCompile(fmt.Sprintf(`\b1\.(%d|%d)\b`, m, m-1)).MatchString(text)
}
