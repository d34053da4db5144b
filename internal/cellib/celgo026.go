package cellib

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	"github.com/google/cel-go/parser"
	"github.com/ssa-diff/ssa-diff/kube"
)

// kube-apiserver 1.34 to 1.36 link cel-go v0.26.0; 1.37 and ssa-diff link v0.29.2. What
// v0.26.0 did differently, and a rule can see, is restated here for those servers (see
// celGo026): the declarations below replace v0.29.2's bindings of the same overloads, or add
// the overloads it dropped.

// Compile compiles expr in env, an environment of a server of minor server, as that server
// does. Before 1.37 (cel-go v0.26.0):
//   - the parser does not enable backtick-escaped identifiers (v0.29.2's does by default): an
//     expression using them fails to parse with "unsupported syntax: '`'" and whatever else
//     the parse reports; at 1.32 (cel-go v0.22.0) a backtick is no token at all, each one a
//     "token recognition error" (parseWithoutBackticks022);
//   - a leading-dot identifier (.x) resolves as x does, to a comprehension's variable of that
//     name when one is in scope (v0.29.2 resolves it past them, to the global).
func Compile(env *cel.Env, server kube.Minor, expr string) (*cel.Ast, *cel.Issues) {
	if !celGo026(int(server)) {
		return env.Compile(expr)
	}
	if strings.ContainsRune(expr, '`') {
		if !celGo023(int(server)) {
			// Kubernetes 1.32 (cel-go v0.22.0): no backtick is a token.
			if iss := parseWithoutBackticks022(env, expr); iss != nil {
				return nil, iss
			}
		} else if iss := parseWithoutEscapes(env, expr); iss != nil {
			return nil, iss
		}
	}
	parsed, iss := env.Parse(expr)
	if iss.Err() != nil {
		return nil, iss
	}
	resolveLeadingDots026(parsed.NativeRep().Expr(), nil)
	checked, iss := env.Check(parsed)
	if iss.Err() != nil {
		return nil, iss
	}
	return checked, iss
}

// resolveLeadingDots026 rewrites the leading-dot identifiers of e that name a
// comprehension variable in scope (locals) without their dot: as cel-go v0.26.0 resolves
// them.
func resolveLeadingDots026(e ast.Expr, locals []string) {
	if e == nil {
		return
	}
	switch e.Kind() {
	case ast.IdentKind:
		if name, ok := strings.CutPrefix(e.AsIdent(), "."); ok && slices.Contains(locals, name) {
			e.SetKindCase(ast.NewExprFactory().NewIdent(e.ID(), name))
		}
	case ast.SelectKind:
		resolveLeadingDots026(e.AsSelect().Operand(), locals)
	case ast.CallKind:
		c := e.AsCall()
		if c.IsMemberFunction() {
			resolveLeadingDots026(c.Target(), locals)
		}
		for _, a := range c.Args() {
			resolveLeadingDots026(a, locals)
		}
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			resolveLeadingDots026(el, locals)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			resolveLeadingDots026(en.AsMapEntry().Key(), locals)
			resolveLeadingDots026(en.AsMapEntry().Value(), locals)
		}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			resolveLeadingDots026(f.AsStructField().Value(), locals)
		}
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		resolveLeadingDots026(c.IterRange(), locals)
		resolveLeadingDots026(c.AccuInit(), locals)
		withAccu := append(slices.Clip(locals), c.AccuVar())
		inLoop := append(slices.Clip(withAccu), c.IterVar())
		if c.HasIterVar2() {
			inLoop = append(inLoop, c.IterVar2())
		}
		resolveLeadingDots026(c.LoopCondition(), inLoop)
		resolveLeadingDots026(c.LoopStep(), inLoop)
		resolveLeadingDots026(c.Result(), withAccu)
	}
}

// parseWithoutEscapes parses expr as cel-go v0.26.0's parser does in the server's
// environments (its macros, optional syntax, no escaped identifiers): nil when it parses.
func parseWithoutEscapes(env *cel.Env, expr string) *cel.Issues {
	p, err := parser.NewParser(parser.Macros(env.Macros()...), parser.EnableOptionalSyntax(true), parser.EnableIdentEscapeSyntax(false))
	if err != nil {
		return nil
	}
	_, errs := p.Parse(common.NewTextSource(expr))
	if len(errs.GetErrors()) == 0 {
		return nil
	}
	return cel.NewIssues(errs)
}

// celGo023: the server links cel-go v0.23 or newer (1.33 on); 1.32 links v0.22.0, whose
// lexer knows no backtick at all.
func celGo023(server int) bool { return server >= 33 }

// parseWithoutBackticks022 parses expr as cel-go v0.22.0's parser does (Kubernetes 1.32):
// its lexer has no token for a backtick, so each one outside a string literal or a comment
// is reported as "Syntax error: token recognition error at: '`'" and skipped, and the
// tokens left are parsed as they are (their errors reported too, in the order of their
// places). Nil when expr has no such backtick.
func parseWithoutBackticks022(env *cel.Env, expr string) *cel.Issues {
	at := backticksOutsideLiterals(expr)
	if len(at) == 0 {
		return nil
	}
	src := common.NewTextSource(expr)
	errs := common.NewErrors(src)
	runes := []rune(expr)
	for _, i := range at {
		runes[i] = ' '
		if loc, ok := src.OffsetLocation(int32(i)); ok {
			errs.ReportErrorAtID(0, loc, "Syntax error: token recognition error at: '`'")
		}
	}
	p, err := parser.NewParser(parser.Macros(env.Macros()...), parser.EnableOptionalSyntax(true), parser.EnableIdentEscapeSyntax(false))
	if err == nil {
		_, perrs := p.Parse(common.NewTextSource(string(runes)))
		for _, e := range perrs.GetErrors() {
			errs.ReportErrorAtID(e.ExprID, e.Location, "%s", e.Message)
		}
	}
	return cel.NewIssues(errs)
}

// backticksOutsideLiterals are the rune offsets of the backticks of a CEL expression that
// are neither in a string or bytes literal (quoted by ' or ", or three of either; raw or
// not) nor in a // comment.
func backticksOutsideLiterals(expr string) []int {
	r := []rune(expr)
	var at []int
	for i := 0; i < len(r); i++ {
		switch c := r[i]; {
		case c == '`':
			at = append(at, i)
		case c == '/' && i+1 < len(r) && r[i+1] == '/':
			for i < len(r) && r[i] != '\n' {
				i++
			}
		case c == '\'' || c == '"':
			raw := i > 0 && (r[i-1] == 'r' || r[i-1] == 'R') ||
				i > 1 && (r[i-2] == 'r' || r[i-2] == 'R') && (r[i-1] == 'b' || r[i-1] == 'B')
			quote := []rune{c}
			if i+2 < len(r) && r[i+1] == c && r[i+2] == c {
				quote = []rune{c, c, c}
			}
			i += len(quote)
			for i < len(r) {
				if !raw && r[i] == '\\' {
					i += 2
					continue
				}
				if i+len(quote) <= len(r) && slices.Equal(r[i:i+len(quote)], quote) {
					i += len(quote) - 1
					break
				}
				if len(quote) == 1 && (r[i] == '\n' || r[i] == '\r') {
					break
				}
				i++
			}
		}
	}
	return at
}

// durationOfInt026 is the standard library's duration(int), which v0.29.2 removed: the
// rule type-checks, and the conversion fails when it runs ("type conversion error from
// 'int' to 'google.protobuf.Duration'"; a literal argument fails the duration-literal
// validator instead: "invalid duration argument").
func durationOfInt026() cel.EnvOption {
	return cel.Function(overloads.TypeConvertDuration, cel.Overload("int64_to_duration", []*cel.Type{cel.IntType}, cel.DurationType,
		cel.UnaryBinding(func(v ref.Val) ref.Val { return v.ConvertToType(types.DurationType) })))
}

// stringsIndexOf026 are ext.Strings' indexOf and lastIndexOf with an offset as v0.26.0 has
// them: an empty needle is found at the offset itself, whatever the offset (v0.29.2 clamps
// it to the string's end, and refuses a negative one).
func stringsIndexOf026() []cel.EnvOption {
	offset := func(f func(str, substr string, offset int64) (int64, error)) cel.OverloadOpt {
		return cel.FunctionBinding(func(args ...ref.Val) ref.Val {
			i, err := f(string(args[0].(types.String)), string(args[1].(types.String)), int64(args[2].(types.Int)))
			if err != nil {
				return types.NewErrFromString(err.Error())
			}
			return types.Int(i)
		})
	}
	return []cel.EnvOption{
		cel.Function("indexOf", cel.MemberOverload("string_index_of_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType}, cel.IntType,
			offset(indexOfOffset026))),
		cel.Function("lastIndexOf", cel.MemberOverload("string_last_index_of_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType}, cel.IntType,
			offset(lastIndexOfOffset026))),
	}
}

// indexOfOffset026 is v0.26.0's ext/strings.go indexOfOffset.
func indexOfOffset026(str, substr string, offset int64) (int64, error) {
	if substr == "" {
		return offset, nil
	}
	off := int(offset)
	runes := []rune(str)
	subrunes := []rune(substr)
	if off < 0 {
		return -1, fmt.Errorf("index out of range: %d", off)
	}
	if off >= len(runes) {
		return -1, nil
	}
	for i := off; i < len(runes)-(len(subrunes)-1); i++ {
		found := true
		for j := 0; j < len(subrunes); j++ {
			if runes[i+j] != subrunes[j] {
				found = false
				break
			}
		}
		if found {
			return int64(i), nil
		}
	}
	return -1, nil
}

// lastIndexOfOffset026 is v0.26.0's ext/strings.go lastIndexOfOffset.
func lastIndexOfOffset026(str, substr string, offset int64) (int64, error) {
	if substr == "" {
		return offset, nil
	}
	off := int(offset)
	runes := []rune(str)
	subrunes := []rune(substr)
	if off < 0 {
		return -1, fmt.Errorf("index out of range: %d", off)
	}
	if off >= len(runes) {
		return -1, nil
	}
	if off > len(runes)-len(subrunes) {
		off = len(runes) - len(subrunes)
	}
	for i := off; i >= 0; i-- {
		found := true
		for j := 0; j < len(subrunes); j++ {
			if runes[i+j] != subrunes[j] {
				found = false
				break
			}
		}
		if found {
			return int64(i), nil
		}
	}
	return -1, nil
}

// listsRange026 is ext.Lists' lists.range as v0.26.0 has it: no limit (v0.29.2 refuses a
// negative size and one above 1,000,000); a negative size is the empty list.
func listsRange026() cel.EnvOption {
	return cel.Function("lists.range", cel.Overload("lists_range", []*cel.Type{cel.IntType}, cel.ListType(cel.IntType),
		cel.UnaryBinding(func(n ref.Val) ref.Val {
			var out []ref.Val
			for i := types.Int(0); i < n.(types.Int); i++ {
				out = append(out, i)
			}
			return types.DefaultTypeAdapter.NativeToValue(out)
		})))
}

// callCost026 is what v0.26.0 charges, where v0.29.2 charges otherwise, for a call it
// prices itself (nil: the same in both): startsWith and endsWith cost the receiver's length
// (v0.29.2: the prefix's), and the global matches(string, regex) is a constant-time call
// (v0.29.2 prices it as the receiver form).
func callCost026(overloadID string, args []ref.Val) *uint64 {
	switch overloadID {
	case overloads.StartsWithString, overloads.EndsWithString:
		if len(args) == 2 {
			c := uint64(math.Ceil(float64(actualSize(args[0])) * common.StringTraversalCostFactor))
			return &c
		}
	case overloads.Matches:
		return one()
	}
	return nil
}

// estimateCallCost026 is v0.26.0's estimate where v0.29.2's differs: the global
// matches(string, regex) is estimated as a constant-time call.
func estimateCallCost026(overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if overloadID == overloads.Matches && target == nil && len(args) == 2 {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
	}
	return nil
}

// optionalOr026 is the optional library's or and orValue as v0.26.0 evaluates them: a left
// side that is not an optional (a value reached through dyn) is the answer as it is, where
// v0.29.2 answers no such overload. Its decorator must run before the optional library's
// (which turns the same calls into its own nodes): the library is given before
// cel.OptionalTypes.
type optionalOr026 struct{}

func (optionalOr026) CompileOptions() []cel.EnvOption { return nil }

func (optionalOr026) ProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{cel.CustomDecoratorV2(decorateOptionalOr026)}
}

func decorateOptionalOr026(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok || len(call.Args()) != 2 {
		return i, nil
	}
	var value bool
	switch {
	case call.Function() == "or" && (call.OverloadID() == "" || call.OverloadID() == "optional_or_optional"):
	case call.Function() == "orValue" && (call.OverloadID() == "" || call.OverloadID() == "optional_orValue_value"):
		value = true
	default:
		return i, nil
	}
	return &evalOptionalOr026{id: call.ID(), lhs: call.Args()[0], rhs: call.Args()[1], value: value}, nil
}

// evalOptionalOr026 is v0.26.0's evalOptionalOr (value: evalOptionalOrValue).
type evalOptionalOr026 struct {
	id       int64
	lhs, rhs interpreter.InterpretableV2
	value    bool
}

func (o *evalOptionalOr026) ID() int64 { return o.id }

func (o *evalOptionalOr026) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	lhs := o.lhs.Exec(frame)
	opt, ok := lhs.(*types.Optional)
	if !ok {
		return lhs
	}
	if opt.HasValue() {
		if o.value {
			return opt.GetValue()
		}
		return opt
	}
	return o.rhs.Exec(frame)
}

func (o *evalOptionalOr026) Eval(ctx interpreter.Activation) ref.Val {
	return o.Exec(interpreter.AsFrame(ctx))
}
