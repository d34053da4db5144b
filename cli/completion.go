package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/report"
)

// This file writes shell completion scripts (`ssa-diff completion bash|zsh|fish`), made
// from the command's own flag set so that they list every flag and never go stale: the
// values of the flags that take a fixed set, files or directories where a flag takes a
// path, and the subcommands.

// subcommands are the words that start a subcommand instead of a prediction.
var subcommands = []string{"blame", "version", "completion"}

// completionShells are the shells completion writes scripts for.
var completionShells = []string{"bash", "zsh", "fish"}

// completionFlag is one flag as the completion scripts see it.
type completionFlag struct {
	name, short, help string
	value             bool     // takes a value
	choices           []string // its values, when they are a fixed set
	files, dirs       bool     // its value is a file (or directory), or a directory
}

// completionFlags lists the command's flags.
func completionFlags(prog string) []completionFlag {
	fs, _, _, _, _ := flagSet(prog, &options{})
	choices := map[string][]string{
		"applier":        appliers.Names(),
		"output":         output.Formats(),
		"color":          {"auto", "always", "never"},
		"subresource":    {"status", "scale"},
		"fail-on":        append(append([]string(nil), report.FailOnValues...), "none", "all"),
		"disable-advice": adviceIDs(),
	}
	for _, k := range appliers.Kinds() {
		for _, o := range k.Options {
			if len(o.Choices) > 0 {
				choices[o.Name] = o.Choices
			}
		}
	}
	files := map[string]bool{"filename": true, "crd": true, "schema": true}
	dirs := map[string]bool{"kustomize": true, "source-root": true}
	var out []completionFlag
	fs.VisitAll(func(f *pflag.Flag) {
		help := f.Usage
		if i := strings.Index(help, ". "); i > 0 {
			help = help[:i]
		}
		help = strings.TrimSuffix(help, ".")
		out = append(out, completionFlag{name: f.Name, short: f.Shorthand, help: help, value: f.Value.Type() != "bool",
			choices: choices[f.Name], files: files[f.Name], dirs: dirs[f.Name]})
	})
	return out
}

// runCompletion writes the completion script of a shell.
func runCompletion(prog string, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "usage: %s completion %s\n", prog, strings.Join(completionShells, "|"))
		return report.ExitError
	}
	flags := completionFlags(prog)
	var err error
	switch args[0] {
	case "bash":
		err = writeBash(stdout, flags)
	case "zsh":
		err = writeZsh(stdout, flags)
	case "fish":
		err = writeFish(stdout, flags)
	default:
		fmt.Fprintf(stderr, "%s completion: unknown shell %q (want %s)\n", prog, args[0], strings.Join(completionShells, ", "))
		return report.ExitError
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return report.ExitError
	}
	return 0
}

// The commands the scripts complete: the binary, and the kubectl plugin's name.
const completionCommands = "ssa-diff kubectl-ssa_diff"

func writeBash(w io.Writer, flags []completionFlag) error {
	var b strings.Builder
	b.WriteString(`# bash completion for ssa-diff: source <(ssa-diff completion bash)
_ssa_diff() {
	local cur prev
	cur="${COMP_WORDS[COMP_CWORD]}"
	prev="${COMP_WORDS[COMP_CWORD-1]}"
	COMPREPLY=()
	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == completion ]]; then
		COMPREPLY=($(compgen -W "` + strings.Join(completionShells, " ") + `" -- "$cur"))
		return
	fi
	case "$prev" in
`)
	var names []string
	for _, f := range flags {
		opts := "--" + f.name
		if f.short != "" {
			opts = "-" + f.short + "|" + opts
		}
		names = append(names, "--"+f.name)
		if f.short != "" {
			names = append(names, "-"+f.short)
		}
		if !f.value {
			continue
		}
		switch {
		case len(f.choices) > 0:
			fmt.Fprintf(&b, "\t%s)\n\t\tCOMPREPLY=($(compgen -W %q -- \"$cur\"))\n\t\treturn ;;\n", opts, strings.Join(f.choices, " "))
		case f.dirs:
			fmt.Fprintf(&b, "\t%s)\n\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n\t\treturn ;;\n", opts)
		case f.files:
			fmt.Fprintf(&b, "\t%s)\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\t\treturn ;;\n", opts)
		default:
			fmt.Fprintf(&b, "\t%s)\n\t\treturn ;;\n", opts)
		}
	}
	sort.Strings(names)
	fmt.Fprintf(&b, `	esac
	if [[ "$cur" == -* ]]; then
		COMPREPLY=($(compgen -W %q -- "$cur"))
		return
	fi
	if [[ ${COMP_CWORD} -eq 1 ]]; then
		COMPREPLY=($(compgen -W %q -- "$cur"))
	fi
	COMPREPLY+=($(compgen -f -- "$cur"))
}
complete -o filenames -o bashdefault -F _ssa_diff %s
`, strings.Join(names, " "), strings.Join(subcommands, " "), completionCommands)
	_, err := io.WriteString(w, b.String())
	return err
}

// zshEscape escapes a description for _arguments: brackets, colons and quotes.
func zshEscape(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`, ":", `\:`, "'", `'\''`, "`", "").Replace(s)
}

func writeZsh(w io.Writer, flags []completionFlag) error {
	var b strings.Builder
	b.WriteString("#compdef ssa-diff kubectl-ssa_diff\n# zsh completion for ssa-diff: ssa-diff completion zsh > \"${fpath[1]}/_ssa-diff\"\n_ssa-diff() {\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == completion ]]; then\n\t\t_values 'shell' " + strings.Join(completionShells, " ") + "\n\t\treturn\n\tfi\n")
	b.WriteString("\t_arguments -s \\\n")
	for _, f := range flags {
		action := ""
		if f.value {
			switch {
			case len(f.choices) > 0:
				action = ":" + f.name + ":(" + strings.Join(f.choices, " ") + ")"
			case f.dirs:
				action = ":directory:_files -/"
			case f.files:
				action = ":file:_files"
			default:
				action = ":" + f.name + ": "
			}
		}
		spec := "--" + f.name
		desc := "[" + zshEscape(f.help) + "]"
		if f.short != "" {
			fmt.Fprintf(&b, "\t\t'*'{-%s,--%s}'%s%s' \\\n", f.short, f.name, desc, action)
			continue
		}
		fmt.Fprintf(&b, "\t\t'*%s%s%s' \\\n", spec, desc, action)
	}
	fmt.Fprintf(&b, "\t\t'1: :->first' \\\n\t\t'*:file:_files'\n\tif [[ $state == first ]]; then\n\t\t_alternative 'commands:command:(%s)' 'files:file:_files'\n\tfi\n}\ncompdef _ssa-diff %s\n", strings.Join(subcommands, " "), completionCommands)
	_, err := io.WriteString(w, b.String())
	return err
}

// fishEscape quotes a string for fish, in single quotes.
func fishEscape(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func writeFish(w io.Writer, flags []completionFlag) error {
	var b strings.Builder
	b.WriteString("# fish completion for ssa-diff: ssa-diff completion fish > ~/.config/fish/completions/ssa-diff.fish\n")
	for _, cmd := range strings.Fields(completionCommands) {
		fmt.Fprintf(&b, "complete -c %s -n '__fish_use_subcommand' -a %s\n", cmd, fishEscape(strings.Join(subcommands, " ")))
		fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from completion' -x -a %s\n", cmd, fishEscape(strings.Join(completionShells, " ")))
		for _, f := range flags {
			line := "complete -c " + cmd
			if f.short != "" {
				line += " -s " + f.short
			}
			line += " -l " + f.name
			if f.value {
				switch {
				case len(f.choices) > 0:
					line += " -x -a " + fishEscape(strings.Join(f.choices, " "))
				case f.dirs:
					line += " -r -a '(__fish_complete_directories)'"
				case f.files:
					line += " -r -F"
				default:
					line += " -x"
				}
			}
			line += " -d " + fishEscape(f.help)
			b.WriteString(line + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
