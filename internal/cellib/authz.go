package cellib

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// The authorizer library is in the server's base environment, but a CRD rule has no
// authorizer variable: its functions can be named (they decide how a rule type-checks and
// what the checker says of it) but never called on a value. They are declared with the
// server's types and signatures; their bindings are never reached.

var (
	authorizerT    = cel.ObjectType("kubernetes.authorization.Authorizer")
	pathCheckT     = cel.ObjectType("kubernetes.authorization.PathCheck")
	groupCheckT    = cel.ObjectType("kubernetes.authorization.GroupCheck")
	resourceCheckT = cel.ObjectType("kubernetes.authorization.ResourceCheck")
	decisionT      = cel.ObjectType("kubernetes.authorization.Decision")
)

// AuthorizerType and ResourceCheckType are the types of the authorizer and
// authorizer.requestResource variables of admission expressions (webhook match conditions,
// admission policies), which are compiled in this package's environments too.
var (
	AuthorizerType    = authorizerT
	ResourceCheckType = resourceCheckT
)

func unreachable(args ...ref.Val) ref.Val { return types.NoSuchOverloadErr() }

func member(id string, args []*cel.Type, result *cel.Type) cel.FunctionOpt {
	return cel.MemberOverload(id, args, result, cel.FunctionBinding(unreachable))
}

type authzLib struct{}

func (authzLib) LibraryName() string { return "kubernetes.authz" }

func (authzLib) CompileOptions() []cel.EnvOption {
	s := cel.StringType
	return functions(map[string][]cel.FunctionOpt{
		"path":           {member("authorizer_path", []*cel.Type{authorizerT, s}, pathCheckT)},
		"group":          {member("authorizer_group", []*cel.Type{authorizerT, s}, groupCheckT)},
		"serviceAccount": {member("authorizer_serviceaccount", []*cel.Type{authorizerT, s, s}, authorizerT)},
		"resource":       {member("groupcheck_resource", []*cel.Type{groupCheckT, s}, resourceCheckT)},
		"subresource":    {member("resourcecheck_subresource", []*cel.Type{resourceCheckT, s}, resourceCheckT)},
		"namespace":      {member("resourcecheck_namespace", []*cel.Type{resourceCheckT, s}, resourceCheckT)},
		"name":           {member("resourcecheck_name", []*cel.Type{resourceCheckT, s}, resourceCheckT)},
		"check": {
			member("pathcheck_check", []*cel.Type{pathCheckT, s}, decisionT),
			member("resourcecheck_check", []*cel.Type{resourceCheckT, s}, decisionT),
		},
		"errored": {member("decision_errored", []*cel.Type{decisionT}, cel.BoolType)},
		"error":   {member("decision_error", []*cel.Type{decisionT}, s)},
		"allowed": {member("decision_allowed", []*cel.Type{decisionT}, cel.BoolType)},
		"reason":  {member("decision_reason", []*cel.Type{decisionT}, s)},
	})
}

func (authzLib) ProgramOptions() []cel.ProgramOption { return nil }

type authzSelectorsLib struct{}

func (authzSelectorsLib) LibraryName() string { return "kubernetes.authzSelectors" }

func (authzSelectorsLib) CompileOptions() []cel.EnvOption {
	s := cel.StringType
	return functions(map[string][]cel.FunctionOpt{
		"fieldSelector": {member("authorizer_fieldselector", []*cel.Type{resourceCheckT, s}, resourceCheckT)},
		"labelSelector": {member("authorizer_labelselector", []*cel.Type{resourceCheckT, s}, resourceCheckT)},
	})
}

func (authzSelectorsLib) ProgramOptions() []cel.ProgramOption { return nil }
