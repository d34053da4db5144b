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
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Kubernetes 1.32 links cel-go v0.22.0, whose cost estimator (the one that decides whether a
// CRD's rule is too expensive to be written) knows fewer sizes than v0.23 and later. The
// estimate of a 1.32 server is restated here, on top of v0.29.2's estimator, by three rules:
//
//  1. dyn(x) is an ordinary call: it costs 1 plus x, and its result has no known size (v0.23
//     unwraps it, the result having x's size). In the copy of the expression the estimate is
//     made of, a dyn() call is renamed dyn022, which Estimator charges 1.
//  2. A value's size is what the estimator computed for it (a literal's, a concatenation's, a
//     call's result), else what the schema's bounds say of its path, else, for a value of
//     variable size, unknown (sizes022). v0.23 added fallbacks after the schema's: a loop or
//     bound variable's size from what it ranges over or is bound to, and 1 for an optional
//     of a scalar (optional.of(n) == optional.of(1) is charged as values of unknown size).
//  3. Paths are v0.22's (paths022): an identifier is a loop variable (the path of what it
//     iterates over, plus @items for a list, @keys for a map) or else its own name; a field
//     selection appends the field, an index @items or @values.
//
// Iterating over a value without a path (a literal, a concatenation) gives the loop variable
// the path @items alone at every minor, which the server's sizer reads as the rule's root:
// the schema answers first, so 1.32 and later agree there (the crdminors cases cost022-*).
// Not restated: v0.22 gives a comprehension's result the size of what it iterates over
// (exists() == all() is charged by that count, v0.23 by 1), and v0.23 knows the size of an
// item taken by index from a list literal (['a', s][1]); a rule relying on either is
// estimated at 1.32 as 1.33 estimates it.

// dyn022 is the name dyn() calls take in the copy of an expression a 1.32 estimate is made of.
const dyn022 = "dyn@cel-go-0.22"

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
	renameCalls(checked.GetExpr().ProtoReflect(), "dyn", dyn022)
	at022 := &Estimator{Sizes: sizes022{inner: est.Sizes, paths: paths022(a.NativeRep())}, Server: est.Server}
	return env.EstimateCost(cel.CheckedExprToAst(checked), at022)
}

// renameCalls renames the calls of function from in the expression message m (its proto
// form: the function field of every Call message) to to.
func renameCalls(m protoreflect.Message, from, to string) {
	if m.Descriptor().Name() == "Call" {
		if fd := m.Descriptor().Fields().ByName("function"); fd != nil && m.Get(fd).String() == from {
			m.Set(fd, protoreflect.ValueOfString(to))
		}
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					renameCalls(mv.Message(), from, to)
					return true
				})
			}
		case fd.IsList():
			if fd.Message() != nil {
				for i := 0; i < v.List().Len(); i++ {
					renameCalls(v.List().Get(i).Message(), from, to)
				}
			}
		case fd.Message() != nil:
			renameCalls(v.Message(), from, to)
		}
		return true
	})
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
type sizes022 struct {
	inner checker.CostEstimator
	paths map[int64][]string
}

func (s sizes022) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
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

func (s sizes022) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
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
