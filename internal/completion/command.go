package completion

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// A Flag is one flag as the scripts and the answers see it.
type Flag struct {
	// Name is the long name (without --), Short the one letter (or ""), Help the first
	// sentence of its usage.
	Name, Short, Help string
	// Value: the flag takes a value; Choices are its values when they are a fixed set.
	Value   bool
	Choices []string
	// Files: its value is a file (or directory); Dirs: a directory only; FormatFile: FILE or
	// FORMAT=FILE (--output-file).
	Files, Dirs, FormatFile bool
}

// A Command is what completion knows of the command: the prediction's flags, those of the
// subcommands blame and merge, and the output formats (the FORMAT= of a FormatFile flag).
type Command struct {
	Flags, Blame, Merge []Flag
	Formats             []string
}

// Shells are the shells Script writes scripts for.
func Shells() []string { return []string{"bash", "zsh", "fish", "powershell"} }

// Subcommands are the words that start a subcommand instead of a prediction.
func Subcommands() []string { return []string{"blame", "version", "completion", "merge"} }

// FlagsOf is the flags of a flag set, each with its values: choices, and whether it takes
// files, directories or FORMAT=FILE, by flag name.
func FlagsOf(fs *pflag.FlagSet, choices map[string][]string, files, dirs, formatFiles map[string]bool) []Flag {
	var out []Flag
	fs.VisitAll(func(f *pflag.Flag) {
		help := f.Usage
		if i := strings.Index(help, ". "); i > 0 {
			help = help[:i]
		}
		help = strings.TrimSuffix(help, ".")
		out = append(out, Flag{Name: f.Name, Short: f.Shorthand, Help: help, Value: f.Value.Type() != "bool",
			Choices: choices[f.Name], Files: files[f.Name], Dirs: dirs[f.Name], FormatFile: formatFiles[f.Name]})
	})
	return out
}

// Script writes the completion script of a shell (one of Shells): bash, zsh and fish get
// static scripts, PowerShell's asks the binary (`ssa-diff __complete`, Complete).
func (c Command) Script(w io.Writer, shell string) error {
	switch shell {
	case "bash":
		return c.writeBash(w)
	case "zsh":
		return c.writeZsh(w)
	case "fish":
		return c.writeFish(w)
	case "powershell":
		return writePowerShell(w)
	}
	return fmt.Errorf("unknown shell %q (want %s)", shell, strings.Join(Shells(), ", "))
}

// formatPrefixes are the FORMAT= words of a FormatFile flag.
func (c Command) formatPrefixes() []string {
	var out []string
	for _, f := range c.Formats {
		out = append(out, f+"=")
	}
	return out
}

func (c Command) isFormat(name string) bool {
	for _, f := range c.Formats {
		if f == name {
			return true
		}
	}
	return false
}
