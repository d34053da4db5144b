package cellib

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
	"github.com/ssa-diff/ssa-diff/kube"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// Server limits of CEL rules (k8s.io/apiserver/pkg/apis/cel), restated for the packages that
// use this one.
const (
	PerCallLimit                      = celconfig.PerCallLimit
	RuntimeCostBudget                 = celconfig.RuntimeCELCostBudget
	CheckFrequency                    = celconfig.CheckFrequency
	MaxRequestSizeBytes               = celconfig.MaxRequestSizeBytes
	MaxEvaluatedMessageExpressionSize = celconfig.MaxEvaluatedMessageExpressionSizeBytes
)

// Kind names one of the server's two environments.
type Kind int

const (
	// Stored is the environment of expressions already stored: every library.
	Stored Kind = iota
	// New is the environment of expressions a write adds: libraries of the compatibility
	// version (the server's minor - 1) only.
	New
)

// versioned is an environment option and the Kubernetes minor versions between which the
// server enables it (removed 0: never removed): the server's own table
// (k8s.io/apiserver/pkg/cel/environment/base.go), one table for every minor, as each
// release's table is the previous one with options added or marked removed.
type versioned struct {
	introduced, removed int
	env                 []cel.EnvOption
	prog                []cel.ProgramOption
}

// CompatibilityMinor is the minor a kube-apiserver of minor server stays compatible with, the
// version new expressions are compiled at: one below its own (component-base
// DefaultCompatibilityVersion: the binary version minus one).
func CompatibilityMinor(server kube.Minor) int { return int(server) - 1 }

// celGo026 reports whether the server links cel-go v0.26.0 (1.34 to 1.36; 1.37 links
// v0.29.2, as ssa-diff does): where the two behave apart, the older behaviour is restated
// for those servers (celgo026.go).
func celGo026(server int) bool { return server < 37 }

func baseOptions(server int) []versioned {
	base := []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		cel.Lib(urlsLib{}),
		cel.Lib(regexLib{}),
		cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
	}
	strings2 := []cel.EnvOption{ext.Strings(ext.StringsVersion(2))}
	lists3 := []cel.EnvOption{ext.Lists(ext.ListsVersion(3))}
	if celGo026(server) {
		base = append(base, durationOfInt026(), cel.Lib(optionalOr026{}))
		strings2 = append(strings2, stringsIndexOf026()...)
		lists3 = append(lists3, listsRange026())
	}
	return []versioned{
		{introduced: 0, env: base, prog: []cel.ProgramOption{
			cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
			cel.CostLimit(PerCallLimit),
			cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		}},
		{introduced: 0, removed: 37, env: []cel.EnvOption{cel.Lib(listsLib{version: 0})}},
		{introduced: 27, env: []cel.EnvOption{cel.Lib(authzLib{})}},
		{introduced: 28, env: []cel.EnvOption{
			cel.CrossTypeNumericComparisons(true),
			cel.OptionalTypes(),
			// 1.37 made add and sub copy the receiver deeply: before, a quantity held
			// as a decimal was changed by adding to it.
			cel.Lib(quantityLib{sharesDecimal: server < 37}),
		}},
		{introduced: 29, env: []cel.EnvOption{cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		)}},
		{introduced: 0, removed: 29, env: []cel.EnvOption{ext.Strings(ext.StringsVersion(0))}},
		{introduced: 29, env: strings2},
		{introduced: 29, env: []cel.EnvOption{ext.Sets()}},
		{introduced: 30, env: []cel.EnvOption{cel.Lib(ipLib{}), cel.Lib(cidrLib{})}},
		{introduced: 31, env: []cel.EnvOption{cel.Lib(formatLib{})}},
		{introduced: 31, env: []cel.EnvOption{cel.Lib(authzSelectorsLib{})}},
		{introduced: 32, env: []cel.EnvOption{ext.TwoVarComprehensions()}},
		{introduced: 33, env: []cel.EnvOption{cel.Lib(semverLib{version: 1})}},
		{introduced: 34, env: lists3},
		{introduced: 37, env: []cel.EnvOption{cel.Lib(listsLib{version: 1})}},
		{introduced: 0, prog: []cel.ProgramOption{cel.CostTracking(&Estimator{Server: kube.Minor(server)})}},
	}
}

// enabled reports whether an option is in the environment of kind k of a server of the
// given minor: stored expressions get every option of the server's table it has not
// removed; new ones those of its compatibility version.
func (o versioned) enabled(server int, k Kind) bool {
	at := server
	if k == New {
		at = CompatibilityMinor(kube.Minor(server))
	}
	return o.introduced <= at && (o.removed == 0 || at < o.removed)
}

// envs are the two environments of each supported minor, each built on its first use: a
// run that validates custom resources against rules already stored builds the Stored one
// alone (each costs about 8M instructions, most of a small run's).
var envs = sync.OnceValue(func() map[int][2]func() (*cel.Env, error) {
	out := map[int][2]func() (*cel.Env, error){}
	for _, v := range kube.Minors() {
		minor := int(v)
		var kinds [2]func() (*cel.Env, error)
		for _, k := range []Kind{Stored, New} {
			kinds[k] = sync.OnceValues(func() (*cel.Env, error) { return buildEnv(minor, k) })
		}
		out[minor] = kinds
	}
	return out
})

func buildEnv(server int, k Kind) (*cel.Env, error) {
	base, err := cel.NewEnv()
	if err != nil {
		return nil, err
	}
	var envOpts []cel.EnvOption
	var progOpts []cel.ProgramOption
	for _, o := range baseOptions(server) {
		if o.enabled(server, k) {
			envOpts = append(envOpts, o.env...)
			progOpts = append(progOpts, o.prog...)
		}
	}
	e, err := base.Extend(cel.Lib(&bundle{env: envOpts, prog: progOpts}))
	if err != nil {
		return nil, fmt.Errorf("building the CEL environment: %w", err)
	}
	return e, nil
}

// Env returns the base environment of kind k of a kube-apiserver of minor server (built
// once per minor and kind, on first use).
func Env(server kube.Minor, k Kind) (*cel.Env, error) {
	build, ok := envs()[int(server)]
	if !ok {
		return nil, fmt.Errorf("no CEL environment for Kubernetes %s", server)
	}
	return build[k]()
}

// bundle is a set of options applied as one library, as the server groups each extension.
type bundle struct {
	env  []cel.EnvOption
	prog []cel.ProgramOption
}

// Bundle groups options into one library.
func Bundle(env []cel.EnvOption, prog []cel.ProgramOption) cel.EnvOption {
	return cel.Lib(&bundle{env: env, prog: prog})
}

func (b *bundle) CompileOptions() []cel.EnvOption     { return b.env }
func (b *bundle) ProgramOptions() []cel.ProgramOption { return b.prog }

// functions turns a table of declarations into environment options.
func functions(decls map[string][]cel.FunctionOpt) []cel.EnvOption {
	out := make([]cel.EnvOption, 0, len(decls))
	for name, overloads := range decls {
		out = append(out, cel.Function(name, overloads...))
	}
	return out
}
