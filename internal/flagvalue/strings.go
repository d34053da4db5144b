package flagvalue

import (
	"bytes"
	"encoding/csv"
	"strings"

	"github.com/spf13/pflag"
)

// Strings is a repeatable string flag, pflag's stringArray in every way the command sees
// (Set, String, Type, and pflag.SliceValue's methods): the first value given replaces the
// default, each later one is added. It differs in what defining it costs: pflag writes a
// flag's default as text when the flag is defined (its DefValue), and its stringArray
// does so through a CSV writer with a 4 KiB buffer, even for no values at all; every run
// defines some twenty repeatable flags, almost all empty, which Strings writes as "[]"
// without one (TestStringsIsPflagsStringArray, FuzzStringsIsPflagsStringArray).
type Strings struct {
	P       *[]string
	changed bool
}

// StringArrayVarP is pflag.FlagSet.StringArrayVarP with a Strings value.
func StringArrayVarP(fs *pflag.FlagSet, p *[]string, name, shorthand string, value []string, usage string) {
	*p = value
	fs.VarP(&Strings{P: p}, name, shorthand, usage)
}

func (s *Strings) Set(v string) error {
	if !s.changed {
		*s.P = []string{v}
		s.changed = true
	} else {
		*s.P = append(*s.P, v)
	}
	return nil
}

func (s *Strings) Type() string { return "stringArray" }

// String is pflag's: the values as one CSV record, in brackets.
func (s *Strings) String() string {
	if len(*s.P) == 0 {
		return "[]"
	}
	b := &bytes.Buffer{}
	w := csv.NewWriter(b)
	w.Write(*s.P) // writing to a bytes.Buffer does not fail
	w.Flush()
	return "[" + strings.TrimSuffix(b.String(), "\n") + "]"
}

// Append adds a value (pflag.SliceValue).
func (s *Strings) Append(v string) error {
	*s.P = append(*s.P, v)
	return nil
}

// Replace sets the values to a copy of vs (pflag.SliceValue).
func (s *Strings) Replace(vs []string) error {
	*s.P = append(make([]string, 0, len(vs)), vs...)
	return nil
}

// GetSlice returns a copy of the values (pflag.SliceValue).
func (s *Strings) GetSlice() []string { return append(make([]string, 0, len(*s.P)), *s.P...) }
