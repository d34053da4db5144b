package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// This file answers completion requests from the binary itself: `ssa-diff __complete
// WORDS... CURRENT`, and the same as kubectl_complete-ssa_diff, the executable kubectl runs
// to complete `kubectl ssa-diff ...` (kubectl's plugin completion: the arguments typed after
// the plugin's name, the last the word being completed). The answer is cobra's protocol,
// which kubectl reads: one candidate a line (a tab, then its description), then a line
// ":DIRECTIVE". PowerShell's script asks it too. It knows what the static scripts know:
// completionFlags, blameCompletionFlags, mergeCompletionFlags, the subcommands and the
// shells.

// KubectlCompletionProgram is the name of the kubectl plugin's completion executable: a
// link to (or, on Windows, a copy of) the binary under this name on the PATH completes
// `kubectl ssa-diff`.
const KubectlCompletionProgram = "kubectl_complete-ssa_diff"

// cobra's shell completion directives, as kubectl reads them.
const (
	directiveDefault    = 0  // the candidates; where there are none, the shell's files
	directiveNoSpace    = 2  // no space after the candidate (FORMAT=)
	directiveNoFileComp = 4  // the candidates only, never files
	directiveFilterDirs = 16 // directories only
)

// completion is the answer to one completion request.
type completion struct {
	candidates []string // "value" or "value\tdescription"
	directive  int
}

// runComplete answers a completion request of WORDS (the last the word being completed).
func runComplete(args []string, stdout io.Writer) int {
	c := complete(args, os.ReadDir)
	var b strings.Builder
	for _, cand := range c.candidates {
		b.WriteString(cand + "\n")
	}
	fmt.Fprintf(&b, ":%d\n", c.directive)
	io.WriteString(stdout, b.String())
	return 0
}

// complete completes the last of words, the arguments typed so far (after the program's
// name); readDir lists a directory (for FORMAT=FILE).
func complete(words []string, readDir func(string) ([]os.DirEntry, error)) completion {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	flags := completionFlags("ssa-diff")
	if len(before) > 0 {
		switch before[0] {
		case "completion":
			if len(before) == 1 {
				return choose(completionShells, cur, directiveNoFileComp)
			}
			return completion{directive: directiveNoFileComp}
		case "version":
			return completion{directive: directiveNoFileComp}
		case "blame":
			flags, before = blameCompletionFlags("ssa-diff"), before[1:]
		case "merge":
			flags, before = mergeCompletionFlags("ssa-diff"), before[1:]
		}
	}
	// The flag whose value is being completed: --flag VALUE, or --flag=VALUE.
	var valueOf *completionFlag
	prefix := ""
	if name, value, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(name, "--") {
		if f := findFlag(flags, name); f != nil && f.value {
			valueOf, prefix, cur = f, name+"=", value
		}
	} else if len(before) > 0 {
		if f := findFlag(flags, before[len(before)-1]); f != nil && f.value {
			valueOf = f
		}
	}
	if valueOf != nil {
		c := completeValue(*valueOf, cur, readDir)
		for i := range c.candidates {
			c.candidates[i] = prefix + c.candidates[i]
		}
		return c
	}
	if strings.HasPrefix(cur, "-") {
		var out []string
		for _, f := range flags {
			for _, n := range []string{"--" + f.name, "-" + f.short} {
				if n != "-" && strings.HasPrefix(n, cur) {
					out = append(out, n+"\t"+f.help)
				}
			}
		}
		sort.Strings(out)
		return completion{candidates: out, directive: directiveNoFileComp}
	}
	if len(words) == 1 {
		// The first word: a subcommand, or (none matching) a file.
		return choose(subcommands, cur, directiveDefault)
	}
	return completion{directive: directiveDefault}
}

// findFlag finds the flag a word names (--name or -s).
func findFlag(flags []completionFlag, word string) *completionFlag {
	for i, f := range flags {
		if word == "--"+f.name || (f.short != "" && word == "-"+f.short) {
			return &flags[i]
		}
	}
	return nil
}

// completeValue completes the value of a flag.
func completeValue(f completionFlag, cur string, readDir func(string) ([]os.DirEntry, error)) completion {
	switch {
	case len(f.choices) > 0:
		return choose(f.choices, cur, directiveNoFileComp)
	case f.formatFile:
		if format, path, ok := strings.Cut(cur, "="); ok && isFormatName(format) {
			// The shell completes files of a whole word only: FORMAT=FILE's are listed here.
			return completion{candidates: listPaths(path, format+"=", readDir), directive: directiveNoSpace | directiveNoFileComp}
		}
		c := choose(formatPrefixes(), cur, directiveNoSpace|directiveNoFileComp)
		if len(c.candidates) == 0 {
			return completion{directive: directiveDefault}
		}
		c.candidates = append(c.candidates, listPaths(cur, "", readDir)...)
		return c
	case f.dirs:
		return completion{directive: directiveFilterDirs}
	case f.files:
		return completion{directive: directiveDefault}
	}
	return completion{directive: directiveNoFileComp}
}

// choose is the words that start with cur.
func choose(words []string, cur string, directive int) completion {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, cur) {
			out = append(out, w)
		}
	}
	return completion{candidates: out, directive: directive}
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
