package flagvalue

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/pflag"
)

// Strings is a repeatable string flag, pflag's stringArray in every way the command sees
// (Set, String, Type, and pflag.SliceValue's methods): the first value given replaces the
// default, each later one is added. It differs in what defining it costs: pflag writes a
// flag's default as text when the flag is defined (its DefValue), and its stringArray
// does so through a CSV writer with a 4 KiB buffer, even for no values at all; every run
// defines some twenty repeatable flags, almost all empty, which Strings writes as "[]"
// without one, and values CSV leaves unquoted joined by commas
// (TestStringsIsPflagsStringArray, FuzzStringsIsPflagsStringArray).
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

// String is pflag's: the values as one CSV record, in brackets. Values that CSV writes as
// they are (plainCSV) are joined by commas without a CSV writer (--fail-on's default,
// "rejected", is written when the flag is defined).
func (s *Strings) String() string {
	if len(*s.P) == 0 {
		return "[]"
	}
	if !slices.ContainsFunc(*s.P, func(v string) bool { return !plainCSV(v) }) {
		return "[" + strings.Join(*s.P, ",") + "]"
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

// plainCSV reports whether encoding/csv's writer (comma-separated) writes v as it is: it
// quotes a value holding a comma, a quote or a line break, one starting with a space
// (unicode.IsSpace), and `\.`.
func plainCSV(v string) bool {
	if v == "" {
		return true
	}
	if v == `\.` || strings.ContainsAny(v, ",\"\r\n") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(v)
	return !unicode.IsSpace(r)
}
