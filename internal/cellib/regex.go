package cellib

import (
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// regexLib: find and findAll on strings, with the regular expression compiled once when it is
// a literal.
type regexLib struct{}

func (regexLib) LibraryName() string { return "kubernetes.regex" }

func (regexLib) CompileOptions() []cel.EnvOption {
	return functions(map[string][]cel.FunctionOpt{
		"find": {cel.MemberOverload("string_find_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType,
			cel.BinaryBinding(func(s, re ref.Val) ref.Val { return regexFind(nil, s, re) }))},
		"findAll": {
			cel.MemberOverload("string_find_all_string", []*cel.Type{cel.StringType, cel.StringType}, cel.ListType(cel.StringType),
				cel.BinaryBinding(func(s, re ref.Val) ref.Val { return regexFindAll(nil, s, re, types.Int(-1)) })),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType}, cel.ListType(cel.StringType),
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					if len(args) != 3 {
						return types.NoSuchOverloadErr()
					}
					return regexFindAll(nil, args[0], args[1], args[2])
				})),
		},
	})
}

func (regexLib) ProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{cel.OptimizeRegex(
		&interpreter.RegexOptimization{Function: "find", RegexIndex: 1, Factory: precompiled(func(re *regexp.Regexp, args []ref.Val) ref.Val {
			if len(args) != 2 {
				return types.NoSuchOverloadErr()
			}
			return regexFind(re, args[0], nil)
		})},
		&interpreter.RegexOptimization{Function: "findAll", RegexIndex: 1, Factory: precompiled(func(re *regexp.Regexp, args []ref.Val) ref.Val {
			switch len(args) {
			case 2:
				return regexFindAll(re, args[0], nil, types.Int(-1))
			case 3:
				return regexFindAll(re, args[0], nil, args[2])
			}
			return types.NoSuchOverloadErr()
		})},
	)}
}

func precompiled(call func(*regexp.Regexp, []ref.Val) ref.Val) func(interpreter.InterpretableCall, string) (interpreter.InterpretableCall, error) {
	return func(c interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		return interpreter.NewCall(c.ID(), c.Function(), c.OverloadID(), c.Args(), func(args ...ref.Val) ref.Val {
			return call(re, args)
		}), nil
	}
}

// compile returns re, or compiles the pattern value.
func compile(re *regexp.Regexp, pattern ref.Val) (*regexp.Regexp, ref.Val) {
	if re != nil {
		return re, nil
	}
	p, ok := pattern.Value().(string)
	if !ok {
		return nil, types.MaybeNoSuchOverloadErr(pattern)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, types.NewErr("Illegal regex: %v", err.Error())
	}
	return re, nil
}

func regexFind(re *regexp.Regexp, s, pattern ref.Val) ref.Val {
	str, ok := s.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(s)
	}
	re, errVal := compile(re, pattern)
	if errVal != nil {
		return errVal
	}
	return types.String(re.FindString(str))
}

func regexFindAll(re *regexp.Regexp, s, pattern, limit ref.Val) ref.Val {
	str, ok := s.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(s)
	}
	if re == nil {
		if _, ok := pattern.Value().(string); !ok {
			return types.MaybeNoSuchOverloadErr(pattern)
		}
	}
	n, ok := limit.Value().(int64)
	if !ok {
		return types.MaybeNoSuchOverloadErr(limit)
	}
	re, errVal := compile(re, pattern)
	if errVal != nil {
		return errVal
	}
	return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(str, int(n)))
}
