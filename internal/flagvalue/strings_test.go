package flagvalue

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// stringsSide is one flag set with a repeatable flag defined by pflag's StringArrayVarP or
// by StringArrayVarP.
type stringsSide struct {
	fs     *pflag.FlagSet
	values []string
}

func newStringsSides(def []string) (pf, ours *stringsSide) {
	pf = &stringsSide{fs: pflag.NewFlagSet("x", pflag.ContinueOnError)}
	pf.fs.StringArrayVarP(&pf.values, "v", "v", slices.Clone(def), "values")
	ours = &stringsSide{fs: pflag.NewFlagSet("x", pflag.ContinueOnError)}
	StringArrayVarP(ours.fs, &ours.values, "v", "v", slices.Clone(def), "values")
	return pf, ours
}

// sameStrings fails t where the two sides differ in what the command can see of the flag.
func sameStrings(t *testing.T, step string, pf, ours *stringsSide) {
	t.Helper()
	a, b := pf.fs.Lookup("v"), ours.fs.Lookup("v")
	if a.DefValue != b.DefValue || a.Value.String() != b.Value.String() || a.Value.Type() != b.Value.Type() ||
		!slices.Equal(pf.values, ours.values) || (pf.values == nil) != (ours.values == nil) || a.Changed != b.Changed {
		t.Fatalf("%s: pflag: default %q, value %q (%s), %q, changed %v; Strings: default %q, value %q (%s), %q, changed %v", step,
			a.DefValue, a.Value.String(), a.Value.Type(), pf.values, a.Changed, b.DefValue, b.Value.String(), b.Value.Type(), ours.values, b.Changed)
	}
	sa, sb := a.Value.(pflag.SliceValue), b.Value.(pflag.SliceValue)
	if !slices.Equal(sa.GetSlice(), sb.GetSlice()) {
		t.Fatalf("%s: GetSlice %q, pflag's %q", step, sb.GetSlice(), sa.GetSlice())
	}
	ga, errA := pf.fs.GetStringArray("v")
	gb, errB := ours.fs.GetStringArray("v")
	if !slices.Equal(ga, gb) || (errA == nil) != (errB == nil) {
		t.Fatalf("%s: GetStringArray %q, %v; pflag's %q, %v", step, gb, errB, ga, errA)
	}
}

// checkStrings defines the flag with the default def on both sides, parses args, then
// replaces and appends, comparing the sides after each step.
func checkStrings(t *testing.T, def, args []string, appended string) {
	t.Helper()
	pf, ours := newStringsSides(def)
	sameStrings(t, "defined", pf, ours)
	errA, errB := pf.fs.Parse(args), ours.fs.Parse(args)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("parsing %q: %v; pflag: %v", args, errB, errA)
	}
	sameStrings(t, "parsed", pf, ours)
	for _, s := range []*stringsSide{pf, ours} {
		s.fs.Lookup("v").Value.(pflag.SliceValue).Append(appended)
	}
	sameStrings(t, "appended", pf, ours)
	for _, s := range []*stringsSide{pf, ours} {
		s.fs.Lookup("v").Value.(pflag.SliceValue).Replace(def)
	}
	sameStrings(t, "replaced", pf, ours)
}

func TestStringsIsPflagsStringArray(t *testing.T) {
	for _, def := range [][]string{nil, {}, {"rejected"}, {"a", "b"}, {"a", "", "b"}, {""}, {`\.`}, {"\u00a0x"}, {"x\u00a0", "\ty"},
		{"a", "b,c", `"q"`, "", "x\ny", " lead"}} {
		for _, args := range [][]string{nil, {"-v", "one"}, {"--v=one", "--v", "two,three", "-v", ""}, {"--v"}} {
			checkStrings(t, def, args, "more")
		}
	}
}

// FuzzStringsIsPflagsStringArray compares Strings with pflag's stringArray on any default
// and values (split at NUL): the text of the default and of the values (CSV quoting of
// commas, quotes, line breaks, leading spaces), the values, and pflag.SliceValue.
func FuzzStringsIsPflagsStringArray(f *testing.F) {
	f.Add("", "one\x00two")
	f.Add("rejected", "conflicts,takeover")
	f.Add("a\x00b,c\x00\"q\"", " x\x00\r\n\x00")
	f.Add("a\x00b\x00\\.", "\u2003x\x00x\u2003\x00\\.x")
	f.Fuzz(func(t *testing.T, def, values string) {
		var d []string
		if def != "" {
			d = strings.Split(def, "\x00")
		}
		var args []string
		if values != "" {
			for _, v := range strings.Split(values, "\x00") {
				args = append(args, "--v="+v)
			}
		}
		checkStrings(t, d, args, values)
	})
}
