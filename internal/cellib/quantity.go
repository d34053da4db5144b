package cellib

import (
	"errors"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apimachinery/pkg/api/resource"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// quantityLib: quantity(), isQuantity() and the arithmetic and comparisons of quantities.
type quantityLib struct {
	// sharesDecimal: add and sub copy the receiver shallowly, as servers before 1.37 do, so
	// that a receiver held as an inf.Dec shares it with the result and is changed with it.
	sharesDecimal bool
}

func (quantityLib) LibraryName() string { return "kubernetes.quantity" }

var quantityT = apiservercel.QuantityType

func quantityOf(v ref.Val) (*resource.Quantity, bool) {
	q, ok := v.Value().(*resource.Quantity)
	return q, ok
}

// quantityUnary binds a function of one quantity.
func quantityUnary(f func(*resource.Quantity) ref.Val) cel.OverloadOpt {
	return cel.UnaryBinding(func(v ref.Val) ref.Val {
		q, ok := quantityOf(v)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return f(q)
	})
}

// quantityBinary binds a function of two quantities (a bad second argument is reported
// with the first, as the server does).
func quantityBinary(f func(a, b *resource.Quantity) ref.Val) cel.OverloadOpt {
	return cel.BinaryBinding(func(x, y ref.Val) ref.Val {
		a, ok := quantityOf(x)
		if !ok {
			return types.MaybeNoSuchOverloadErr(x)
		}
		b, ok := quantityOf(y)
		if !ok {
			return types.MaybeNoSuchOverloadErr(x)
		}
		return f(a, b)
	})
}

func quantityWithInt(f func(a *resource.Quantity, b resource.Quantity) ref.Val) cel.OverloadOpt {
	return cel.BinaryBinding(func(x, y ref.Val) ref.Val {
		a, ok := quantityOf(x)
		if !ok {
			return types.MaybeNoSuchOverloadErr(x)
		}
		i, ok := y.Value().(int64)
		if !ok {
			return types.MaybeNoSuchOverloadErr(x)
		}
		return f(a, *resource.NewQuantity(i, resource.DecimalExponent))
	})
}

func (l quantityLib) sum(a *resource.Quantity, b resource.Quantity, negate bool) ref.Val {
	var c resource.Quantity
	if l.sharesDecimal {
		c = *a
	} else {
		c = a.DeepCopy()
	}
	if negate {
		c.Sub(b)
	} else {
		c.Add(b)
	}
	return &apiservercel.Quantity{Quantity: &c}
}

func (l quantityLib) CompileOptions() []cel.EnvOption {
	cmp := func(want int) func(a, b *resource.Quantity) ref.Val {
		return func(a, b *resource.Quantity) ref.Val { return types.Bool(a.Cmp(*b) == want) }
	}
	return functions(map[string][]cel.FunctionOpt{
		"quantity": {cel.Overload("string_to_quantity", []*cel.Type{cel.StringType}, quantityT, cel.UnaryBinding(func(v ref.Val) ref.Val {
			s, ok := v.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			q, err := resource.ParseQuantity(s)
			if err != nil {
				return types.WrapErr(err)
			}
			return apiservercel.Quantity{Quantity: &q}
		}))},
		"isQuantity": {cel.Overload("is_quantity_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			s, ok := v.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			_, err := resource.ParseQuantity(s)
			return types.Bool(err == nil)
		}))},
		"sign":          {cel.Overload("quantity_sign", []*cel.Type{quantityT}, cel.IntType, quantityUnary(func(q *resource.Quantity) ref.Val { return types.Int(q.Sign()) }))},
		"isGreaterThan": {cel.MemberOverload("quantity_is_greater_than", []*cel.Type{quantityT, quantityT}, cel.BoolType, quantityBinary(cmp(1)))},
		"isLessThan":    {cel.MemberOverload("quantity_is_less_than", []*cel.Type{quantityT, quantityT}, cel.BoolType, quantityBinary(cmp(-1)))},
		"compareTo": {cel.MemberOverload("quantity_compare_to", []*cel.Type{quantityT, quantityT}, cel.IntType,
			quantityBinary(func(a, b *resource.Quantity) ref.Val { return types.Int(a.Cmp(*b)) }))},
		"asApproximateFloat": {cel.MemberOverload("quantity_get_float", []*cel.Type{quantityT}, cel.DoubleType,
			quantityUnary(func(q *resource.Quantity) ref.Val { return types.Double(q.AsApproximateFloat64()) }))},
		"asInteger": {cel.MemberOverload("quantity_get_int", []*cel.Type{quantityT}, cel.IntType, quantityUnary(func(q *resource.Quantity) ref.Val {
			i, ok := q.AsInt64()
			if !ok {
				return types.WrapErr(errors.New("cannot convert value to integer"))
			}
			return types.Int(i)
		}))},
		"isInteger": {cel.MemberOverload("quantity_is_integer", []*cel.Type{quantityT}, cel.BoolType, quantityUnary(func(q *resource.Quantity) ref.Val {
			_, ok := q.AsInt64()
			return types.Bool(ok)
		}))},
		"add": {
			cel.MemberOverload("quantity_add", []*cel.Type{quantityT, quantityT}, quantityT,
				quantityBinary(func(a, b *resource.Quantity) ref.Val { return l.sum(a, *b, false) })),
			cel.MemberOverload("quantity_add_int", []*cel.Type{quantityT, cel.IntType}, quantityT,
				quantityWithInt(func(a *resource.Quantity, b resource.Quantity) ref.Val { return l.sum(a, b, false) })),
		},
		"sub": {
			cel.MemberOverload("quantity_sub", []*cel.Type{quantityT, quantityT}, quantityT,
				quantityBinary(func(a, b *resource.Quantity) ref.Val { return l.sum(a, *b, true) })),
			cel.MemberOverload("quantity_sub_int", []*cel.Type{quantityT, cel.IntType}, quantityT,
				quantityWithInt(func(a *resource.Quantity, b resource.Quantity) ref.Val { return l.sum(a, b, true) })),
		},
	})
}

func (quantityLib) ProgramOptions() []cel.ProgramOption { return nil }
