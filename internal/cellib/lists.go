package cellib

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// listsLib: isSorted, sum, max, min, indexOf, lastIndexOf on lists; version 1 adds includes.
type listsLib struct{ version int }

func (listsLib) LibraryName() string { return "kubernetes.lists" }

type celTypeName struct {
	name string
	t    *cel.Type
}

var (
	summable   = []celTypeName{{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType}, {"duration", cel.DurationType}}
	comparable = []celTypeName{{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType}, {"bool", cel.BoolType},
		{"duration", cel.DurationType}, {"timestamp", cel.TimestampType}, {"string", cel.StringType}, {"bytes", cel.BytesType}}
)

func zeroOf(name string) ref.Val {
	switch name {
	case "int":
		return types.Int(0)
	case "uint":
		return types.Uint(0)
	case "double":
		return types.Double(0)
	default:
		return types.Duration{}
	}
}

func (l listsLib) CompileOptions() []cel.EnvOption {
	paramA := cel.TypeParamType("A")
	decls := map[string][]cel.FunctionOpt{}
	for _, t := range comparable {
		decls["isSorted"] = append(decls["isSorted"], cel.MemberOverload(fmt.Sprintf("list_%s_is_sorted_bool", t.name),
			[]*cel.Type{cel.ListType(t.t)}, cel.BoolType, cel.UnaryBinding(listIsSorted)))
		decls["max"] = append(decls["max"], cel.MemberOverload(fmt.Sprintf("list_%s_max_%s", t.name, t.name),
			[]*cel.Type{cel.ListType(t.t)}, t.t, cel.UnaryBinding(listExtreme("max", types.IntNegOne))))
		decls["min"] = append(decls["min"], cel.MemberOverload(fmt.Sprintf("list_%s_min_%s", t.name, t.name),
			[]*cel.Type{cel.ListType(t.t)}, t.t, cel.UnaryBinding(listExtreme("min", types.IntOne))))
	}
	for _, t := range summable {
		zero := zeroOf(t.name)
		decls["sum"] = append(decls["sum"], cel.MemberOverload(fmt.Sprintf("list_%s_sum_%s", t.name, t.name),
			[]*cel.Type{cel.ListType(t.t)}, t.t, cel.UnaryBinding(func(list ref.Val) ref.Val { return listSum(zero, list) })))
	}
	decls["indexOf"] = []cel.FunctionOpt{cel.MemberOverload("list_a_index_of_int", []*cel.Type{cel.ListType(paramA), paramA}, cel.IntType,
		cel.BinaryBinding(func(list, item ref.Val) ref.Val { return listIndex(list, item, false) }))}
	decls["lastIndexOf"] = []cel.FunctionOpt{cel.MemberOverload("list_a_last_index_of_int", []*cel.Type{cel.ListType(paramA), paramA}, cel.IntType,
		cel.BinaryBinding(func(list, item ref.Val) ref.Val { return listIndex(list, item, true) }))}
	if l.version >= 1 {
		decls["includes"] = []cel.FunctionOpt{cel.MemberOverload("list_includes_dyn_dyn", []*cel.Type{cel.DynType, cel.DynType}, cel.BoolType,
			cel.BinaryBinding(listIncludes))}
	}
	return functions(decls)
}

func (listsLib) ProgramOptions() []cel.ProgramOption { return nil }

// listIsSorted: no element is greater than the one after it.
func listIsSorted(v ref.Val) ref.Val {
	it, ok := v.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	var prev traits.Comparer
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		c, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if prev != nil && prev.Compare(next) == types.IntOne {
			return types.False
		}
		prev = c
	}
	return types.True
}

// listSum adds the elements to the type's zero.
func listSum(zero, v ref.Val) ref.Val {
	acc, ok := zero.(traits.Adder)
	if !ok {
		return types.MaybeNoSuchOverloadErr(zero)
	}
	it, ok := v.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		if _, ok := next.(traits.Adder); !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		s := acc.Add(next)
		a, ok := s.(traits.Adder)
		if !ok {
			return types.MaybeNoSuchOverloadErr(s)
		}
		acc = a
	}
	return acc.(ref.Val)
}

// listExtreme keeps the element that compares to the current one as replace says (max keeps
// a later element when the current one is less, min when it is greater); an empty list is an
// error.
func listExtreme(name string, replace ref.Val) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		it, ok := v.(traits.Iterable)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		var best traits.Comparer
		for i := it.Iterator(); i.HasNext() == types.True; {
			next := i.Next()
			c, ok := next.(traits.Comparer)
			if !ok {
				return types.MaybeNoSuchOverloadErr(next)
			}
			if best == nil || best.Compare(next) == replace {
				best = c
			}
		}
		if best == nil {
			return types.NewErr("%s called on empty list", name)
		}
		return best.(ref.Val)
	}
}

func listIndex(list, item ref.Val, last bool) ref.Val {
	l, ok := list.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(list)
	}
	n := l.Size().(types.Int)
	if last {
		for i := n - 1; i >= 0; i-- {
			if l.Get(i).Equal(item) == types.True {
				return i
			}
		}
		return types.Int(-1)
	}
	for i := types.Int(0); i < n; i++ {
		if l.Get(i).Equal(item) == types.True {
			return i
		}
	}
	return types.Int(-1)
}

// listIncludes: a list includes an element equal to the argument; any other value includes
// only itself.
func listIncludes(target, arg ref.Val) ref.Val {
	if l, ok := target.(traits.Lister); ok {
		for i := l.Iterator(); i.HasNext() == types.True; {
			if i.Next().Equal(arg) == types.True {
				return types.True
			}
		}
		return types.False
	}
	return types.Bool(target.Equal(arg) == types.True)
}
