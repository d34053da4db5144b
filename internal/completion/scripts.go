package completion

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// commands are the commands the scripts complete: the binary, and the kubectl plugin's name.
const commands = "ssa-diff kubectl-ssa_diff"

// bashCases writes the `case "$prev"` arms of flags' values.
func (c Command) bashCases(b *strings.Builder, flags []Flag, indent string) (names []string) {
	for _, f := range flags {
		opts := "--" + f.Name
		names = append(names, "--"+f.Name)
		if f.Short != "" {
			opts = "-" + f.Short + "|" + opts
			names = append(names, "-"+f.Short)
		}
		if !f.Value {
			continue
		}
		switch {
		case len(f.Choices) > 0:
			fmt.Fprintf(b, "%s%s)\n%s\tCOMPREPLY=($(compgen -W %q -- \"$cur\"))\n%s\treturn ;;\n", indent, opts, indent, strings.Join(f.Choices, " "), indent)
		case f.FormatFile:
			fmt.Fprintf(b, "%s%s)\n%s\t_ssa_diff_format_file %q\n%s\treturn ;;\n", indent, opts, indent, strings.Join(c.formatPrefixes(), " "), indent)
		case f.Dirs:
			fmt.Fprintf(b, "%s%s)\n%s\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n%s\treturn ;;\n", indent, opts, indent, indent)
		case f.Files:
			fmt.Fprintf(b, "%s%s)\n%s\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n%s\treturn ;;\n", indent, opts, indent, indent)
		default:
			fmt.Fprintf(b, "%s%s)\n%s\treturn ;;\n", indent, opts, indent)
		}
	}
	sort.Strings(names)
	return names
}

func (c Command) writeBash(w io.Writer) error {
	flags, blame, merge := c.Flags, c.Blame, c.Merge
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
		COMPREPLY=($(compgen -W "` + strings.Join(Shells(), " ") + `" -- "$cur"))
		return
	fi
	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == version ]]; then
		return
	fi
`)
	// blame and merge: their own flags, then files.
	for _, sub := range []struct {
		name string
		fs   []Flag
	}{{"blame", blame}, {"merge", merge}} {
		fmt.Fprintf(&b, `	if [[ ${COMP_CWORD} -ge 2 && "${COMP_WORDS[1]}" == %s ]]; then
		case "$prev" in
`, sub.name)
		names := c.bashCases(&b, sub.fs, "\t\t")
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
	names := c.bashCases(&b, flags, "\t")
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
`, strings.Join(names, " "), strings.Join(Subcommands(), " "), commands)
	_, err := io.WriteString(w, b.String())
	return err
}

// zshEscape escapes a description for _arguments: brackets, colons and quotes.
func zshEscape(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`, ":", `\:`, "'", `'\''`, "`", "").Replace(s)
}

// zshSpecs writes _arguments' specs of flags.
func zshSpecs(b *strings.Builder, flags []Flag, indent string) {
	for _, f := range flags {
		action := ""
		if f.Value {
			switch {
			case len(f.Choices) > 0:
				// A value with a comma (IPv4,IPv6) is one word: quoted for the
				// parenthesised list.
				vals := make([]string, len(f.Choices))
				for i, c := range f.Choices {
					vals[i] = strings.ReplaceAll(c, ",", `\,`)
				}
				action = ":" + f.Name + ":(" + strings.Join(vals, " ") + ")"
			case f.FormatFile:
				action = ":file:_ssa-diff-format-file"
			case f.Dirs:
				action = ":directory:_files -/"
			case f.Files:
				action = ":file:_files"
			default:
				action = ":" + f.Name + ": "
			}
		}
		desc := "[" + zshEscape(f.Help) + "]"
		if f.Short != "" {
			fmt.Fprintf(b, "%s'*'{-%s,--%s}'%s%s' \\\n", indent, f.Short, f.Name, desc, action)
			continue
		}
		fmt.Fprintf(b, "%s'*--%s%s%s' \\\n", indent, f.Name, desc, action)
	}
}

func (c Command) writeZsh(w io.Writer) error {
	flags, blame, merge := c.Flags, c.Blame, c.Merge
	var b strings.Builder
	b.WriteString("#compdef ssa-diff kubectl-ssa_diff\n# zsh completion for ssa-diff: ssa-diff completion zsh > \"${fpath[1]}/_ssa-diff\"\n")
	fmt.Fprintf(&b, "# --output-file: FORMAT= then a file, or a file.\n_ssa-diff-format-file() {\n\tif compset -P '*='; then\n\t\t_files\n\telse\n\t\tcompadd -S '' -- %s\n\t\t_files\n\tfi\n}\n", strings.Join(c.formatPrefixes(), " "))
	b.WriteString("_ssa-diff() {\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == completion ]]; then\n\t\t_values 'shell' " + strings.Join(Shells(), " ") + "\n\t\treturn\n\tfi\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == version ]]; then\n\t\treturn\n\tfi\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == blame ]]; then\n\t\tshift words\n\t\t(( CURRENT-- ))\n\t\t_arguments -s \\\n")
	zshSpecs(&b, blame, "\t\t\t")
	b.WriteString("\t\t\t'1:live:_files'\n\t\treturn\n\tfi\n")
	b.WriteString("\tif (( CURRENT > 2 )) && [[ ${words[2]} == merge ]]; then\n\t\tshift words\n\t\t(( CURRENT-- ))\n\t\t_arguments -s \\\n")
	zshSpecs(&b, merge, "\t\t\t")
	b.WriteString("\t\t\t'*:report:_files'\n\t\treturn\n\tfi\n")
	b.WriteString("\t_arguments -s \\\n")
	zshSpecs(&b, flags, "\t\t")
	fmt.Fprintf(&b, "\t\t'1: :->first' \\\n\t\t'*:file:_files'\n\tif [[ $state == first ]]; then\n\t\t_alternative 'commands:command:(%s)' 'files:file:_files'\n\tfi\n}\ncompdef _ssa-diff %s\n", strings.Join(Subcommands(), " "), commands)
	_, err := io.WriteString(w, b.String())
	return err
}

// fishEscape quotes a string for fish, in single quotes.
func fishEscape(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// fishLines writes complete commands of flags for cmd, when cond holds.
func fishLines(b *strings.Builder, cmd, cond string, flags []Flag) {
	for _, f := range flags {
		line := "complete -c " + cmd + " -n " + fishEscape(cond)
		if f.Short != "" {
			line += " -s " + f.Short
		}
		line += " -l " + f.Name
		if f.Value {
			switch {
			case len(f.Choices) > 0:
				line += " -x -a " + fishEscape(strings.Join(f.Choices, " "))
			case f.FormatFile:
				line += " -x -a '(__ssa_diff_format_file)'"
			case f.Dirs:
				line += " -x -a '(__fish_complete_directories)'"
			case f.Files:
				line += " -r -F"
			default:
				line += " -x"
			}
		}
		line += " -d " + fishEscape(f.Help)
		b.WriteString(line + "\n")
	}
}

func (c Command) writeFish(w io.Writer) error {
	flags, blame, merge := c.Flags, c.Blame, c.Merge
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
`, strings.Join(c.formatPrefixes(), " "))
	sub := "__fish_seen_subcommand_from " + strings.Join(Subcommands(), " ")
	for _, cmd := range strings.Fields(commands) {
		fmt.Fprintf(&b, "complete -c %s -n '__fish_use_subcommand' -a %s\n", cmd, fishEscape(strings.Join(Subcommands(), " ")))
		fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from completion' -x -a %s\n", cmd, fishEscape(strings.Join(Shells(), " ")))
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
