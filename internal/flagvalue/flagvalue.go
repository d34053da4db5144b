package flagvalue

import (
	"fmt"
	"github.com/ssa-diff/ssa-diff/appliers"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/shard"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// Size is a byte count flag (input.ParseSize): 1048576, 512Ki, 64Mi, 1Gi (or k, M, G: powers of 1000).
type Size struct {
	P    *int64
	Name string
}

func (f *Size) String() string { return input.FormatSize(*f.P) }
func (f *Size) Type() string   { return "size" }

func (f *Size) Set(s string) error {
	n, err := input.ParseSize(s)
	if err != nil {
		return err
	}
	*f.P = n
	return nil
}

// Int is a positive integer flag with an upper bound.
type Int struct {
	P    *int
	Name string
	Max  int
}

func (f *Int) String() string { return strconv.Itoa(*f.P) }
func (f *Int) Type() string   { return "int" }

func (f *Int) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 {
		return fmt.Errorf("%q is not a positive integer", s)
	}
	if n > f.Max {
		return fmt.Errorf("%d is more than %d, the largest allowed", n, f.Max)
	}
	*f.P = n
	return nil
}

// Shard is --shard I/N (shard.Parse).
type Shard struct{ Spec *shard.Spec }

func (f Shard) String() string {
	if f.Spec == nil || !f.Spec.On() {
		return ""
	}
	return f.Spec.String()
}

func (f Shard) Set(s string) error {
	spec, err := shard.Parse(s)
	if err != nil {
		return err
	}
	*f.Spec = spec
	return nil
}

func (Shard) Type() string { return "string" }

// Usages lists the flags: name and argument on one line, the description indented below.
func Usages(fs *pflag.FlagSet, argNames map[string]string) string {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		b.WriteString("  ")
		if f.Shorthand != "" {
			b.WriteString("-" + f.Shorthand + ", ")
		}
		b.WriteString("--" + f.Name)
		if a := argNames[f.Name]; a != "" {
			b.WriteString(" " + a)
		}
		b.WriteString("\n")
		usage := f.Usage
		switch f.Value.Type() {
		case "string", "int":
			if f.DefValue != "" && !strings.Contains(usage, "(default") {
				usage += " Default: " + f.DefValue + "."
			}
		}
		b.WriteString(wrap(usage, "      ", 92))
	})
	return b.String()
}

// wrap breaks text into lines of at most width characters, each starting with indent.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}

// IPFamilies is --service-ip-families: a comma-separated list of IP families, checked as it
// is parsed (kubeapiserver.ParseServiceIPFamilies).
type IPFamilies []string

func (f *IPFamilies) String() string { return strings.Join(*f, ",") }

func (f *IPFamilies) Set(s string) error {
	fams, err := kubeapiserver.ParseServiceIPFamilies(s)
	if err != nil {
		return err
	}
	*f = fams
	return nil
}

func (f *IPFamilies) Type() string { return "families" }

// ApplierOptions defines the flags of the appliers' options (appliers.Kind.Options) of the
// kinds that which picks, in the list's order: the reader of each one's values goes to
// values, by name (a flag without argument reads "true" or "false", a repeatable one every
// value given, the others the one value). ApplierArgNames names their arguments.
func ApplierOptions(fs *pflag.FlagSet, values map[string]func() []string, which func(appliers.Kind) bool) {
	for _, k := range appliers.Kinds() {
		if !which(k) {
			continue
		}
		for _, o := range k.Options {
			switch {
			case o.Arg == "":
				on := fs.Bool(o.Name, false, o.Usage)
				values[o.Name] = func() []string { return []string{strconv.FormatBool(*on)} }
			case o.Repeatable:
				var all []string
				StringArrayVarP(fs, &all, o.Name, "", nil, o.Usage)
				values[o.Name] = func() []string { return all }
			default:
				value := fs.String(o.Name, o.Default, o.Usage)
				if o.Alone != "" {
					fs.Lookup(o.Name).NoOptDefVal = o.Alone
				}
				values[o.Name] = func() []string { return []string{*value} }
			}
		}
	}
}

// ApplierArgNames adds the argument name of every applier's option (Option.Arg, "" for a
// switch) to argNames, by the option's name, for the usage (Usages).
func ApplierArgNames(argNames map[string]string) {
	for _, k := range appliers.Kinds() {
		for _, o := range k.Options {
			argNames[o.Name] = o.Arg
		}
	}
}
