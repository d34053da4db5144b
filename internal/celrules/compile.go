package celrules

import (
	"errors"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/ssa-diff/ssa-diff/internal/cellib"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// The variables of a rule.
const (
	SelfVar    = "self"
	OldSelfVar = "oldSelf"
)

// Compiled is one rule compiled for a schema node.
type Compiled struct {
	// Program runs the rule; nil when Err is set (or the rule is empty).
	Program cel.Program
	// Err is why the rule did not compile.
	Err *apiservercel.Error
	// UsesOldSelf: a transition rule.
	UsesOldSelf bool
	// MaxCost is the rule's estimated cost for one value; MaxCardinality how many values of
	// the node a request can hold.
	MaxCost, MaxCardinality uint64
	// Message runs the messageExpression; nil when there is none or MessageErr is set.
	Message cel.Program
	// MessageErr is why the messageExpression did not compile.
	MessageErr *apiservercel.Error
	// MessageMaxCost is the messageExpression's estimated cost.
	MessageMaxCost uint64
	// FieldPath is the rule's fieldPath as a field path ("spec.replicas"), "" when it has
	// none or it does not name a field of the schema.
	FieldPath string
}

// EnvFor says which environment an expression compiles in.
type EnvFor func(expression string) cellib.Kind

// StoredEnv compiles every expression as a stored one (how custom resources are validated).
func StoredEnv(string) cellib.Kind { return cellib.Stored }

// Compile compiles rules written on a schema node whose values have CEL type t, as a
// kube-apiserver of minor server compiles them; s is the node (for fieldPath). The error is
// about the node (no CEL type); a rule that does not compile has its own error.
func Compile(server kube.Minor, s *crdschema.Schema, rules []crdschema.Rule, t *apiservercel.DeclType, envFor EnvFor) ([]Compiled, error) {
	return CompileWith(server, s, rules, t, envFor, envFor)
}

// CompileWith is Compile with the environments of rules and of message expressions chosen
// apart (as the server does when it validates a CRD: an expression the stored CRD already
// has compiles as stored, a new one as new).
func CompileWith(server kube.Minor, s *crdschema.Schema, rules []crdschema.Rule, t *apiservercel.DeclType, ruleEnv, messageEnv EnvFor) ([]Compiled, error) {
	if len(rules) == 0 {
		return nil, nil
	}
	if t == nil {
		return nil, errors.New("failed to convert to declType for CEL validation rules")
	}
	envs := &ruleEnvs{server: server, t: t.MaybeAssignTypeName("selfType0")}
	estimator := &cellib.Estimator{Sizes: &sizes{root: t}, Server: server}
	cardinality := uint64(cellib.MaxRequestSizeBytes / (t.MinSerializedSize + 1))
	out := make([]Compiled, len(rules))
	for i, r := range rules {
		optional := r.OptionalOldSelf != nil && *r.OptionalOldSelf
		out[i] = compileRule(server, s, r, func(expr string) (*cel.Env, error) { return envs.get(ruleEnv(expr), optional) },
			func(expr string) (*cel.Env, error) { return envs.get(messageEnv(expr), optional) }, estimator, cardinality)
	}
	return out, nil
}

// ruleEnvs are the environments of one node's rules: by kind, with oldSelf plain or
// optional; built when first needed.
type ruleEnvs struct {
	server kube.Minor
	t      *apiservercel.DeclType
	envs   [2][2]*cel.Env
	errs   [2][2]error
	done   [2][2]bool
}

func (r *ruleEnvs) get(k cellib.Kind, optional bool) (*cel.Env, error) {
	o := 0
	if optional {
		o = 1
	}
	if !r.done[k][o] {
		r.done[k][o] = true
		r.envs[k][o], r.errs[k][o] = ruleEnv(r.server, k, r.t, optional)
	}
	return r.envs[k][o], r.errs[k][o]
}

func ruleEnv(server kube.Minor, k cellib.Kind, t *apiservercel.DeclType, optional bool) (*cel.Env, error) {
	base, err := cellib.Env(server, k)
	if err != nil {
		return nil, err
	}
	oldSelf := t.CelType()
	if optional {
		oldSelf = types.NewOptionalType(oldSelf)
	}
	provider := apiservercel.NewDeclTypeProvider(t)
	provider.SetRecognizeKeywordAsFieldName(true)
	providerOpts, err := provider.EnvOptions(base.CELTypeProvider())
	if err != nil {
		return nil, err
	}
	opts := append([]cel.EnvOption{cel.Variable(SelfVar, t.CelType()), cel.Variable(OldSelfVar, oldSelf)}, providerOpts...)
	return base.Extend(cellib.Bundle(opts, nil))
}

func invalid(detail string) *apiservercel.Error {
	return &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: detail}
}

func internal(detail string) *apiservercel.Error {
	return &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: detail}
}

func compileRule(server kube.Minor, s *crdschema.Schema, r crdschema.Rule, envOf, messageEnvOf func(string) (*cel.Env, error), estimator *cellib.Estimator, cardinality uint64) (c Compiled) {
	if strings.TrimSpace(r.Rule) == "" {
		return c
	}
	env, err := envOf(r.Rule)
	if err != nil {
		c.Err = internal("unexpected compilation error: " + err.Error())
		return c
	}
	ast, issues := cellib.Compile(env, server, r.Rule)
	if issues != nil {
		c.Err = invalid("compilation failed: " + cellib.IssuesText(server, issues))
		return c
	}
	if ast.OutputType() != cel.BoolType {
		c.Err = invalid("cel expression must evaluate to a bool")
		return c
	}
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == OldSelfVar {
			c.UsesOldSelf = true
			break
		}
	}
	prog, err := env.Program(ast, cel.CostLimit(cellib.PerCallLimit), cel.CostTracking(estimator), cel.InterruptCheckFrequency(cellib.CheckFrequency))
	if err != nil {
		c.Err = invalid("program instantiation failed: " + err.Error())
		return c
	}
	est, err := cellib.EstimateCost(env, ast, estimator)
	if err != nil {
		c.Err = internal("cost estimation failed: " + err.Error())
		return c
	}
	c.MaxCost, c.MaxCardinality, c.Program = est.Max, cardinality, prog
	if r.MessageExpression != "" {
		menv, err := messageEnvOf(r.MessageExpression)
		if err != nil {
			c.MessageErr = internal("unexpected messageExpression compilation error: " + err.Error())
			return c
		}
		ast, issues := cellib.Compile(menv, server, r.MessageExpression)
		if issues != nil {
			c.MessageErr = invalid("messageExpression compilation failed: " + cellib.IssuesText(server, issues))
			return c
		}
		if ast.OutputType() != cel.StringType {
			c.MessageErr = invalid("messageExpression must evaluate to a string")
			return c
		}
		mprog, err := menv.Program(ast, cel.CostLimit(cellib.PerCallLimit), cel.CostTracking(estimator), cel.InterruptCheckFrequency(cellib.CheckFrequency))
		if err != nil {
			c.MessageErr = invalid("messageExpression instantiation failed: " + err.Error())
			return c
		}
		est, err := cellib.EstimateCost(menv, ast, estimator)
		if err != nil {
			c.MessageErr = internal("cost estimation failed for messageExpression: " + err.Error())
			return c
		}
		c.Message, c.MessageMaxCost = mprog, est.Max
	}
	if r.FieldPath != "" {
		if p, _, err := FieldPath(r.FieldPath, s); err == nil {
			c.FieldPath = p.String()
		}
	}
	return c
}

// sizes estimates the size of a value by its path from the rule's variable, from the bounds
// of the schema's CEL types.
type sizes struct{ root *apiservercel.DeclType }

func (z *sizes) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	path := n.Path()
	if len(path) == 0 {
		return nil
	}
	t := z.root
	for _, name := range path[1:] {
		switch name {
		case "@items", "@values":
			if t.ElemType == nil {
				return nil
			}
			t = t.ElemType
		case "@keys":
			if t.KeyType == nil {
				return nil
			}
			t = t.KeyType
		default:
			f, ok := t.Fields[name]
			if !ok || f.Type == nil {
				return nil
			}
			t = f.Type
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(t.MaxElements)}
}

func (z *sizes) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}
