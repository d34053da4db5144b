package cellib

import (
	"math"
	"slices"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/parser"
)

// Kubernetes 1.32 links cel-go v0.22.0, whose cost estimator (the one that decides whether a
// CRD's rule is too expensive to be written) knows fewer sizes than v0.23 and later. The
// estimate of a 1.32 server is restated here, on top of v0.29.2's estimator, by five rules:
//
//  1. dyn(x) is an ordinary call: it costs 1 plus x, and its result has no known size (v0.23
//     unwraps it, the result having x's size).
//  2. A value's size is what the estimator computed for it (a literal's, a concatenation's, a
//     call's result), else what the schema's bounds say of its path, else, for a value of
//     variable size, unknown (sizes022). v0.23 added fallbacks after the schema's: a loop or
//     bound variable's size from what it ranges over or is bound to, and 1 for an optional
//     of a scalar (optional.of(n) == optional.of(1) is charged as values of unknown size).
//  3. Paths are v0.22's (paths022): an identifier is a loop variable (the path of what it
//     iterates over, plus @items for a list, @keys for a map) or else its own name; a field
//     selection appends the field, an index @items or @values.
//  4. An index (l[i], m[k]) is sized by its path alone: v0.23 sizes it by the entries of the
//     list or map when it knows them (a literal's, map()'s or filter()'s result, either side
//     of a conditional or of a concatenation: ['a', s][1] is at most as long as s).
//  5. A comprehension's result has the size of what it iterates over, whatever it computes:
//     exists() == all() over n items is an equality of two values of size n (v0.23: of size
//     1, the size of the accumulator's literal), and optMap's bind iterates over an empty
//     list, its result of size 0 (v0.23: the size of the bound expression's result). Nor are
//     the sizes of the items of a comprehension's result known (v0.23 knows map(x, [x])'s).
//
// The estimate is made of a copy of the checked expression (rewrite022) in which a dyn()
// call is renamed dyn022 (rule 1), an index's overload index022 (rule 4), and each
// comprehension wrapped (rule 5): its range in a call range022, the comprehension itself in
// a call comp022. Estimator charges those calls nothing but their argument; range022 records
// the size of the range, which comp022 gives the comprehension's result.
//
// Iterating over a value without a path (a literal, a concatenation) gives the loop variable
// the path @items alone at every minor, which the server's sizer reads as the rule's root:
// the schema answers first, so 1.32 and later agree there (the crdminors cases cost022-*).

// The calls and overloads of the copy a 1.32 estimate is made of.
const (
	dyn022   = "dyn@cel-go-0.22"
	range022 = "range@cel-go-0.22"
	comp022  = "comprehension@cel-go-0.22"
	index022 = "index@cel-go-0.22"
)

// celGo022 reports whether the server links cel-go v0.22.0 (1.32).
func celGo022(server int) bool { return server < 33 }

// EstimateCost is env.EstimateCost of the checked expression a, as a server of minor
// est.Server estimates it (the rules above at 1.32). The program run is always a's own.
func EstimateCost(env *cel.Env, a *cel.Ast, est *Estimator) (checker.CostEstimate, error) {
	if !celGo022(int(est.Server)) {
		return env.EstimateCost(a, est)
	}
	checked, err := cel.AstToCheckedExpr(a)
	if err != nil {
		return checker.CostEstimate{}, err
	}
	copied := cel.CheckedExprToAst(checked)
	native := copied.NativeRep()
	// The proto form keeps a type's name, not the type: an object or opaque type of the
	// environment (a Quantity) would come back a different value, which the estimator's
	// equality of Kubernetes types does not recognise. The copy takes a's types by id.
	for id, t := range a.NativeRep().TypeMap() {
		native.SetType(id, t)
	}
	sizes := &sizes022{inner: est.Sizes, paths: paths022(a.NativeRep()), ranges: map[int64]int64{}, counts: map[int64]checker.SizeEstimate{}}
	rw := rewrite022{a: native, next: ast.MaxID(native), sizes: sizes}
	rw.expr(native.Expr())
	return env.EstimateCost(copied, &Estimator{Sizes: sizes, Server: est.Server})
}

// rewrite022 rewrites the copy a of a checked expression for a 1.32 estimate (see above).
type rewrite022 struct {
	a     *ast.AST
	next  int64 // the last expression id taken
	sizes *sizes022
}

func (r *rewrite022) id() int64 {
	r.next++
	return r.next
}

func (r *rewrite022) expr(e ast.Expr) {
	fac := ast.NewExprFactory()
	switch e.Kind() {
	case ast.SelectKind:
		r.expr(e.AsSelect().Operand())
	case ast.CallKind:
		c := e.AsCall()
		if c.IsMemberFunction() {
			r.expr(c.Target())
		}
		for _, arg := range c.Args() {
			r.expr(arg)
		}
		if c.FunctionName() == "dyn" && !c.IsMemberFunction() {
			e.SetKindCase(fac.NewCall(e.ID(), dyn022, c.Args()...))
		}
		if ref := r.a.ReferenceMap()[e.ID()]; ref != nil && slices.ContainsFunc(ref.OverloadIDs, isIndex) {
			renamed := &ast.ReferenceInfo{Name: ref.Name, Value: ref.Value}
			for _, o := range ref.OverloadIDs {
				if isIndex(o) {
					o = index022
				}
				renamed.OverloadIDs = append(renamed.OverloadIDs, o)
			}
			r.a.SetReference(e.ID(), renamed)
		}
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			r.expr(el)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			me := en.AsMapEntry()
			r.expr(me.Key())
			r.expr(me.Value())
		}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			r.expr(f.AsStructField().Value())
		}
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		for _, sub := range []ast.Expr{c.IterRange(), c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result()} {
			r.expr(sub)
		}
		rng, inner := r.id(), r.id()
		r.a.SetType(rng, r.a.GetType(c.IterRange().ID()))
		r.a.SetReference(rng, ast.NewFunctionReference(range022))
		r.a.SetType(inner, r.a.GetType(e.ID()))
		r.a.SetReference(e.ID(), ast.NewFunctionReference(comp022))
		r.sizes.ranges[c.IterRange().ID()] = inner
		wrapped := fac.NewComprehensionTwoVar(inner, fac.NewCall(rng, range022, c.IterRange()), c.IterVar(), c.IterVar2(), c.AccuVar(),
			c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result())
		e.SetKindCase(fac.NewCall(e.ID(), comp022, wrapped))
	}
}

func isIndex(overload string) bool {
	return overload == overloads.IndexList || overload == overloads.IndexMap
}

// estimateCallCost is the estimate of the calls of a 1.32 estimate's copy (rewrite022): a
// dyn() call or an index costs 1, its result of no size, or sized by its path; range022 and
// comp022 cost nothing but their argument, range022 recording the size of the range (size:
// the argument's size), comp022 giving it to the comprehension's result. Nil for any other
// call.
func (s *sizes022) estimateCallCost(function, overloadID string, args []checker.AstNode, size func(checker.AstNode) checker.SizeEstimate) *checker.CallEstimate {
	switch {
	case function == dyn022, overloadID == index022:
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
	case function == range022 && len(args) == 1:
		sz := size(args[0])
		if comp, ok := s.ranges[args[0].Expr().ID()]; ok {
			s.counts[comp] = sz
		}
		return &checker.CallEstimate{ResultSize: &sz}
	case function == comp022 && len(args) == 1:
		sz, ok := s.counts[args[0].Expr().ID()]
		if !ok {
			sz = checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
		}
		return &checker.CallEstimate{ResultSize: &sz}
	}
	return nil
}

// paths022 is the path cel-go v0.22.0 gives each expression of a that has one, by id.
func paths022(a *ast.AST) map[int64][]string {
	w := pathWalk{a: a, paths: map[int64][]string{}, loops: map[string][]int64{}}
	w.walk(a.Expr())
	for id, p := range w.paths {
		if len(p) > 0 && (p[0] == parser.AccumulatorName || p[0] == parser.HiddenAccumulatorName) {
			w.paths[id] = nil // an accumulator has no path
		}
	}
	return w.paths
}

type pathWalk struct {
	a     *ast.AST
	paths map[int64][]string
	loops map[string][]int64 // loop variable → the ranges it is bound to, innermost last
}

func (w *pathWalk) walk(e ast.Expr) {
	switch e.Kind() {
	case ast.IdentKind:
		name := e.AsIdent()
		if r := w.loops[name]; len(r) > 0 {
			rng := r[len(r)-1]
			switch w.a.GetType(rng).Kind() {
			case types.ListKind:
				w.paths[e.ID()] = appendPath(w.paths[rng], "@items")
			case types.MapKind:
				w.paths[e.ID()] = appendPath(w.paths[rng], "@keys")
			}
			return
		}
		w.paths[e.ID()] = []string{name}
	case ast.SelectKind:
		s := e.AsSelect()
		w.walk(s.Operand())
		if !s.IsTestOnly() {
			w.paths[e.ID()] = appendPath(w.paths[s.Operand().ID()], s.FieldName())
		}
	case ast.CallKind:
		c := e.AsCall()
		for _, arg := range c.Args() {
			w.walk(arg)
		}
		if c.IsMemberFunction() {
			w.walk(c.Target())
		}
		if len(c.Args()) == 0 {
			return
		}
		for _, o := range w.a.GetOverloadIDs(e.ID()) {
			switch o {
			case overloads.IndexList:
				w.paths[e.ID()] = appendPath(w.paths[c.Args()[0].ID()], "@items")
			case overloads.IndexMap:
				w.paths[e.ID()] = appendPath(w.paths[c.Args()[0].ID()], "@values")
			}
		}
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			w.walk(el)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			me := en.AsMapEntry()
			w.walk(me.Key())
			w.walk(me.Value())
		}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			w.walk(f.AsStructField().Value())
		}
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		w.walk(c.IterRange())
		w.walk(c.AccuInit())
		v := c.IterVar()
		w.loops[v] = append(w.loops[v], c.IterRange().ID())
		w.walk(c.LoopCondition())
		w.walk(c.LoopStep())
		w.loops[v] = w.loops[v][:len(w.loops[v])-1]
		w.walk(c.Result())
	}
}

func appendPath(p []string, name string) []string {
	return append(slices.Clip(p), name)
}

// sizes022 sizes a value as cel-go v0.22.0 does: by its v0.22 path, through inner (the
// schema's bounds); a value of variable size that inner does not size is of unknown size.
// ranges maps the range of each comprehension of the copy to the comprehension, counts the
// comprehension to the size of its range, as range022 records it (by expression id).
type sizes022 struct {
	inner  checker.CostEstimator
	paths  map[int64][]string
	ranges map[int64]int64
	counts map[int64]checker.SizeEstimate
}

func (s *sizes022) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if e := n.Expr(); e != nil {
		n = node022{AstNode: n, path: s.paths[e.ID()]}
	}
	if s.inner != nil {
		if sz := s.inner.EstimateSize(n); sz != nil {
			return sz
		}
	}
	if t := n.Type(); t != nil && !scalar022(t) {
		return &checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
	}
	return nil
}

func (s *sizes022) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// scalar022 reports whether cel-go v0.22.0 takes values of type t to be of size 1 (v0.23
// adds optionals of those).
func scalar022(t *types.Type) bool {
	switch t.Kind() {
	case types.BoolKind, types.DoubleKind, types.DurationKind, types.IntKind, types.TimestampKind, types.UintKind:
		return true
	}
	return false
}

// node022 is an expression's node with its v0.22 path.
type node022 struct {
	checker.AstNode
	path []string
}

func (n node022) Path() []string { return n.path }
