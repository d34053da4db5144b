package admissionregistration

import (
	"fmt"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	api "github.com/ssa-diff/ssa-diff/internal/api/admissionregistration"
	"github.com/ssa-diff/ssa-diff/internal/cellib"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/kube"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// The server compiles every CEL expression of an admission configuration when it is
// written (it does not run them): in cellib's base environment of the expression's kind —
// "new" for an expression the write adds, "stored" for one the stored object already has —
// with the admission variables declared (object, oldObject, request, namespaceObject, and
// as the expression's place allows params, authorizer, the policy's variables and the
// mutation types), and checks the type it evaluates to.

// decls are the variables an expression may use besides object, oldObject, request and
// namespaceObject.
type decls struct {
	params, authorizer, patchTypes bool
}

// resultTypes is what an expression must evaluate to; nil: anything.
type resultTypes []*cel.Type

var (
	boolResult      = resultTypes{cel.BoolType}
	stringResult    = resultTypes{cel.StringType}
	annotationValue = resultTypes{cel.StringType, cel.NullType}
	jsonPatchType   = types.NewObjectType("JSONPatch")
	jsonPatchResult = resultTypes{cel.ListType(jsonPatchType)}
	applyResult     = resultTypes{types.NewObjectType("Object")}
)

// celCompiler compiles the expressions of one object. A policy with variables compiles
// them first, in order, each then visible to the later expressions as variables.<name>
// with the type it evaluates to. A nil celCompiler compiles expressions that see no
// variables.
type celCompiler struct {
	// server is the minor whose CEL environments compile the expressions.
	server kube.Minor
	// vars is the type of the variables object; nil when the policy composes none.
	vars *apiservercel.DeclType
	envs map[envKey]envResult
}

type envKey struct {
	kind cellib.Kind
	decls
}

type envResult struct {
	env *cel.Env
	err error
}

func newCompiler(server kube.Minor, composition bool) *celCompiler {
	c := &celCompiler{server: server, envs: map[envKey]envResult{}}
	if composition {
		c.vars = apiservercel.NewObjectType("kubernetes.variables", map[string]*apiservercel.DeclField{})
	}
	return c
}

// compile compiles an expression and checks its type; nil when it is well-formed.
func (c *celCompiler) compile(expr string, d decls, kind cellib.Kind, want resultTypes) (*cel.Type, *apiservercel.Error) {
	env, err := c.env(envKey{kind, d})
	if err != nil {
		return nil, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: fmt.Sprintf("unexpected error loading CEL environment: %v", err)}
	}
	ast, issues := env.Compile(expr)
	if issues != nil {
		return nil, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "compilation failed: " + cellib.IssuesText(c.server, issues)}
	}
	out := ast.OutputType()
	if want == nil {
		return out, nil
	}
	for _, t := range want {
		if out.IsExactType(t) {
			return out, nil
		}
	}
	if len(want) == 1 {
		return out, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: fmt.Sprintf("must evaluate to %v but got %v", want[0].String(), out.String())}
	}
	return out, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: fmt.Sprintf("must evaluate to one of %v but got %v", []*cel.Type(want), out.String())}
}

// addVariable compiles a policy variable and makes it visible to later expressions (with
// the dyn type when it does not compile).
func (c *celCompiler) addVariable(name, expr string, d decls, kind cellib.Kind) *apiservercel.Error {
	out, err := c.compile(expr, d, kind, nil)
	c.vars.Fields[name] = apiservercel.NewDeclField(name, declTypeOf(out), true, nil, nil)
	return err
}

func (c *celCompiler) env(k envKey) (*cel.Env, error) {
	if c.vars == nil {
		return sharedEnv(c.server, k)
	}
	if r, ok := c.envs[k]; ok {
		return r.env, r.err
	}
	e, err := buildEnv(c.server, k, c.vars)
	c.envs[k] = envResult{e, err}
	return e, err
}

// sharedEnvs are the environments of expressions without variables of each supported
// minor, built once each; the table itself is made on first use.
var sharedEnvs = sync.OnceValue(func() map[int]*[2][2][2][2]func() (*cel.Env, error) {
	out := map[int]*[2][2][2][2]func() (*cel.Env, error){}
	for _, v := range kube.Minors() {
		envs := new([2][2][2][2]func() (*cel.Env, error))
		for _, k := range []cellib.Kind{cellib.Stored, cellib.New} {
			for _, p := range []bool{false, true} {
				for _, a := range []bool{false, true} {
					for _, t := range []bool{false, true} {
						key := envKey{k, decls{p, a, t}}
						envs[k][b(p)][b(a)][b(t)] = sync.OnceValues(func() (*cel.Env, error) { return buildEnv(v, key, nil) })
					}
				}
			}
		}
		out[int(v)] = envs
	}
	return out
})

func b(v bool) int {
	if v {
		return 1
	}
	return 0
}

func sharedEnv(server kube.Minor, k envKey) (*cel.Env, error) {
	envs, ok := sharedEnvs()[int(server)]
	if !ok {
		return nil, fmt.Errorf("no CEL environment of admission for Kubernetes %s", server)
	}
	return envs[k.kind][b(k.params)][b(k.authorizer)][b(k.patchTypes)]()
}

// buildEnv is the environment of an expression: the base environment of its kind, the
// admission variables and their types.
func buildEnv(server kube.Minor, k envKey, vars *apiservercel.DeclType) (*cel.Env, error) {
	base, err := cellib.Env(server, k.kind)
	if err != nil {
		return nil, err
	}
	ns, req := admissionTypes()
	var opts []cel.EnvOption
	declTypes := []*apiservercel.DeclType{ns, req}
	if vars != nil {
		opts = append(opts, cel.Variable("variables", vars.CelType()))
		declTypes = append(declTypes, vars)
	}
	opts = append(opts,
		cel.Variable("object", cel.DynType),
		cel.Variable("oldObject", cel.DynType),
		cel.Variable("namespaceObject", ns.CelType()),
		cel.Variable("request", req.CelType()))
	if k.params {
		opts = append(opts, cel.Variable("params", cel.DynType))
	}
	if k.authorizer {
		opts = append(opts,
			cel.Variable("authorizer", cellib.AuthorizerType),
			cel.Variable("authorizer.requestResource", cellib.ResourceCheckType))
	}
	provider := apiservercel.NewDeclTypeProvider(declTypes...)
	provider.SetRecognizeKeywordAsFieldName(true)
	providerOpts, err := provider.EnvOptions(base.CELTypeProvider())
	if err != nil {
		return nil, err
	}
	env, err := base.Extend(cellib.Bundle(append(opts, providerOpts...), nil))
	if err != nil || !k.patchTypes {
		return env, err
	}
	return env.Extend(cellib.Bundle([]cel.EnvOption{patchTypesProvider, cel.Function("jsonpatch.escapeKey",
		cel.Overload("string_jsonpatch_escapeKey_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(escapeJSONPatchKey)))}, nil))
}

// admissionTypes are the types of request and namespaceObject (the fields the server
// exposes of an AdmissionRequest and of a Namespace).
var admissionTypes = sync.OnceValues(func() (ns, req *apiservercel.DeclType) {
	f := func(name string, t *apiservercel.DeclType, required bool) *apiservercel.DeclField {
		return apiservercel.NewDeclField(name, t, required, nil, nil)
	}
	obj := func(name string, fields ...*apiservercel.DeclField) *apiservercel.DeclType {
		m := make(map[string]*apiservercel.DeclField, len(fields))
		for _, x := range fields {
			m[x.Name] = x
		}
		return apiservercel.NewObjectType(name, m)
	}
	s, strings := apiservercel.StringType, apiservercel.NewListType(apiservercel.StringType, -1)
	gvk := obj("kubernetes.GroupVersionKind", f("group", s, true), f("version", s, true), f("kind", s, true))
	gvr := obj("kubernetes.GroupVersionResource", f("group", s, true), f("version", s, true), f("resource", s, true))
	user := obj("kubernetes.UserInfo", f("username", s, false), f("uid", s, false), f("groups", strings, false),
		f("extra", apiservercel.NewMapType(s, strings, -1), false))
	req = obj("kubernetes.AdmissionRequest", f("kind", gvk, true), f("resource", gvr, true), f("subResource", s, false),
		f("requestKind", gvk, true), f("requestResource", gvr, true), f("requestSubResource", s, false),
		f("name", s, true), f("namespace", s, false), f("operation", s, true), f("userInfo", user, true),
		f("dryRun", apiservercel.BoolType, false), f("options", apiservercel.DynType, false))

	ts := apiservercel.TimestampType
	spec := obj("kubernetes.NamespaceSpec", f("finalizers", strings, true))
	cond := obj("kubernetes.NamespaceCondition", f("status", s, true), f("type", s, true), f("lastTransitionTime", ts, true),
		f("message", s, true), f("reason", s, true))
	status := obj("kubernetes.NamespaceStatus", f("conditions", apiservercel.NewListType(cond, -1), true), f("phase", s, true))
	labels := apiservercel.NewMapType(s, s, -1)
	meta := obj("kubernetes.NamespaceMetadata", f("name", s, true), f("generateName", s, true), f("namespace", s, true),
		f("labels", labels, true), f("annotations", labels, true), f("UID", s, true), f("creationTimestamp", ts, true),
		f("deletionGracePeriodSeconds", apiservercel.IntType, true), f("deletionTimestamp", ts, true),
		f("generation", apiservercel.IntType, true), f("resourceVersion", s, true), f("finalizers", strings, true))
	ns = obj("kubernetes.Namespace", f("metadata", meta, true), f("spec", spec, true), f("status", status, true))
	return ns, req
})

// declTypeOf is the type a variable is seen with: its CEL type, lists and maps by their
// parameters, objects as dyn.
func declTypeOf(t *cel.Type) *apiservercel.DeclType {
	if t == nil {
		return apiservercel.DynType
	}
	switch t {
	case cel.AnyType:
		return apiservercel.AnyType
	case cel.BoolType:
		return apiservercel.BoolType
	case cel.BytesType:
		return apiservercel.BytesType
	case cel.DoubleType:
		return apiservercel.DoubleType
	case cel.DurationType:
		return apiservercel.DurationType
	case cel.IntType:
		return apiservercel.IntType
	case cel.NullType:
		return apiservercel.NullType
	case cel.StringType:
		return apiservercel.StringType
	case cel.TimestampType:
		return apiservercel.TimestampType
	case cel.UintType:
		return apiservercel.UintType
	}
	if t.HasTrait(traits.ContainerType) && t.HasTrait(traits.IndexerType) {
		switch p := t.Parameters(); len(p) {
		case 1:
			return apiservercel.NewListType(declTypeOf(p[0]), -1)
		case 2:
			return apiservercel.NewMapType(declTypeOf(p[0]), declTypeOf(p[1]), -1)
		}
	}
	return apiservercel.DynType
}

// patchTypesProvider resolves the types a mutation builds: JSONPatch, and Object with any
// Object.<field>… below it (fields of any name, dyn).
func patchTypesProvider(e *cel.Env) (*cel.Env, error) {
	return cel.CustomTypeProvider(&patchTypes{under: e.CELTypeProvider()})(e)
}

type patchTypes struct{ under types.Provider }

func isObjectTypeName(name string) bool {
	return name == "Object" || strings.HasPrefix(name, "Object.")
}

func (p *patchTypes) EnumValue(name string) ref.Val         { return p.under.EnumValue(name) }
func (p *patchTypes) FindIdent(name string) (ref.Val, bool) { return p.under.FindIdent(name) }

func (p *patchTypes) FindStructType(name string) (*types.Type, bool) {
	switch {
	case name == "JSONPatch":
		return types.NewTypeTypeWithParam(jsonPatchType), true
	case isObjectTypeName(name):
		return types.NewTypeTypeWithParam(types.NewObjectType(name)), true
	}
	return p.under.FindStructType(name)
}

func (p *patchTypes) FindStructFieldNames(name string) ([]string, bool) {
	switch {
	case name == "JSONPatch":
		return []string{"op", "from", "path", "value"}, true
	case isObjectTypeName(name):
		return nil, true
	}
	return p.under.FindStructFieldNames(name)
}

func (p *patchTypes) FindStructFieldType(name, fieldName string) (*types.FieldType, bool) {
	switch {
	case name == "JSONPatch":
		var t *types.Type
		switch fieldName {
		case "op", "from", "path":
			t = cel.StringType
		case "value":
			t = types.DynType
		}
		return &types.FieldType{Type: t}, true
	case isObjectTypeName(name):
		return &types.FieldType{Type: types.DynType}, true
	}
	return p.under.FindStructFieldType(name, fieldName)
}

// NewValue is never reached: expressions are compiled, not run.
func (p *patchTypes) NewValue(name string, fields map[string]ref.Val) ref.Val {
	if name == "JSONPatch" || isObjectTypeName(name) {
		return types.NewErr("%s values are not built when validating", name)
	}
	return p.under.NewValue(name, fields)
}

var jsonPatchKeyEscaper = strings.NewReplacer("/", "~1", "~", "~0")

func escapeJSONPatchKey(v ref.Val) ref.Val {
	s, ok := v.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	return types.String(jsonPatchKeyEscaper.Replace(s))
}

// celError is the field error of an expression that does not compile: the expression is
// the value printed.
func celError(p *field.Path, expr string, err *apiservercel.Error) *field.Error {
	switch err.Type {
	case apiservercel.ErrorTypeRequired:
		return field.Required(p, err.Detail)
	case apiservercel.ErrorTypeInvalid:
		return field.Invalid(p, expr, err.Detail)
	}
	return field.InternalError(p, err)
}

// storedExpressions are the expressions the stored object already has, by place: they
// compile in the stored environment.
type storedExpressions struct {
	matchConditions, validations, messages, auditValues, applyConfigurations, jsonPatches map[string]bool
}

func newStoredExpressions() storedExpressions {
	return storedExpressions{map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}}
}

// envOf is the environment kind of an expression found (or not) among the stored ones.
func envOf(stored map[string]bool, expr string) cellib.Kind {
	if stored[expr] {
		return cellib.Stored
	}
	return cellib.New
}

// validateMatchConditions checks match conditions: at most 64, names unique qualified
// names, expressions boolean.
func validateMatchConditions(conds []api.MatchCondition, opts options, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(conds) > 64 {
		errs = append(errs, field.TooMany(p, len(conds), 64))
	}
	names := map[string]bool{}
	for i := range conds {
		mc := &conds[i]
		ip := p.Index(i)
		if expr := strings.TrimSpace(mc.Expression); expr == "" {
			errs = append(errs, field.Required(ip.Child("expression"), ""))
		} else {
			d := decls{params: opts.paramsInMatchConditions, authorizer: true}
			// Match conditions never see a policy's variables.
			noVariables := newCompiler(opts.server, false)
			if _, err := noVariables.compile(expr, d, envOf(opts.stored.matchConditions, expr), boolResult); err != nil {
				errs = append(errs, celError(ip.Child("expression"), expr, err))
			}
		}
		if mc.Name == "" {
			errs = append(errs, field.Required(ip.Child("name"), ""))
		} else {
			errs = append(errs, core.ValidateQualifiedName(mc.Name, ip.Child("name"))...)
		}
		if mc.Name != "" {
			if names[mc.Name] {
				errs = append(errs, field.Duplicate(ip.Child("name"), mc.Name))
			}
			names[mc.Name] = true
		}
	}
	return errs
}
