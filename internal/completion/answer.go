package completion

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Directive is cobra's shell completion directive, as kubectl reads it: what the shell does
// beside offering the candidates.
type Directive int

// The directives.
const (
	Default    Directive = 0  // the candidates; where there are none, the shell's files
	NoSpace    Directive = 2  // no space after the candidate (FORMAT=)
	NoFileComp Directive = 4  // the candidates only, never files
	FilterDirs Directive = 16 // directories only
)

// An Answer is the answer to one completion request: its candidates ("value" or
// "value\tdescription"), and what the shell does beside them.
type Answer struct {
	Candidates []string
	Directive  Directive
}

// String is the answer in cobra's protocol, as kubectl reads it: one candidate a line, then
// ":DIRECTIVE".
func (a Answer) String() string {
	var b strings.Builder
	for _, cand := range a.Candidates {
		b.WriteString(cand + "\n")
	}
	fmt.Fprintf(&b, ":%d\n", a.Directive)
	return b.String()
}

// Complete completes the last of words, the arguments typed so far (after the program's
// name); readDir lists a directory (for FORMAT=FILE).
func (c Command) Complete(words []string, readDir func(string) ([]os.DirEntry, error)) Answer {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	flags := c.Flags
	if len(before) > 0 {
		switch before[0] {
		case "completion":
			if len(before) == 1 {
				return choose(Shells(), cur, NoFileComp)
			}
			return Answer{Directive: NoFileComp}
		case "version":
			return Answer{Directive: NoFileComp}
		case "blame":
			flags, before = c.Blame, before[1:]
		case "merge":
			flags, before = c.Merge, before[1:]
		}
	}
	// The flag whose value is being completed: --flag VALUE, or --flag=VALUE.
	var valueOf *Flag
	prefix := ""
	if name, value, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(name, "--") {
		if f := findFlag(flags, name); f != nil && f.Value {
			valueOf, prefix, cur = f, name+"=", value
		}
	} else if len(before) > 0 {
		if f := findFlag(flags, before[len(before)-1]); f != nil && f.Value {
			valueOf = f
		}
	}
	if valueOf != nil {
		a := c.value(*valueOf, cur, readDir)
		for i := range a.Candidates {
			a.Candidates[i] = prefix + a.Candidates[i]
		}
		return a
	}
	if strings.HasPrefix(cur, "-") {
		var out []string
		for _, f := range flags {
			for _, n := range []string{"--" + f.Name, "-" + f.Short} {
				if n != "-" && strings.HasPrefix(n, cur) {
					out = append(out, n+"\t"+f.Help)
				}
			}
		}
		sort.Strings(out)
		return Answer{Candidates: out, Directive: NoFileComp}
	}
	if len(words) == 1 {
		// The first word: a subcommand, or (none matching) a file.
		return choose(Subcommands(), cur, Default)
	}
	return Answer{Directive: Default}
}

// findFlag finds the flag a word names (--name or -s).
func findFlag(flags []Flag, word string) *Flag {
	for i, f := range flags {
		if word == "--"+f.Name || (f.Short != "" && word == "-"+f.Short) {
			return &flags[i]
		}
	}
	return nil
}

// value completes the value of a flag.
func (c Command) value(f Flag, cur string, readDir func(string) ([]os.DirEntry, error)) Answer {
	switch {
	case len(f.Choices) > 0:
		return choose(f.Choices, cur, NoFileComp)
	case f.FormatFile:
		if format, path, ok := strings.Cut(cur, "="); ok && c.isFormat(format) {
			// The shell completes files of a whole word only: FORMAT=FILE's are listed here.
			return Answer{Candidates: listPaths(path, format+"=", readDir), Directive: NoSpace | NoFileComp}
		}
		a := choose(c.formatPrefixes(), cur, NoSpace|NoFileComp)
		if len(a.Candidates) == 0 {
			return Answer{Directive: Default}
		}
		a.Candidates = append(a.Candidates, listPaths(cur, "", readDir)...)
		return a
	case f.Dirs:
		return Answer{Directive: FilterDirs}
	case f.Files:
		return Answer{Directive: Default}
	}
	return Answer{Directive: NoFileComp}
}

// choose is the words that start with cur.
func choose(words []string, cur string, directive Directive) Answer {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, cur) {
			out = append(out, w)
		}
	}
	return Answer{Candidates: out, Directive: directive}
}

// listPaths lists the files and directories whose path starts with partial (a directory's
// with a slash after it), each after prefix.
func listPaths(partial, prefix string, readDir func(string) ([]os.DirEntry, error)) []string {
	dir, base := filepath.Split(partial)
	read := dir
	if read == "" {
		read = "."
	}
	entries, err := readDir(read)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		p := dir + name
		if e.IsDir() {
			p += string(filepath.Separator)
		}
		out = append(out, prefix+p)
	}
	return out
}
