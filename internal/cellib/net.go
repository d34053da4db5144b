package cellib

import (
	"fmt"
	"net/netip"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// ipLib: ip(), isIP(), ip.isCanonical() and the properties of an IP address.
type ipLib struct{}

func (ipLib) LibraryName() string { return "kubernetes.net.ip" }

var ipT, cidrT = apiservercel.IPType, apiservercel.CIDRType

func ipProp(id string, f func(netip.Addr) bool) cel.FunctionOpt {
	return cel.MemberOverload(id, []*cel.Type{ipT}, cel.BoolType, cel.UnaryBinding(func(v ref.Val) ref.Val {
		ip, ok := v.(apiservercel.IP)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return types.Bool(f(ip.Addr))
	}))
}

func (ipLib) CompileOptions() []cel.EnvOption {
	return append([]cel.EnvOption{cel.Types(ipT)}, functions(map[string][]cel.FunctionOpt{
		"ip": {cel.Overload("string_to_ip", []*cel.Type{cel.StringType}, ipT, cel.UnaryBinding(toIP))},
		"family": {cel.MemberOverload("ip_family", []*cel.Type{ipT}, cel.IntType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			ip, ok := v.(apiservercel.IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			switch {
			case ip.Addr.Is4():
				return types.Int(4)
			case ip.Addr.Is6():
				return types.Int(6)
			}
			return types.NewErr("IP address %q is not an IPv4 or IPv6 address", ip.Addr.String())
		}))},
		"ip.isCanonical": {cel.Overload("ip_is_canonical", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			s, ok := v.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			a, err := parseIP(s)
			if err != nil {
				return types.NewErr("%v", err)
			}
			return types.Bool(a.String() == s)
		}))},
		"isUnspecified":        {ipProp("ip_is_unspecified", netip.Addr.IsUnspecified)},
		"isLoopback":           {ipProp("ip_is_loopback", netip.Addr.IsLoopback)},
		"isLinkLocalMulticast": {ipProp("ip_is_link_local_multicast", netip.Addr.IsLinkLocalMulticast)},
		"isLinkLocalUnicast":   {ipProp("ip_is_link_local_unicast", netip.Addr.IsLinkLocalUnicast)},
		"isGlobalUnicast":      {ipProp("ip_is_global_unicast", netip.Addr.IsGlobalUnicast)},
		"isIP": {cel.Overload("is_ip", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			s, ok := v.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			_, err := parseIP(s)
			return types.Bool(err == nil)
		}))},
		"string": {cel.Overload("ip_to_string", []*cel.Type{ipT}, cel.StringType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			ip, ok := v.(apiservercel.IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			return types.String(ip.Addr.String())
		}))},
	})...)
}

func (ipLib) ProgramOptions() []cel.ProgramOption { return nil }

// parseIP accepts what netip does, without a zone and not an IPv4-mapped IPv6 address.
func parseIP(s string) (netip.Addr, error) {
	a, err := netip.ParseAddr(s)
	switch {
	case err != nil:
		return netip.Addr{}, fmt.Errorf("IP Address %q parse error during conversion from string: %v", s, err)
	case a.Zone() != "":
		return netip.Addr{}, fmt.Errorf("IP address %q with zone value is not allowed", s)
	case a.Is4In6():
		return netip.Addr{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return a, nil
}

func toIP(v ref.Val) ref.Val {
	s, ok := v.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	a, err := parseIP(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return apiservercel.IP{Addr: a}
}

// cidrLib: cidr(), isCIDR() and containment, masking and the parts of a CIDR.
type cidrLib struct{}

func (cidrLib) LibraryName() string { return "kubernetes.net.cidr" }

func cidrUnary(id string, result *cel.Type, f func(apiservercel.CIDR) ref.Val) cel.FunctionOpt {
	return cel.MemberOverload(id, []*cel.Type{cidrT}, result, cel.UnaryBinding(func(v ref.Val) ref.Val {
		c, ok := v.(apiservercel.CIDR)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return f(c)
	}))
}

func (cidrLib) CompileOptions() []cel.EnvOption {
	return append([]cel.EnvOption{cel.Types(cidrT)}, functions(map[string][]cel.FunctionOpt{
		"cidr": {cel.Overload("string_to_cidr", []*cel.Type{cel.StringType}, cidrT, cel.UnaryBinding(toCIDR))},
		"containsIP": {
			cel.MemberOverload("cidr_contains_ip_string", []*cel.Type{cidrT, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return containsIP(c, toIP(s)) })),
			cel.MemberOverload("cidr_contains_ip_ip", []*cel.Type{cidrT, ipT}, cel.BoolType, cel.BinaryBinding(containsIP)),
		},
		"containsCIDR": {
			cel.MemberOverload("cidr_contains_cidr_string", []*cel.Type{cidrT, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return containsCIDR(c, toCIDR(s)) })),
			cel.MemberOverload("cidr_contains_cidr", []*cel.Type{cidrT, cidrT}, cel.BoolType, cel.BinaryBinding(containsCIDR)),
		},
		"ip":           {cidrUnary("cidr_ip", ipT, func(c apiservercel.CIDR) ref.Val { return apiservercel.IP{Addr: c.Prefix.Addr()} })},
		"prefixLength": {cidrUnary("cidr_prefix_length", cel.IntType, func(c apiservercel.CIDR) ref.Val { return types.Int(c.Prefix.Bits()) })},
		"masked": {cidrUnary("cidr_masked", cidrT, func(c apiservercel.CIDR) ref.Val {
			return apiservercel.CIDR{Prefix: c.Prefix.Masked()}
		})},
		"isCIDR": {cel.Overload("is_cidr", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			s, ok := v.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			_, err := parsePrefix(s)
			return types.Bool(err == nil)
		}))},
		"string": {cel.Overload("cidr_to_string", []*cel.Type{cidrT}, cel.StringType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			c, ok := v.(apiservercel.CIDR)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			return types.String(c.Prefix.String())
		}))},
	})...)
}

func (cidrLib) ProgramOptions() []cel.ProgramOption { return nil }

func parsePrefix(s string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return p, nil
}

func toCIDR(v ref.Val) ref.Val {
	s, ok := v.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	p, err := parsePrefix(s)
	if err != nil {
		return types.NewErr("network address parse error during conversion from string: %v", err)
	}
	return apiservercel.CIDR{Prefix: p}
}

func containsIP(c, ip ref.Val) ref.Val {
	cidr, ok := c.(apiservercel.CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(ip)
	}
	a, ok := ip.(apiservercel.IP)
	if !ok {
		return types.MaybeNoSuchOverloadErr(c)
	}
	return types.Bool(cidr.Contains(a.Addr))
}

func containsCIDR(c, other ref.Val) ref.Val {
	cidr, ok := c.(apiservercel.CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(c)
	}
	o, ok := other.(apiservercel.CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(cidr.Overlaps(o.Prefix) && cidr.Prefix.Bits() <= o.Prefix.Bits())
}
