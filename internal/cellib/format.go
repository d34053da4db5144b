package cellib

import (
	"fmt"
	"net/url"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/ssa-diff/ssa-diff/internal/formats"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// formatLib: format.<name>() constants, format.named(name) and <format>.validate(s).
type formatLib struct{}

func (formatLib) LibraryName() string { return "kubernetes.format" }

// The lengths of the regular expressions behind the uuid, date and datetime formats (for
// the cost of validate).
const (
	uuidPatternLength     = 70
	dateTimePatternLength = 71
)

func namedFormat(name string, maxRegex int, check func(string) []string) apiservercel.Format {
	return apiservercel.Format{Name: name, ValidateFunc: check, MaxRegexSize: maxRegex}
}

func formatCheck(format, message string) func(string) []string {
	return func(s string) []string {
		if !formats.Valid(format, s) {
			return []string{message}
		}
		return nil
	}
}

// namedFormats are the formats by their CEL name.
func namedFormats() map[string]apiservercel.Format {
	return map[string]apiservercel.Format{
		"dns1123Label": namedFormat("DNS1123Label", 30, func(s string) []string { return apimachineryvalidation.NameIsDNSLabel(s, false) }),
		"dns1123Subdomain": namedFormat("DNS1123Subdomain", 60, func(s string) []string {
			return apimachineryvalidation.NameIsDNSSubdomain(s, false)
		}),
		"dns1035Label":       namedFormat("DNS1035Label", 30, func(s string) []string { return apimachineryvalidation.NameIsDNS1035Label(s, false) }),
		"qualifiedName":      namedFormat("QualifiedName", 60, validation.IsQualifiedName),
		"dns1123LabelPrefix": namedFormat("DNS1123LabelPrefix", 30, func(s string) []string { return apimachineryvalidation.NameIsDNSLabel(s, true) }),
		"dns1123SubdomainPrefix": namedFormat("DNS1123SubdomainPrefix", 60, func(s string) []string {
			return apimachineryvalidation.NameIsDNSSubdomain(s, true)
		}),
		"dns1035LabelPrefix": namedFormat("DNS1035LabelPrefix", 30, func(s string) []string { return apimachineryvalidation.NameIsDNS1035Label(s, true) }),
		"labelValue":         namedFormat("LabelValue", 40, validation.IsValidLabelValue),
		"uri": namedFormat("URI", 1103, func(s string) []string {
			if _, err := url.ParseRequestURI(s); err != nil {
				return []string{err.Error()}
			}
			return nil
		}),
		"uuid":     namedFormat("uuid", uuidPatternLength, formatCheck("uuid", "does not match the UUID format")),
		"byte":     namedFormat("byte", 84, formatCheck("byte", "invalid base64")),
		"date":     namedFormat("date", dateTimePatternLength, formatCheck("date", "invalid date")),
		"datetime": namedFormat("datetime", dateTimePatternLength, formatCheck("datetime", "invalid datetime")),
	}
}

// noArgs binds a function of no arguments.
func noArgs(f func() ref.Val) decls.OverloadOpt {
	return func(o *decls.OverloadDecl) (*decls.OverloadDecl, error) {
		if _, err := decls.FunctionBinding(func(...ref.Val) ref.Val { return f() })(o); err != nil {
			return nil, err
		}
		if len(o.ArgTypes()) != 0 {
			return nil, fmt.Errorf("function binding must have 0 arguments")
		}
		return o, nil
	}
}

func (formatLib) CompileOptions() []cel.EnvOption {
	named := namedFormats()
	opts := functions(map[string][]cel.FunctionOpt{
		"validate": {cel.MemberOverload("format-validate", []*cel.Type{apiservercel.FormatType, cel.StringType},
			cel.OptionalType(cel.ListType(cel.StringType)), cel.BinaryBinding(func(f, s ref.Val) ref.Val {
				format, ok := f.Value().(apiservercel.Format)
				if !ok {
					return types.MaybeNoSuchOverloadErr(f)
				}
				str, ok := s.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(s)
				}
				if msgs := format.ValidateFunc(str); len(msgs) > 0 {
					return types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, msgs))
				}
				return types.OptionalNone
			}))},
		"format.named": {cel.Overload("format-named", []*cel.Type{cel.StringType}, cel.OptionalType(apiservercel.FormatType),
			cel.UnaryBinding(func(n ref.Val) ref.Val {
				name, ok := n.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(n)
				}
				if f, ok := named[name]; ok {
					return types.OptionalOf(f)
				}
				return types.OptionalNone
			}))},
	})
	for name, f := range named {
		fn, value := "format."+name, f
		opts = append(opts, cel.Function(fn, cel.Overload(fn, []*cel.Type{}, apiservercel.FormatType, noArgs(func() ref.Val { return value }))))
	}
	return opts
}

func (formatLib) ProgramOptions() []cel.ProgramOption { return nil }
