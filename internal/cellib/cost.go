package cellib

import (
	"math"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/ssa-diff/ssa-diff/kube"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// Estimator charges the Kubernetes functions as the server does: EstimateCallCost when a
// rule is compiled (from the sizes the schema allows), CallCost while it runs (from the
// actual arguments). Sizes of values it does not know come from Sizes (the schema's bounds),
// when set. Server is the kube-apiserver minor whose charges they are.
type Estimator struct {
	Sizes  checker.CostEstimator
	Server kube.Minor
}

const (
	traversal = common.StringTraversalCostFactor
	regexLen  = common.RegexStringLengthCostFactor
)

func ceilCost(n uint64, factor float64) uint64 { return uint64(math.Ceil(float64(n) * factor)) }

func one() *uint64 {
	c := uint64(1)
	return &c
}

// selectorCost is the cost of parsing a field or label selector of the given length.
func selectorCost(length checker.SizeEstimate) checker.CostEstimate {
	base := checker.CostEstimate{Min: common.ListCreateBaseCost, Max: common.ListCreateBaseCost}
	parse := length.MultiplyByCostFactor(traversal)
	reqs := length.MultiplyByCostFactor(.5).MultiplyByCostFactor(float64(common.ListCreateBaseCost + common.StructCreateBaseCost))
	return base.Add(parse).Add(reqs)
}

// CallCost is the actual cost of a call (nil: cel-go's own charge).
func (e *Estimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	if celGo026(int(e.Server)) {
		if c := callCost026(overloadID, args); c != nil {
			return c
		}
	}
	c := func(v uint64) *uint64 { return &v }
	switch function {
	case "check":
		return c(350000)
	case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed", "reason", "error", "errored":
		return one()
	case "fieldSelector", "labelSelector":
		if len(args) >= 2 {
			n := actualSize(args[1])
			return c(selectorCost(checker.SizeEstimate{Min: n, Max: n}).Max)
		}
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		var cost uint64
		if len(args) > 0 {
			cost = traversalCost(args[0])
		}
		return &cost
	case "url", "lowerAscii", "upperAscii", "substring", "trim", "jsonpatch.escapeKey":
		if len(args) >= 1 {
			return c(ceilCost(actualSize(args[0]), traversal))
		}
	case "replace", "split":
		if len(args) >= 1 {
			return c(ceilCost(actualSize(args[0]), 2*traversal))
		}
	case "join":
		if len(args) >= 1 {
			return c(ceilCost(actualSize(result), 2*traversal))
		}
	case "find", "findAll":
		if len(args) >= 2 {
			str := uint64(math.Ceil((1.0 + float64(actualSize(args[0]))) * traversal))
			re := ceilCost(actualSize(args[1]), regexLen)
			return c(str * re)
		}
	case "cidr", "isIP", "isCIDR":
		if len(args) >= 1 {
			return c(ceilCost(actualSize(args[0]), traversal))
		}
	case "ip":
		if len(args) >= 1 {
			if overloadID == "cidr_ip" {
				return one()
			}
			return c(ceilCost(actualSize(args[0]), traversal))
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return c(ceilCost(actualSize(args[0]), 2*traversal))
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast":
		return one()
	case "containsIP":
		if len(args) >= 2 {
			n, other := actualSize(args[0]), actualSize(args[1])
			cost := ceilCost(n+n, traversal)
			if overloadID == "cidr_contains_ip_string" {
				cost += ceilCost(other, traversal)
			}
			return &cost
		}
	case "containsCIDR":
		if len(args) >= 2 {
			n, other := actualSize(args[0]), actualSize(args[1])
			cost := ceilCost(n+n, traversal) + ceilCost(n, traversal) + 1
			if overloadID == "cidr_contains_cidr_string" {
				cost += ceilCost(other, traversal)
			}
			return &cost
		}
	case "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return c(ceilCost(actualSize(args[0]), traversal))
		}
	case "validate":
		if len(args) >= 2 {
			if f, ok := args[0].Value().(apiservercel.Format); ok {
				str := uint64(math.Ceil((1.0 + float64(actualSize(args[1]))) * traversal))
				return c(str * ceilCost(uint64(f.MaxRegexSize), regexLen))
			}
		}
	case "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch",
		"getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return one()
	case "_==_":
		if len(args) == 2 {
			switch args[0].(type) {
			case *apiservercel.Quantity, apiservercel.Quantity, *apiservercel.IP, apiservercel.IP, *apiservercel.CIDR, apiservercel.CIDR,
				*apiservercel.Format, apiservercel.Format, *apiservercel.URL, apiservercel.URL, *apiservercel.Semver, apiservercel.Semver:
				return one()
			}
		}
	}
	return nil
}

// EstimateCallCost is the estimated cost of a call (nil: cel-go's own estimate).
func (e *Estimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if celGo026(int(e.Server)) {
		if c := estimateCallCost026(overloadID, target, args); c != nil {
			return c
		}
	}
	fixed := func(n uint64) *checker.CallEstimate {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: n, Max: n}}
	}
	if s, ok := e.Sizes.(*sizes022); ok { // Kubernetes 1.32 (cel-go v0.22.0): EstimateCost's copy
		if c := s.estimateCallCost(function, overloadID, args, e.size); c != nil {
			return c
		}
	}
	switch function {
	case "check":
		return fixed(350000)
	case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed", "reason", "error", "errored":
		return fixed(1)
	case "fieldSelector", "labelSelector":
		if len(args) == 1 {
			return &checker.CallEstimate{CostEstimate: selectorCost(e.size(args[0]))}
		}
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		if target != nil {
			elem := checker.CostEstimate{Min: 1, Max: 1}
			if el := e.elementNode(*target); el != nil {
				if k := el.Type().Kind(); k == types.StringKind || k == types.BytesKind {
					elem = elem.Add(e.size(el).MultiplyByCostFactor(traversal))
				}
				return &checker.CallEstimate{CostEstimate: e.size(*target).MultiplyByCost(elem)}
			}
			if function == "includes" {
				return &checker.CallEstimate{CostEstimate: e.size(*target).MultiplyByCost(elem)}
			}
			return &checker.CallEstimate{CostEstimate: e.size(*target).MultiplyByCostFactor(traversal)}
		}
	case "url", "jsonpatch.escapeKey":
		if len(args) == 1 {
			sz := e.size(args[0])
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(traversal), ResultSize: &sz}
		}
	case "lowerAscii", "upperAscii", "substring", "trim":
		if target != nil {
			sz := e.size(*target)
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(traversal), ResultSize: &sz}
		}
	case "replace":
		if target != nil && len(args) >= 2 {
			return e.replaceEstimate(*target, args[0], args[1])
		}
	case "split":
		if target != nil {
			sz := e.size(*target)
			max := sz.Max
			if len(args) > 1 {
				if lit := args[1].Expr().AsLiteral(); lit != nil {
					if i, ok := lit.Value().(int64); ok {
						max = uint64(i)
					}
				}
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * traversal), ResultSize: &checker.SizeEstimate{Min: 0, Max: max}}
		}
	case "join":
		if target != nil {
			var sz checker.SizeEstimate
			n := e.size(*target)
			if el := e.elementNode(*target); el != nil {
				sz = n.Multiply(e.size(el))
			}
			if len(args) > 0 {
				var seps checker.SizeEstimate
				if n.Min > 0 {
					seps.Min = n.Min - 1
				}
				if n.Max > 0 {
					seps.Max = n.Max - 1
				}
				sz = sz.Add(e.size(args[0]).Multiply(seps))
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(traversal), ResultSize: &sz}
		}
	case "find", "findAll":
		if target != nil && len(args) >= 1 {
			sz := e.size(*target)
			str := sz.Add(checker.SizeEstimate{Min: 1, Max: 1}).MultiplyByCostFactor(traversal)
			re := e.size(args[0]).MultiplyByCostFactor(regexLen)
			return &checker.CallEstimate{CostEstimate: str.Multiply(re), ResultSize: &checker.SizeEstimate{Min: 0, Max: sz.Max}}
		}
	case "cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(traversal)}
		}
	case "ip":
		if overloadID == "cidr_ip" {
			return fixed(1)
		}
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(traversal)}
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(2 * traversal)}
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast":
		return fixed(1)
	case "containsIP", "containsCIDR":
		if len(args) >= 1 {
			ipSize := checker.SizeEstimate{Min: 4, Max: 16}
			cost := ipSize.Add(ipSize).MultiplyByCostFactor(traversal)
			if function == "containsCIDR" {
				cost = cost.Add(ipSize.MultiplyByCostFactor(traversal)).Add(checker.CostEstimate{Min: 1, Max: 1})
			}
			if overloadID == "cidr_contains_ip_string" || overloadID == "cidr_contains_cidr_string" {
				cost = cost.Add(checker.CostEstimate(e.size(args[0])).MultiplyByCostFactor(traversal))
			}
			return &checker.CallEstimate{CostEstimate: cost}
		}
	case "validate":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: e.size(args[0]).MultiplyByCostFactor(traversal).MultiplyByCostFactor(apiservercel.MaxNameFormatRegexSize * regexLen)}
		}
	case "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch",
		"getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return fixed(1)
	case "_==_":
		if len(args) == 2 {
			return e.equalityEstimate(args[0], args[1])
		}
	}
	return nil
}

func (e *Estimator) replaceEstimate(target, old, with checker.AstNode) *checker.CallEstimate {
	sz := e.size(target)
	oldSz, withSz := e.size(old), e.size(with)
	var count, kept checker.SizeEstimate
	switch {
	case oldSz.Min == 0:
		count.Max = sz.Max
		if sz.Max < math.MaxUint64 {
			count.Max = sz.Max + 1
		}
		kept.Max = sz.Max
	case withSz.Max <= oldSz.Min:
		kept.Max = sz.Max
	default:
		count.Max = uint64(math.Ceil(float64(sz.Max) / float64(oldSz.Min)))
	}
	switch {
	case oldSz.Max == 0:
		count.Min = sz.Min
		if sz.Min < math.MaxUint64 {
			count.Min = sz.Min + 1
		}
		kept.Min = sz.Min
	case oldSz.Max <= withSz.Min:
		kept.Min = sz.Min
	default:
		count.Min = uint64(math.Ceil(float64(sz.Min) / float64(oldSz.Max)))
	}
	size := count.Multiply(withSz).Add(kept)
	return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * traversal), ResultSize: &size}
}

func (e *Estimator) equalityEstimate(lhs, rhs checker.AstNode) *checker.CallEstimate {
	t := lhs.Type()
	if t.Equal(rhs.Type()) != types.True {
		return nil
	}
	unit := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
	if t.Kind() == types.OpaqueKind {
		switch t.TypeName() {
		case apiservercel.IPType.TypeName(), apiservercel.CIDRType.TypeName():
			return unit
		}
	}
	if t.Kind() == types.StructKind {
		switch t {
		case apiservercel.QuantityType, authorizerT, pathCheckT, groupCheckT, resourceCheckT, decisionT, apiservercel.SemverType:
			return unit
		case apiservercel.FormatType:
			return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: apiservercel.MaxFormatSize}.MultiplyByCostFactor(traversal)}
		case apiservercel.URLType:
			size := checker.SizeEstimate{Min: 1, Max: 1}
			// The server takes both sizes from the right-hand side.
			if r := rhs.ComputedSize(); r != nil {
				size = r.Union(*r)
			}
			return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: size.Max}.MultiplyByCostFactor(traversal)}
		}
	}
	return nil
}

func actualSize(v ref.Val) uint64 {
	if s, ok := v.(traits.Sizer); ok {
		return uint64(s.Size().(types.Int))
	}
	return 1
}

func (e *Estimator) size(n checker.AstNode) checker.SizeEstimate {
	if s := n.ComputedSize(); s != nil {
		return *s
	}
	if s := e.EstimateSize(n); s != nil {
		return *s
	}
	return checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
}

// elementNode is a node standing for the elements of a list node (its path ends in @items).
func (e *Estimator) elementNode(list checker.AstNode) checker.AstNode {
	params := list.Type().Parameters()
	if len(params) == 0 {
		return nil
	}
	var path []string
	p := list.Path()
	if s, ok := e.Sizes.(*sizes022); ok && list.Expr() != nil { // 1.32: the v0.22 path
		p = s.paths[list.Expr().ID()]
	}
	if p != nil {
		path = append(append(make([]string, 0, len(p)+1), p...), "@items")
	}
	return &itemsNode{path: path, t: params[0]}
}

// EstimateSize is the size Sizes gives, if any.
func (e *Estimator) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if e.Sizes != nil {
		return e.Sizes.EstimateSize(n)
	}
	return nil
}

type itemsNode struct {
	path []string
	t    *types.Type
}

func (i *itemsNode) Path() []string                      { return i.path }
func (i *itemsNode) Type() *types.Type                   { return i.t }
func (i *itemsNode) Expr() ast.Expr                      { return nil }
func (i *itemsNode) ComputedSize() *checker.SizeEstimate { return nil }

// traversalCost is what walking a value once costs: its strings' and bytes' lengths times the
// traversal factor, 1 for anything else.
func traversalCost(v ref.Val) uint64 {
	switch x := v.(type) {
	case types.String:
		return uint64(float64(len(string(x))) * traversal)
	case types.Bytes:
		return uint64(float64(len([]byte(x))) * traversal)
	case traits.Lister:
		var c uint64
		for it := x.Iterator(); it.HasNext() == types.True; {
			c += traversalCost(it.Next())
		}
		return c
	case traits.Mapper:
		var c uint64
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			c += traversalCost(k) + traversalCost(x.Get(k))
		}
		return c
	}
	return 1
}
