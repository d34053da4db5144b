package cellib

import (
	"errors"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// semverLib: semver(), isSemver() (version 1: with a normalize flag) and the parts and
// comparisons of versions.
type semverLib struct{ version int }

func (semverLib) LibraryName() string { return "kubernetes.Semver" }

var semverT = apiservercel.SemverType

func semverUnary(id string, f func(semver.Version) ref.Val) cel.FunctionOpt {
	return cel.MemberOverload(id, []*cel.Type{semverT}, cel.IntType, cel.UnaryBinding(func(v ref.Val) ref.Val {
		s, ok := v.Value().(semver.Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return f(s)
	}))
}

func semverBinary(id string, result *cel.Type, f func(a, b semver.Version) ref.Val) cel.FunctionOpt {
	return cel.MemberOverload(id, []*cel.Type{semverT, semverT}, result, cel.BinaryBinding(func(x, y ref.Val) ref.Val {
		a, ok := x.Value().(semver.Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(x)
		}
		b, ok := y.Value().(semver.Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(x)
		}
		return f(a, b)
	}))
}

func (l semverLib) CompileOptions() []cel.EnvOption {
	d := map[string][]cel.FunctionOpt{
		"semver": {cel.Overload("string_to_semver", []*cel.Type{cel.StringType}, semverT,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return toSemver(v, types.False) }))},
		"isSemver": {cel.Overload("is_semver_string", []*cel.Type{cel.StringType}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return isSemver(v, types.False) }))},
		"isGreaterThan": {semverBinary("semver_is_greater_than", cel.BoolType, func(a, b semver.Version) ref.Val { return types.Bool(a.Compare(b) == 1) })},
		"isLessThan":    {semverBinary("semver_is_less_than", cel.BoolType, func(a, b semver.Version) ref.Val { return types.Bool(a.Compare(b) == -1) })},
		"compareTo":     {semverBinary("semver_compare_to", cel.IntType, func(a, b semver.Version) ref.Val { return types.Int(a.Compare(b)) })},
		"major":         {semverUnary("semver_major", func(v semver.Version) ref.Val { return types.Int(v.Major) })},
		"minor":         {semverUnary("semver_minor", func(v semver.Version) ref.Val { return types.Int(v.Minor) })},
		"patch":         {semverUnary("semver_patch", func(v semver.Version) ref.Val { return types.Int(v.Patch) })},
	}
	if l.version >= 1 {
		d["semver"] = append(d["semver"], cel.Overload("string_bool_to_semver", []*cel.Type{cel.StringType, cel.BoolType}, semverT, cel.BinaryBinding(toSemver)))
		d["isSemver"] = append(d["isSemver"], cel.Overload("is_semver_string_bool", []*cel.Type{cel.StringType, cel.BoolType}, cel.BoolType, cel.BinaryBinding(isSemver)))
	}
	return functions(d)
}

func (semverLib) ProgramOptions() []cel.ProgramOption { return nil }

func parseSemver(v, normalize ref.Val) (semver.Version, ref.Val, error) {
	s, ok := v.Value().(string)
	if !ok {
		return semver.Version{}, types.MaybeNoSuchOverloadErr(v), nil
	}
	n, ok := normalize.Value().(bool)
	if !ok {
		return semver.Version{}, types.MaybeNoSuchOverloadErr(v), nil
	}
	if n {
		ver, err := normalizedSemver(s)
		return ver, nil, err
	}
	ver, err := semver.Parse(s)
	return ver, nil, err
}

func toSemver(v, normalize ref.Val) ref.Val {
	ver, bad, err := parseSemver(v, normalize)
	if bad != nil {
		return bad
	}
	if err != nil {
		return types.WrapErr(err)
	}
	return apiservercel.Semver{Version: ver}
}

func isSemver(v, normalize ref.Val) ref.Val {
	_, bad, err := parseSemver(v, normalize)
	if bad != nil {
		return bad
	}
	return types.Bool(err == nil)
}

// normalizedSemver parses a version leniently: a leading "v" dropped, leading zeros of the
// parts dropped, a missing minor or patch taken as 0 (when the last part given carries no
// pre-release or build).
func normalizedSemver(s string) (semver.Version, error) {
	parts := strings.SplitN(strings.TrimPrefix(s, "v"), ".", 3)
	for i, p := range parts {
		if len(p) > 1 {
			p = strings.TrimLeft(p, "0")
			if p == "" || !strings.ContainsAny(p[:1], "0123456789") {
				p = "0" + p
			}
			parts[i] = p
		}
	}
	if len(parts) < 3 {
		if strings.ContainsAny(parts[len(parts)-1], "+-") {
			return semver.Version{}, errors.New("short version cannot contain PreRelease/Build meta data")
		}
		for len(parts) < 3 {
			parts = append(parts, "0")
		}
	}
	return semver.Parse(strings.Join(parts, "."))
}
