package cellib

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
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
	// version (1.36) only.
	New
)

// versioned is an environment option and the Kubernetes minor versions between which the
// server enables it (removed 0: never removed).
type versioned struct {
	introduced, removed int
	env                 []cel.EnvOption
	prog                []cel.ProgramOption
}

// compatibilityMinor is the minor version a 1.37 server stays compatible with.
const compatibilityMinor = 36

func baseOptions() []versioned {
	return []versioned{
		{introduced: 0, env: []cel.EnvOption{
			cel.HomogeneousAggregateLiterals(),
			cel.EagerlyValidateDeclarations(true),
			cel.DefaultUTCTimeZone(true),
			cel.Lib(urlsLib{}),
			cel.Lib(regexLib{}),
			cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		}, prog: []cel.ProgramOption{
			cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
			cel.CostLimit(PerCallLimit),
			cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		}},
		{introduced: 0, removed: 37, env: []cel.EnvOption{cel.Lib(listsLib{version: 0})}},
		{introduced: 27, env: []cel.EnvOption{cel.Lib(authzLib{})}},
		{introduced: 28, env: []cel.EnvOption{
			cel.CrossTypeNumericComparisons(true),
			cel.OptionalTypes(),
			cel.Lib(quantityLib{}),
		}},
		{introduced: 29, env: []cel.EnvOption{cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		)}},
		{introduced: 0, removed: 29, env: []cel.EnvOption{ext.Strings(ext.StringsVersion(0))}},
		{introduced: 29, env: []cel.EnvOption{ext.Strings(ext.StringsVersion(2))}},
		{introduced: 29, env: []cel.EnvOption{ext.Sets()}},
		{introduced: 30, env: []cel.EnvOption{cel.Lib(ipLib{}), cel.Lib(cidrLib{})}},
		{introduced: 31, env: []cel.EnvOption{cel.Lib(formatLib{})}},
		{introduced: 31, env: []cel.EnvOption{cel.Lib(authzSelectorsLib{})}},
		{introduced: 32, env: []cel.EnvOption{ext.TwoVarComprehensions()}},
		{introduced: 33, env: []cel.EnvOption{cel.Lib(semverLib{version: 1})}},
		{introduced: 34, env: []cel.EnvOption{ext.Lists(ext.ListsVersion(3))}},
		{introduced: 37, env: []cel.EnvOption{cel.Lib(listsLib{version: 1})}},
		{introduced: 0, prog: []cel.ProgramOption{cel.CostTracking(&Estimator{})}},
	}
}

// enabled reports whether an option is in the environment of kind k.
func (o versioned) enabled(k Kind) bool {
	if k == Stored {
		return o.removed == 0
	}
	return o.introduced <= compatibilityMinor && (o.removed == 0 || compatibilityMinor < o.removed)
}

var envs = sync.OnceValues(func() ([2]*cel.Env, error) {
	var out [2]*cel.Env
	for _, k := range []Kind{Stored, New} {
		base, err := cel.NewEnv()
		if err != nil {
			return out, err
		}
		var envOpts []cel.EnvOption
		var progOpts []cel.ProgramOption
		for _, o := range baseOptions() {
			if o.enabled(k) {
				envOpts = append(envOpts, o.env...)
				progOpts = append(progOpts, o.prog...)
			}
		}
		e, err := base.Extend(cel.Lib(&bundle{env: envOpts, prog: progOpts}))
		if err != nil {
			return out, fmt.Errorf("building the CEL environment: %w", err)
		}
		out[k] = e
	}
	return out, nil
})

// Env returns the server's base environment of kind k (built once, on first use).
func Env(k Kind) (*cel.Env, error) {
	e, err := envs()
	if err != nil {
		return nil, err
	}
	return e[k], nil
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
