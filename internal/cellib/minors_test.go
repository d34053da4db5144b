package cellib_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/ssa-diff/ssa-diff/internal/cellib"
	"github.com/ssa-diff/ssa-diff/kube"
)

// eval compiles expr in the environment of kind k of a server of the given minor, with an
// int variable i, a string variable s and a list of strings l, and runs it: the
// compilation's error text, or the result (or the evaluation's error text) and the actual
// cost.
func eval(t *testing.T, minor int, k cellib.Kind, expr string, vars map[string]any) (compileErr string, out string, cost uint64) {
	t.Helper()
	v := kube.Minor(minor)
	base, err := cellib.Env(v, k)
	if err != nil {
		t.Fatal(err)
	}
	env, err := base.Extend(cel.Variable("i", cel.IntType), cel.Variable("s", cel.StringType), cel.Variable("l", cel.ListType(cel.StringType)))
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := cellib.Compile(env, v, expr)
	if iss != nil {
		return iss.String(), "", 0
	}
	prog, err := env.Program(ast, cel.CostTracking(&cellib.Estimator{Server: v}))
	if err != nil {
		t.Fatal(err)
	}
	if vars == nil {
		vars = map[string]any{"i": 5, "s": "abc", "l": []string{"a"}}
	}
	res, det, err := prog.Eval(vars)
	if det != nil && det.ActualCost() != nil {
		cost = *det.ActualCost()
	}
	if err != nil {
		return "", "error: " + err.Error(), cost
	}
	return "", toString(res.Value()), cost
}

func toString(v any) string { return fmt.Sprint(v) }

// fixedSize sizes every variable at most n long.
type fixedSize uint64

func (n fixedSize) EstimateSize(node checker.AstNode) *checker.SizeEstimate {
	if len(node.Path()) > 0 {
		return &checker.SizeEstimate{Min: 0, Max: uint64(n)}
	}
	return nil
}

func (fixedSize) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// Which libraries each minor's environments have: new expressions compile at the server's
// minor - 1, stored ones with every library of the server's own table. ext.Lists v3 came at
// 1.34 (new expressions from 1.35); k8s Lists v1's includes at 1.37 (stored only there).
func TestEnvironmentsPerMinor(t *testing.T) {
	for _, c := range []struct {
		minor  int
		kind   cellib.Kind
		expr   string
		undecl string // the undeclared reference, "" when it compiles
	}{
		{34, cellib.New, "l.distinct() == l", "distinct"},
		{34, cellib.Stored, "l.distinct() == l", ""},
		{35, cellib.New, "l.distinct() == l", ""},
		{34, cellib.New, "size(lists.range(3)) == 3", "lists"},
		{36, cellib.Stored, "l.includes('a')", "includes"},
		{37, cellib.New, "l.includes('a')", "includes"},
		{37, cellib.Stored, "l.includes('a')", ""},
		{36, cellib.Stored, "l.indexOf('a') == 0", ""},
		{37, cellib.Stored, "l.indexOf('a') == 0", ""},
	} {
		got, _, _ := eval(t, c.minor, c.kind, c.expr, nil)
		want := ""
		if c.undecl != "" {
			want = "undeclared reference to '" + c.undecl + "' (in container '')"
		}
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("1.%d %v %q: compile error %q, want %q", c.minor, c.kind, c.expr, got, want)
		}
	}
}

// cel-go v0.26.0 (1.34-1.36) parses no backtick-escaped identifiers; v0.29.2 (1.37) does.
// The text is the one a 1.36.3 server gave.
func TestBacktickIdentifiers(t *testing.T) {
	const expr = "{'replicas': 1}.`replicas` >= 0"
	want := "ERROR: <input>:1:17: unsupported syntax: '`'\n | {'replicas': 1}.`replicas` >= 0\n | ................^"
	for _, minor := range []int{34, 35, 36} {
		if got, _, _ := eval(t, minor, cellib.New, expr, nil); got != want {
			t.Errorf("1.%d: %q, want %q", minor, got, want)
		}
	}
	if got, out, _ := eval(t, 37, cellib.New, expr, nil); got != "" || out != "true" {
		t.Errorf("1.37: %q %q, want it to compile and be true", got, out)
	}
	// A backtick inside a string literal is no escape.
	if got, out, _ := eval(t, 36, cellib.New, "'a`b' != ''", nil); got != "" || out != "true" {
		t.Errorf("1.36 backtick in a string: %q %q", got, out)
	}
}

// cel-go v0.22.0 (1.32) has no token for a backtick: each one outside a literal or a comment
// is a token recognition error, and what is left parses. The text is the one a 1.32.13
// server gave (conformance/testdata/minors/1.32/crd-cel-backtick-identifier).
func TestBacktickIdentifiersAt132(t *testing.T) {
	if !kube.Minor(32).IsSupported() {
		t.Skip("1.32 is not listed in kube/releases.txt")
	}
	const expr = "self.`replicas` >= 0"
	want := "ERROR: <input>:1:6: Syntax error: token recognition error at: '`'\n | self.`replicas` >= 0\n | .....^\n" +
		"ERROR: <input>:1:15: Syntax error: token recognition error at: '`'\n | self.`replicas` >= 0\n | ..............^"
	if got, _, _ := eval(t, 32, cellib.New, expr, nil); got != want {
		t.Errorf("1.32: %q\nwant  %q", got, want)
	}
	for _, expr := range []string{"'a`b' != ''", `r"a` + "`" + `b" != ''`, "'''a`b''' != ''", "true // a `comment`"} {
		if got, _, _ := eval(t, 32, cellib.New, expr, nil); got != "" {
			t.Errorf("1.32 %q: %q, want it to compile", expr, got)
		}
	}
	if got, _, _ := eval(t, 32, cellib.New, "1 + `", nil); !strings.Contains(got, "1:5: Syntax error: token recognition error") {
		t.Errorf("1.32 a trailing backtick: %q", got)
	}
}

// duration(int): cel-go v0.26.0 has the overload, and the conversion fails when it runs (a
// literal argument fails the duration-literal validator); v0.29.2 has none. The texts are
// a 1.36.3 server's and cel-go v0.29.2's.
func TestDurationOfInt(t *testing.T) {
	if got, _, _ := eval(t, 36, cellib.New, "duration(5) < duration('1s')", nil); !strings.HasPrefix(got, "ERROR: <input>:1:10: invalid duration argument") {
		t.Errorf("1.36 literal: %q", got)
	}
	if got, out, _ := eval(t, 35, cellib.Stored, "duration(i) < duration('1s')", nil); got != "" || out != "error: type conversion error from 'int' to 'google.protobuf.Duration'" {
		t.Errorf("1.35 variable: %q %q", got, out)
	}
	if got, _, _ := eval(t, 37, cellib.New, "duration(i) < duration('1s')", nil); !strings.HasPrefix(got, "ERROR: <input>:1:9: found no matching overload for 'duration' applied to '(int)'") {
		t.Errorf("1.37: %q", got)
	}
}

// ext.Strings' indexOf and lastIndexOf with an empty needle and an offset, and
// lists.range's limits, in cel-go v0.26.0 and v0.29.2 (1.36.3 answered each 1.36 value).
func TestStringsAndRangeOfCelGo026(t *testing.T) {
	for _, c := range []struct {
		expr       string
		at36, at37 string
	}{
		{"'abc'.indexOf('', 5)", "5", "3"},
		{"'abc'.indexOf('', -1)", "-1", "error: index out of range: -1"},
		{"'abc'.lastIndexOf('', 5)", "5", "3"},
		{"'abc'.indexOf('c', 1)", "2", "2"},
		{"size(lists.range(-1))", "0", "error: lists.range: size must be non-negative, got -1"},
		{"size(lists.range(3))", "3", "3"},
	} {
		if _, out, _ := eval(t, 36, cellib.New, c.expr, nil); out != c.at36 {
			t.Errorf("1.36 %s = %s, want %s", c.expr, out, c.at36)
		}
		if _, out, _ := eval(t, 37, cellib.New, c.expr, nil); out != c.at37 {
			t.Errorf("1.37 %s = %s, want %s", c.expr, out, c.at37)
		}
	}
}

// Before 1.37 quantity add and sub copy the receiver shallowly: a receiver held as a
// decimal changes with the result (a 1.36.3 server fails this rule; 1.37 passes it).
func TestQuantityAddAliasing(t *testing.T) {
	const expr = "[quantity('100000000000000000000')].all(q, q.add(1).isGreaterThan(q))"
	if _, out, _ := eval(t, 36, cellib.New, expr, nil); out != "false" {
		t.Errorf("1.36: %s, want false", out)
	}
	if _, out, _ := eval(t, 37, cellib.New, expr, nil); out != "true" {
		t.Errorf("1.37: %s, want true", out)
	}
	// A quantity that fits an int64 is not held as a decimal: no aliasing.
	if _, out, _ := eval(t, 36, cellib.New, "[quantity('10')].all(q, q.add(1).isGreaterThan(q))", nil); out != "true" {
		t.Errorf("1.36 small quantity: %s, want true", out)
	}
}

// cel-go v0.26.0 charges startsWith by the receiver's length (v0.29.2: the prefix's), and
// the global matches as a constant-time call, at run time and in the estimate.
func TestCostsOfCelGo026(t *testing.T) {
	long := strings.Repeat("a", 1000)
	vars := map[string]any{"i": 1, "s": long, "l": []string{}}
	_, _, c36 := eval(t, 36, cellib.New, "s.startsWith('a')", vars)
	_, _, c37 := eval(t, 37, cellib.New, "s.startsWith('a')", vars)
	if c36 != 101 || c37 != 2 {
		t.Errorf("startsWith on 1,000 characters: 1.36 cost %d (want 101), 1.37 %d (want 2)", c36, c37)
	}
	_, _, c36 = eval(t, 36, cellib.New, "matches(s, '^a+$')", vars)
	_, _, c37 = eval(t, 37, cellib.New, "matches(s, '^a+$')", vars)
	if c36 != 2 || c37 != 102 {
		t.Errorf("matches on 1,000 characters: 1.36 cost %d (want 2), 1.37 %d (want 102)", c36, c37)
	}
	estimate := func(minor int, expr string) uint64 {
		v := kube.Minor(minor)
		base, _ := cellib.Env(v, cellib.New)
		env, _ := base.Extend(cel.Variable("s", cel.StringType))
		ast, iss := env.Compile(expr)
		if iss != nil {
			t.Fatal(iss)
		}
		est, err := env.EstimateCost(ast, &cellib.Estimator{Server: v, Sizes: fixedSize(1000)})
		if err != nil {
			t.Fatal(err)
		}
		return est.Max
	}
	if e36, e37 := estimate(36, "matches(s, '^a+$')"), estimate(37, "matches(s, '^a+$')"); e36 != 2 || e37 != 102 {
		t.Errorf("estimated cost of matches on 1,000 characters: 1.36 %d (want 2), 1.37 %d (want 102)", e36, e37)
	}
}

// or and orValue on a value that is not an optional: cel-go v0.26.0 passes it through,
// v0.29.2 answers no such overload (real 1.34-1.36 servers accept such a rule's object).
func TestOptionalOrOnAValue(t *testing.T) {
	for _, c := range []struct{ expr, at36, at37 string }{
		{"dyn(i).orValue(2) == i", "true", "error: no such overload"},
		{"dyn(dyn(i).or(optional.of(2))) == i", "true", "error: no such overload"},
		{"optional.none().orValue(2) == 2", "true", "true"},
		{"optional.of(1).or(optional.of(2)) == optional.of(1)", "true", "true"},
	} {
		if _, out, _ := eval(t, 36, cellib.New, c.expr, nil); out != c.at36 {
			t.Errorf("1.36 %s = %s, want %s", c.expr, out, c.at36)
		}
		if _, out, _ := eval(t, 37, cellib.New, c.expr, nil); out != c.at37 {
			t.Errorf("1.37 %s = %s, want %s", c.expr, out, c.at37)
		}
	}
}

// A leading-dot identifier naming a comprehension variable in scope: cel-go v0.26.0 resolves
// it to the variable, v0.29.2 to the global past it (real 1.34-1.36 servers accept the rule
// "self.items.all(self, dyn(.self) == self)").
func TestLeadingDotIdentifiers(t *testing.T) {
	for _, c := range []struct{ expr, at36, at37 string }{
		{"[1, 2].all(s, dyn(.s) == s)", "true", "false"},
		{"[1, 2].all(i, dyn(.i) == i)", "true", "false"},
		{".i == 5", "true", "true"},
	} {
		for minor, want := range map[int]string{36: c.at36, 37: c.at37} {
			cerr, out, _ := eval(t, minor, cellib.New, c.expr, nil)
			if cerr != "" {
				out = "compile error"
			}
			if out != want {
				t.Errorf("1.%d %s = %s (%s), want %s", minor, c.expr, out, cerr, want)
			}
		}
	}
}

// pathSizes sizes values by path as the server's schema sizer does: the first element (the
// variable) is skipped; s is at most 10 long, l has at most 4 items of at most 5, ll's
// items at most 6 items of at most 7; anything else at the root (a path of the variable
// alone, or @items alone) has at most 1,000.
type pathSizes struct{}

func (pathSizes) EstimateSize(node checker.AstNode) *checker.SizeEstimate {
	p := node.Path()
	if len(p) == 0 {
		return nil
	}
	switch strings.Join(p, ".") {
	case "s":
		return &checker.SizeEstimate{Max: 10}
	case "l":
		return &checker.SizeEstimate{Max: 4}
	case "l.@items":
		return &checker.SizeEstimate{Max: 5}
	case "ll.@items":
		return &checker.SizeEstimate{Max: 6}
	case "ll.@items.@items":
		return &checker.SizeEstimate{Max: 7}
	}
	if len(p) == 1 {
		return &checker.SizeEstimate{Max: 1000}
	}
	return nil
}

func (pathSizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// The estimate of 1.32 (cel-go v0.22.0) against 1.33's (v0.23.2, estimated as later ones):
// dyn() hides its argument's size; a loop over a literal or a concatenation, or over a
// loop variable holding a list, sizes its variable by the root's bound (its path is @items
// alone); an index is sized by its path; a comprehension's result by its range. The real
// servers' answers to such CRDs are the crdminors cases cost022-*.
func TestCostsOfCelGo022(t *testing.T) {
	estimate := func(minor int, expr string) uint64 {
		t.Helper()
		v := kube.Minor(minor)
		base, err := cellib.Env(v, cellib.New)
		if err != nil {
			t.Fatal(err)
		}
		env, _ := base.Extend(cel.Variable("s", cel.StringType), cel.Variable("l", cel.ListType(cel.StringType)),
			cel.Variable("ll", cel.ListType(cel.ListType(cel.StringType))))
		ast, iss := cellib.Compile(env, v, expr)
		if iss != nil {
			t.Fatal(iss)
		}
		est, err := cellib.EstimateCost(env, ast, &cellib.Estimator{Server: v, Sizes: pathSizes{}})
		if err != nil {
			t.Fatal(err)
		}
		return est.Max
	}
	for _, c := range []struct {
		expr       string
		at32, at33 uint64
	}{
		// 1 (dyn) + 1 (s) + matches: ceil((size + 1) × 0.1) × ceil(4 × 0.25): the size unknown
		// at 1.32 (the product saturates at its maximum, times 0.1), 10 at 1.33.
		{"dyn(s).matches('^a+$')", 1844674407370955266, 4},
		{"s.matches('^a+$')", 3, 3},
		// != of two lists: the smaller size times 0.1, unknown at 1.32, 4 at 1.33.
		{"dyn(l) != dyn(l)", 1844674407370955268, 5},
		{"l != l", 3, 3},
		// a loop over a concatenation or a literal: the variable's path is @items alone, the
		// root's size (1,000 here) at every minor.
		{"(l + ['z']).all(n, n.matches('^[a-z]+$'))", 1043, 1043},
		{"['abc', s].exists(x, x.matches('^a+$'))", 224, 224},
		{"l.all(n, n.matches('^[a-z]+$'))", 26, 26},
		// optionals of a scalar: size 1 from 1.33, unknown at 1.32.
		{"optional.of(1) == optional.of(2)", 1844674407370955266, 3},
		{"optional.of(s) == optional.of('a')", 1844674407370955267, 1844674407370955267},
		// an index is sized by its path alone at 1.32 (@items of a literal: the root, 1,000),
		// by the items it knows from 1.33: 10 for ['x', s], 8 for l.map(x, x + 'abc').
		{"['x', s][1].matches('^a+$')", 113, 14},
		{"l.map(x, x + 'abc')[0].matches('^a+$')", 170, 70},
		// a comprehension's result has its range's size at 1.32 (the root's 1,000 items: the
		// equality 100), 1 from 1.33.
		{"ll.exists(x, true) == ll.all(x, false)", 7104, 7005},
		// the same at both: quantities are equal at cost 1 (the copy keeps the checked
		// types), and a list function sizes the items of an indexed list or of a loop variable
		// by their paths (ll.@items.@items: 7).
		{"quantity('1') == quantity('2')", 3, 3},
		{"ll[0].isSorted()", 14, 14},
		{"ll.all(e, e.indexOf('a') > 0)", 17002, 17002},
	} {
		if e32, e33 := estimate(32, c.expr), estimate(33, c.expr); e32 != c.at32 || e33 != c.at33 {
			t.Errorf("%s: estimated 1.32 %d (want %d), 1.33 %d (want %d)", c.expr, e32, c.at32, e33, c.at33)
		}
	}
}
