package cellib

import (
	exprpb "cel.dev/expr"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// dyn132 is the name dyn() calls take in the expression whose cost EstimateCost estimates at
// Kubernetes 1.32: an ordinary call to the checker, charged by Estimator.EstimateCallCost.
const dyn132 = "dyn@1.32"

// EstimateCost is env.EstimateCost of a checked expression as the server est.Server
// estimates it. Kubernetes 1.32 links cel-go v0.22.0, whose cost estimator charges dyn(x)
// as any call (1, plus x's cost) and knows nothing of its result's size (the estimator's
// path-based sizes do not reach through it); v0.23 (1.33) unwraps it, the result having x's
// size. So at 1.32 a rule such as `dyn(self.a) != dyn(self.b)` is estimated over lists of
// unknown size, and a CRD declaring it is refused for its cost. At 1.32 the dyn() calls of
// a copy of the expression are renamed (dyn132) before the estimate; the program run is
// always the original's.
func EstimateCost(env *cel.Env, a *cel.Ast, est *Estimator) (checker.CostEstimate, error) {
	if est.Server.AtLeast(33) {
		return env.EstimateCost(a, est)
	}
	checked, err := cel.AstToCheckedExpr(a)
	if err != nil {
		return checker.CostEstimate{}, err
	}
	renameCalls(checked.GetExpr().ProtoReflect(), "dyn", dyn132)
	return env.EstimateCost(cel.CheckedExprToAst(checked), est)
}

// renameCalls renames every call of function from in the expression m to to.
func renameCalls(m protoreflect.Message, from, to string) {
	if c, ok := m.Interface().(*exprpb.Expr_Call); ok && c.GetFunction() == from {
		c.Function = to
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
