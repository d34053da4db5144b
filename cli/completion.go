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
	"github.com/ssa-diff/ssa-diff/kube"
)

// This file writes shell completion scripts (`ssa-diff completion bash|zsh|fish|powershell`),
// made from the command's own flag sets so that they list every flag and never go stale:
// the values of the flags that take a fixed set (formats, minors, appliers …), files or
// directories where a flag takes a path, `FORMAT=` then a file for --output-file, the
// subcommands and blame's flags. bash, zsh and fish get static scripts; PowerShell's script
// and the kubectl plugin's completion executable ask the binary itself (complete.go).

// subcommands are the words that start a subcommand instead of a prediction.
var subcommands = []string{"blame", "version", "completion", "merge"}

// completionShells are the shells completion writes scripts for.
var completionShells = []string{"bash", "zsh", "fish", "powershell"}

// completionFlag is one flag as the completion scripts see it.
type completionFlag struct {
	name, short, help string
	value             bool     // takes a value
	choices           []string // its values, when they are a fixed set
	files, dirs       bool     // its value is a file (or directory), or a directory
	formatFile        bool     // its value is FILE or FORMAT=FILE (--output-file)
}

// ipFamilyChoices are --service-ip-families' values.
var ipFamilyChoices = []string{"IPv4", "IPv6", "IPv4,IPv6", "IPv6,IPv4"}

// kubeVersionChoices are --kube-version's values: the supported minors and nearest.
func kubeVersionChoices() []string {
	var vs []string
	for _, v := range kube.Minors() {
		vs = append(vs, v.String())
	}
	return append(vs, "nearest")
}

// completionFlags lists the prediction's flags.
func completionFlags(prog string) []completionFlag {
	fs, _, _, _, _ := flagSet(prog, &options{})
	choices := map[string][]string{
		"applier":             appliers.Names(),
		"output":              output.Formats(),
		"color":               {"auto", "always", "never"},
		"subresource":         {"status", "scale", "resize", "ephemeralcontainers"},
		"verb":                {"apply", "update", "patch", "create"},
		"patch-type":          {"json", "merge", "strategic"},
		"fail-on":             append(append([]string(nil), report.FailOnValues...), "none", "all"),
		"disable-advice":      adviceIDs(),
		"kube-version":        kubeVersionChoices(),
		"service-ip-families": ipFamilyChoices,
	}
	for _, k := range appliers.Kinds() {
		for _, o := range k.Options {
			switch {
			case len(o.Choices) > 0:
				choices[o.Name] = o.Choices
			case len(o.Completions) > 0:
				choices[o.Name] = o.Completions
			}
		}
	}
	files := map[string]bool{"filename": true, "crd": true, "schema": true, "report-html": true, "save-live": true, "kubeconfig": true, "admission-from": true,
		"argocd-application": true, "flux-kustomization-file": true}
	dirs := map[string]bool{"kustomize": true, "source-root": true}
	return flagsOf(fs, choices, files, dirs, map[string]bool{"output-file": true})
}

// blameCompletionFlags lists blame's flags.
func blameCompletionFlags(prog string) []completionFlag {
	fs, _ := blameFlagSet(prog, &blameOptions{})
	return flagsOf(fs, map[string][]string{
		"time":   {"relative", "full", "none"},
		"output": {"text", "json"},
		"color":  {"auto", "always", "never"},
	}, nil, nil, nil)
}

// mergeCompletionFlags lists merge's flags: the prediction's that say how to print
// (mergeFlags), with their values.
func mergeCompletionFlags(prog string) []completionFlag {
	var out []completionFlag
	for _, f := range completionFlags(prog) {
		if mergeFlags[f.name] {
			out = append(out, f)
		}
	}
	return out
}

func flagsOf(fs *pflag.FlagSet, choices map[string][]string, files, dirs, formatFiles map[string]bool) []completionFlag {
	var out []completionFlag
	fs.VisitAll(func(f *pflag.Flag) {
		help := f.Usage
		if i := strings.Index(help, ". "); i > 0 {
			help = help[:i]
		}
		help = strings.TrimSuffix(help, ".")
		out = append(out, completionFlag{name: f.Name, short: f.Shorthand, help: help, value: f.Value.Type() != "bool",
			choices: choices[f.Name], files: files[f.Name], dirs: dirs[f.Name], formatFile: formatFiles[f.Name]})
	})
	return out
}

// formatPrefixes are --output-file's FORMAT= words.
func formatPrefixes() []string {
	var out []string
	for _, f := range output.Formats() {
		out = append(out, f+"=")
	}
	return out
}

// runCompletion writes the completion script of a shell.
func runCompletion(prog string, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return usageError(stderr, prog, fmt.Sprintf("completion takes one shell: %s completion %s", prog, strings.Join(completionShells, "|")))
	}
	flags, blame, merge := completionFlags(prog), blameCompletionFlags(prog), mergeCompletionFlags(prog)
	var err error
	switch args[0] {
	case "bash":
		err = writeBash(stdout, flags, blame, merge)
	case "zsh":
		err = writeZsh(stdout, flags, blame, merge)
	case "fish":
		err = writeFish(stdout, flags, blame, merge)
	case "powershell":
		err = writePowerShell(stdout)
	default:
		return usageError(stderr, prog, fmt.Sprintf("completion: unknown shell %q (want %s)", args[0], strings.Join(completionShells, ", ")))
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return report.ExitError
	}
	return 0
}

// The commands the scripts complete: the binary, and the kubectl plugin's name.
const completionCommands = "ssa-diff kubectl-ssa_diff"

// bashCases writes the `case "$prev"` arms of flags' values.
func bashCases(b *strings.Builder, flags []completionFlag, indent string) (names []string) {
	for _, f := range flags {
		opts := "--" + f.name
		names = append(names, "--"+f.name)
		if f.short != "" {
			opts = "-" + f.short + "|" + opts
			names = append(names, "-"+f.short)
		}
		if !f.value {
			continue
		}
		switch {
		case len(f.choices) > 0:
			fmt.Fprintf(b, "%s%s)\n%s\tCOMPREPLY=($(compgen -W %q -- \"$cur\"))\n%s\treturn ;;\n", indent, opts, indent, strings.Join(f.choices, " "), indent)
		case f.formatFile:
			fmt.Fprintf(b, "%s%s)\n%s\t_ssa_diff_format_file %q\n%s\treturn ;;\n", indent, opts, indent, strings.Join(formatPrefixes(), " "), indent)
		case f.dirs:
			fmt.Fprintf(b, "%s%s)\n%s\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n%s\treturn ;;\n", indent, opts, indent, indent)
		case f.files:
			fmt.Fprintf(b, "%s%s)\n%s\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n%s\treturn ;;\n", indent, opts, indent, indent)
		default:
			fmt.Fprintf(b, "%s%s)\n%s\treturn ;;\n", indent, opts, indent)
		}
	}
	sort.Strings(names)
	return names
}

func writeBash(w io.Writer, flags, blame, merge []completionFlag) error {
	var b strings.Builder
	b.WriteString(`# bash completion for ssa-diff: source <(ssa-diff completion bash)
# --output-file: FORMAT= then a file, or a file.
_ssa_diff_format_file() {
	if [[ "$cur" == *=* ]]; then
		local format="${cur%%=*}=" path="${cur#*=}"
		COMPREPLY=($(compgen -P "$format" -f -- "$path"))
	else
		COMPREPLY=($(compgen -W "$1" -- "$cur") $(compgen -f -- "$cur"))
	fi
	compopt -o nospace 2>/dev/null
}
_ssa_diff() {
	local cur prev w=${COMP_CWORD}
	cur="${COMP_WORDS[w]}"
	prev="${COMP_WORDS[w-1]}"
	COMPREPLY=()
	# bash splits words at = (COMP_WORDBREAKS): the value of --flag=VALUE, and the file of
	# --output-file FORMAT=FILE, come after a word "=" (or are it, right after the =).
	if [[ "$cur" == "=" ]]; then
		cur=""
		w=$((w + 1))
	fi
	if [[ "${COMP_WORDS[w-1]}" == "=" && ${w} -ge 3 ]]; then
		prev="${COMP_WORDS[w-2]}"
		if [[ "${COMP_WORDS[w-3]}" == --output-file || ( "${COMP_WORDS[w-3]}" == "=" && "${COMP_WORDS[w-4]}" == --output-file ) ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
			return
		fi
	fi
	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == completion ]]; then
		COMPREPLY=($(compgen -W "` + strings.Join(completionShells, " ") + `" -- "$cur"))
		return
	fi
	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == version ]]; then
		return
	fi
`)
	// blame and merge: their own flags, then files.
	for _, sub := range []struct {
		name string
		fs   []completionFlag
	}{{"blame", blame}, {"merge", merge}} {
		fmt.Fprintf(&b, `	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == %s ]]; then
		case "$prev" in
`, sub.name)
		names := bashCases(&b, sub.fs, "\t\t")
		fmt.Fprintf(&b, `		esac
		if [[ "$cur" == -* ]]; then
			COMPREPLY=($(compgen -W %q -- "$cur"))
			return
		fi
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	fi
`, strings.Join(names, " "))
	}
	b.WriteString(`	case "$prev" in
`)
	names := bashCases(&b, flags, "\t")
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

// zshSpecs writes _arguments' specs of flags.
func zshSpecs(b *strings.Builder, flags []completionFlag, indent string) {
	for _, f := range flags {
		action := ""
		if f.value {
			switch {
			case len(f.choices) > 0:
				// A value with a comma (IPv4,IPv6) is one word: quoted for the
				// parenthesised list.
				vals := make([]string, len(f.choices))
				for i, c := range f.choices {
					vals[i] = strings.ReplaceAll(c, ",", `\,`)
				}
				action = ":" + f.name + ":(" + strings.Join(vals, " ") + ")"
			case f.formatFile:
				action = ":file:_ssa-diff-format-file"
			case f.dirs:
				action = ":directory:_files -/"
			case f.files:
				action = ":file:_files"
			default:
				action = ":" + f.name + ": "
			}
		}
		desc := "[" + zshEscape(f.help) + "]"
		if f.short != "" {
			fmt.Fprintf(b, "%s'*'{-%s,--%s}'%s%s' \\\n", indent, f.short, f.name, desc, action)
			continue
		}
		fmt.Fprintf(b, "%s'*--%s%s%s' \\\n", indent, f.name, desc, action)
	}
}

func writeZsh(w io.Writer, flags, blame, merge []completionFlag) error {
	var b strings.Builder
	b.WriteString("#compdef ssa-diff kubectl-ssa_diff\n# zsh completion for ssa-diff: ssa-diff completion zsh > \"${fpath[1]}/_ssa-diff\"\n")
	fmt.Fprintf(&b, "# --output-file: FORMAT= then a file, or a file.\n_ssa-diff-format-file() {\n\tif compset -P '*='; then\n\t\t_files\n\telse\n\t\tcompadd -S '' -- %s\n\t\t_files\n\tfi\n}\n", strings.Join(formatPrefixes(), " "))
	b.WriteString("_ssa-diff() {\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == completion ]]; then\n\t\t_values 'shell' " + strings.Join(completionShells, " ") + "\n\t\treturn\n\tfi\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == version ]]; then\n\t\treturn\n\tfi\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == blame ]]; then\n\t\tshift words\n\t\t(( CURRENT-- ))\n\t\t_arguments -s \\\n")
	zshSpecs(&b, blame, "\t\t\t")
	b.WriteString("\t\t\t'1:live:_files'\n\t\treturn\n\tfi\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == merge ]]; then\n\t\tshift words\n\t\t(( CURRENT-- ))\n\t\t_arguments -s \\\n")
	zshSpecs(&b, merge, "\t\t\t")
	b.WriteString("\t\t\t'*:report:_files'\n\t\treturn\n\tfi\n")
	b.WriteString("\t_arguments -s \\\n")
	zshSpecs(&b, flags, "\t\t")
	fmt.Fprintf(&b, "\t\t'1: :->first' \\\n\t\t'*:file:_files'\n\tif [[ $state == first ]]; then\n\t\t_alternative 'commands:command:(%s)' 'files:file:_files'\n\tfi\n}\ncompdef _ssa-diff %s\n", strings.Join(subcommands, " "), completionCommands)
	_, err := io.WriteString(w, b.String())
	return err
}

// fishEscape quotes a string for fish, in single quotes.
func fishEscape(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// fishLines writes complete commands of flags for cmd, when cond holds.
func fishLines(b *strings.Builder, cmd, cond string, flags []completionFlag) {
	for _, f := range flags {
		line := "complete -c " + cmd + " -n " + fishEscape(cond)
		if f.short != "" {
			line += " -s " + f.short
		}
		line += " -l " + f.name
		if f.value {
			switch {
			case len(f.choices) > 0:
				line += " -x -a " + fishEscape(strings.Join(f.choices, " "))
			case f.formatFile:
				line += " -x -a '(__ssa_diff_format_file)'"
			case f.dirs:
				line += " -x -a '(__fish_complete_directories)'"
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

func writeFish(w io.Writer, flags, blame, merge []completionFlag) error {
	var b strings.Builder
	b.WriteString("# fish completion for ssa-diff: ssa-diff completion fish > ~/.config/fish/completions/ssa-diff.fish\n")
	fmt.Fprintf(&b, `# --output-file: FORMAT= then a file, or a file.
function __ssa_diff_format_file
	set -l tok (commandline -ct)
	if string match -q -- '*=*' $tok
		set -l parts (string split -m 1 = -- $tok)
		__fish_complete_path $parts[2] | string replace -r '^' "$parts[1]="
	else
		printf '%%s\n' %s
		__fish_complete_path $tok
	end
end
`, strings.Join(formatPrefixes(), " "))
	sub := "__fish_seen_subcommand_from " + strings.Join(subcommands, " ")
	for _, cmd := range strings.Fields(completionCommands) {
		fmt.Fprintf(&b, "complete -c %s -n '__fish_use_subcommand' -a %s\n", cmd, fishEscape(strings.Join(subcommands, " ")))
		fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from completion' -x -a %s\n", cmd, fishEscape(strings.Join(completionShells, " ")))
		fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from version' -x\n", cmd)
		fishLines(&b, cmd, "not "+sub, flags)
		fishLines(&b, cmd, "__fish_seen_subcommand_from blame", blame)
		fishLines(&b, cmd, "__fish_seen_subcommand_from merge", merge)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// powerShellScript completes ssa-diff and kubectl-ssa_diff in PowerShell by asking the
// binary (`__complete`, complete.go): the words before the cursor and the one completed go
// to it; its candidates come back as completion results; with none, PowerShell's own file
// completion runs (files and directories), unless the directive forbids files (4).
const powerShellScript = `# PowerShell completion for ssa-diff: ssa-diff completion powershell | Out-String | Invoke-Expression
# (add that line to $PROFILE to keep it). It asks the binary: ssa-diff __complete WORDS... CURRENT.
Register-ArgumentCompleter -Native -CommandName 'ssa-diff', 'kubectl-ssa_diff' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $program = $commandAst.CommandElements[0].Extent.Text
    $words = @()
    foreach ($element in ($commandAst.CommandElements | Select-Object -Skip 1)) {
        if ($element.Extent.StartOffset -ge $cursorPosition) { break }
        $words += $element.Extent.Text
    }
    if ($wordToComplete -ne '') {
        $words = @($words | Select-Object -SkipLast 1)
    }
    $current = $wordToComplete
    if ($current -eq '' -and $PSVersionTable.PSVersion -lt [version]'7.3.0') {
        # Before 7.3, an empty argument is not passed to a native command.
        $current = '""'
    }
    $out = @(& $program __complete @words $current 2>$null)
    $directive = 0
    $candidates = @()
    foreach ($line in $out) {
        if ($line -match '^:(\d+)$') {
            $directive = [int]$Matches[1]
        } elseif ($line -ne '') {
            $candidates += $line
        }
    }
    if ($candidates.Count -eq 0) {
        if (($directive -band 4) -ne 0) {
            return ''
        }
        # PowerShell's own completion: files and directories (16, directories only, too).
        return
    }
    foreach ($candidate in $candidates) {
        $value, $description = $candidate -split [char]9, 2
        if (-not $description) {
            $description = $value
        }
        [System.Management.Automation.CompletionResult]::new($value, $value, 'ParameterValue', $description)
    }
}
`

func writePowerShell(w io.Writer) error {
	_, err := io.WriteString(w, powerShellScript)
	return err
}
