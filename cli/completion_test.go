package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/completion"
)

// completionScript is `ssa-diff completion SHELL`, written to a file of dir.
func completionScript(t *testing.T, dir, shell string) string {
	t.Helper()
	out, stderr, code := run(t, "", "completion", shell)
	if code != 0 || stderr != "" {
		t.Fatalf("completion %s: exit %d, %s", shell, code, stderr)
	}
	path := filepath.Join(dir, "ssa-diff."+shell)
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompletionScriptsGolden: each shell's script is its golden file
// (cli/testdata/golden/completion/, -update rewrites them); the static ones name every flag
// of the prediction and of blame, and the values of the flags that take a fixed set.
func TestCompletionScriptsGolden(t *testing.T) {
	flags, blame, merge := completionFlags("ssa-diff"), blameCompletionFlags("ssa-diff"), mergeCompletionFlags("ssa-diff")
	if len(flags) < 50 || len(blame) != 5 || len(merge) != len(mergeFlags) {
		t.Fatalf("%d flags, %d of blame, %d of merge (want %d)", len(flags), len(blame), len(merge), len(mergeFlags))
	}
	for _, shell := range completion.Shells() {
		out, _, _ := run(t, "", "completion", shell)
		golden(t, filepath.Join("completion", "ssa-diff."+shell), []byte(out))
		if shell == "powershell" {
			// It asks the binary (__complete), which knows the flags.
			for _, want := range []string{"Register-ArgumentCompleter -Native -CommandName 'ssa-diff', 'kubectl-ssa_diff'", "& $program __complete @words $current"} {
				if !strings.Contains(out, want) {
					t.Errorf("powershell: no %q", want)
				}
			}
			continue
		}
		for _, f := range append(append([]completion.Flag(nil), flags...), blame...) {
			if !strings.Contains(out, f.Name) {
				t.Errorf("%s: no --%s", shell, f.Name)
			}
		}
		for _, v := range []string{"argocd", "markdown", "approximate", "annotation+label", "fights-controller", "1.34", "nearest", "IPv6", "json=", "relative"} {
			if !strings.Contains(out, v) {
				t.Errorf("%s: the value %q is not offered", shell, v)
			}
		}
	}
	if _, _, code := run(t, "", "completion", "tcsh"); code != 2 {
		t.Errorf("an unknown shell: exit %d", code)
	}
}

// TestEveryValueFlagCompletes: a flag that takes a file, a directory, a format, a minor or
// another fixed set completes its values (a new flag without them fails here).
func TestEveryValueFlagCompletes(t *testing.T) {
	check := func(fs *pflag.FlagSet, argNames map[string]string, flags []completion.Flag) {
		byName := map[string]completion.Flag{}
		for _, f := range flags {
			byName[f.Name] = f
		}
		fs.VisitAll(func(pf *pflag.Flag) {
			f, arg := byName[pf.Name], argNames[pf.Name]
			paths := f.Files || f.Dirs || f.FormatFile
			switch {
			case strings.Contains(arg, "PATH") || strings.Contains(arg, "FILE") || strings.Contains(arg, "DIR"):
				if !paths {
					t.Errorf("--%s %s completes no paths", pf.Name, arg)
				}
			case strings.Contains(arg, "|") || pf.Name == "kube-version" || map[string]bool{"FORMAT": true, "MINOR": true, "WHEN": true, "METHOD": true,
				"MODE": true, "FAMILIES": true, "LIST": true, "ID": true}[arg]:
				if len(f.Choices) == 0 && pf.Name != "argocd-installation-id" {
					t.Errorf("--%s %s completes no values", pf.Name, arg)
				}
			}
			if pf.Value.Type() != "bool" && arg == "" {
				t.Errorf("--%s takes a value that --help does not name", pf.Name)
			}
		})
	}
	fs, _, _, _ := flagSet("ssa-diff", &options{})
	check(fs, flagArgNames(), completionFlags("ssa-diff"))
	bfs, bnames := blameFlagSet("ssa-diff", &blameOptions{})
	check(bfs, bnames, blameCompletionFlags("ssa-diff"))
	if got := strings.Join(byFlag(completionFlags("ssa-diff"), "kube-version").Choices, " "); got != "1.32 1.33 1.34 1.35 1.36 1.37 1.38 nearest" {
		t.Errorf("--kube-version completes %q", got)
	}
}

func byFlag(flags []completion.Flag, name string) completion.Flag {
	for _, f := range flags {
		if f.Name == name {
			return f
		}
	}
	return completion.Flag{}
}

// TestBashCompletionLoads: the script loads in bash and registers both commands
// (`source <(ssa-diff completion bash) && complete -p ssa-diff`).
func TestBashCompletionLoads(t *testing.T) {
	script := completionScript(t, t.TempDir(), "bash")
	out, err := exec.Command("bash", "-c", `source "$1" && complete -p ssa-diff && complete -p kubectl-ssa_diff`, "bash", script).CombinedOutput()
	if err != nil || string(out) != "complete -o bashdefault -o filenames -F _ssa_diff ssa-diff\ncomplete -o bashdefault -o filenames -F _ssa_diff kubectl-ssa_diff\n" {
		t.Errorf("%v\n%s", err, out)
	}
	if testing.Short() {
		return
	}
	bin := buildBinary(t)
	out, err = exec.Command("bash", "-c", `source <("$1" completion bash) && complete -p ssa-diff`, "bash", bin).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "-F _ssa_diff ssa-diff") {
		t.Errorf("source <(ssa-diff completion bash): %v\n%s", err, out)
	}
}

// TestBashCompletes: what bash offers after a line, its words split as bash splits them (at
// = too: COMP_WORDBREAKS), in a directory holding a few files.
func TestBashCompletes(t *testing.T) {
	dir := t.TempDir()
	script := completionScript(t, dir, "bash")
	work := writeFiles(t, map[string]string{"report.md": "", "live.json": "", "apps/a.yaml": ""})
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"ssa-diff", "--applier", ""}, "api argocd flux helm kubectl"},
		{[]string{"ssa-diff", "-o", "j"}, "json junit"},
		{[]string{"ssa-diff", "--fail-o"}, "--fail-on"},
		{[]string{"ssa-diff", "completion", ""}, "bash fish powershell zsh"},
		{[]string{"ssa-diff", "--color", "a"}, "always auto"},
		{[]string{"ssa-diff", "--fail-on", "pr"}, "prune"},
		{[]string{"ssa-diff", "--kube-version", ""}, "1.32 1.33 1.34 1.35 1.36 1.37 1.38 nearest"},
		{[]string{"ssa-diff", "--kube-version", "=", ""}, "1.32 1.33 1.34 1.35 1.36 1.37 1.38 nearest"}, // --kube-version=
		{[]string{"ssa-diff", "--kube-version", "="}, "1.32 1.33 1.34 1.35 1.36 1.37 1.38 nearest"},     // the cursor right after =
		{[]string{"ssa-diff", "--service-ip-families", "IPv6"}, "IPv6 IPv6,IPv4"},
		{[]string{"ssa-diff", "--subresource", ""}, "ephemeralcontainers resize scale status"},
		{[]string{"ssa-diff", "--output-file", "js"}, "json="},
		{[]string{"ssa-diff", "--output-file", "re"}, "report.md"},
		{[]string{"ssa-diff", "--output-file", "markdown", "=", "re"}, "report.md"},
		{[]string{"ssa-diff", "--output-file", "markdown", "="}, "apps live.json report.md"},
		{[]string{"ssa-diff", "--report-html", "re"}, "report.md"},
		{[]string{"ssa-diff", "--save-live", "l"}, "live.json"},
		{[]string{"ssa-diff", "--kubeconfig", "l"}, "live.json"},
		{[]string{"ssa-diff", "-k", ""}, "apps"},
		{[]string{"ssa-diff", "-f", "apps/"}, "apps/a.yaml"},
		{[]string{"ssa-diff", "bl"}, "blame"},
		{[]string{"ssa-diff", "blame", "--t"}, "--time"},
		{[]string{"ssa-diff", "blame", "--time", ""}, "full none relative"},
		{[]string{"ssa-diff", "blame", "-o", ""}, "json text"},
		{[]string{"ssa-diff", "blame", "l"}, "live.json"},
		{[]string{"ssa-diff", "me"}, "merge"},
		{[]string{"ssa-diff", "merge", "--s"}, "--show-managed-fields --show-secrets --show-unchanged --summary"},
		{[]string{"ssa-diff", "merge", "--app"}, ""}, // a prediction's flag: merge refuses it
		{[]string{"ssa-diff", "merge", "-o", "j"}, "json junit"},
		{[]string{"ssa-diff", "merge", "--output-file", "js"}, "json="},
		{[]string{"ssa-diff", "merge", "r"}, "report.md"},
		{[]string{"kubectl-ssa_diff", "--kube-version", "1.3"}, "1.32 1.33 1.34 1.35 1.36 1.37 1.38"},
	} {
		line := `source "$1"; cd "$2"; COMP_WORDS=(` + quoteWords(c.words) + `); COMP_CWORD=` + strconv.Itoa(len(c.words)-1) +
			`; _ssa_diff; printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '`
		out, err := exec.Command("bash", "-c", line, "bash", script, work).CombinedOutput()
		if err != nil {
			t.Errorf("%q: %v %s", c.words, err, out)
			continue
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("%q completes to %q, want %q", c.words, got, c.want)
		}
	}
}

func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + w + "'"
	}
	return strings.Join(q, " ")
}

// TestZshCompletionParses: zsh reads the script (zsh -n) and, with compinit, defines the
// completion function. zsh comes from Debian's zsh package (.ci/run installs it).
func TestZshCompletionParses(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("no zsh here (apt-get install zsh): its script is not parsed")
	}
	dir := t.TempDir()
	script := completionScript(t, dir, "zsh")
	if out, err := exec.Command(zsh, "-n", script).CombinedOutput(); err != nil {
		t.Errorf("zsh -n: %v\n%s", err, out)
	}
	cmd := exec.Command(zsh, "-f", "-c", `autoload -U compinit && compinit -u -d "$2/zcompdump" && source "$1" && whence -w _ssa-diff _ssa-diff-format-file && print -r -- ${_comps[ssa-diff]} ${_comps[kubectl-ssa_diff]}`, "zsh", script, dir)
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "_ssa-diff: function\n_ssa-diff-format-file: function\n_ssa-diff _ssa-diff\n" {
		t.Errorf("zsh: %v\n%s", err, out)
	}
}

// TestFishCompletes: fish parses the script (fish --no-execute) and completes with it
// (complete -C). fish comes from Debian's fish package (.ci/run installs it).
func TestFishCompletes(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("no fish here (apt-get install fish): its script is not parsed")
	}
	dir := t.TempDir()
	script := completionScript(t, dir, "fish")
	if out, err := exec.Command(fish, "--no-execute", script).CombinedOutput(); err != nil {
		t.Errorf("fish --no-execute: %v\n%s", err, out)
	}
	work := writeFiles(t, map[string]string{"report.md": "", "live.json": ""})
	for line, want := range map[string]string{
		"ssa-diff --kube-version ":            "1.32 1.33 1.34 1.35 1.36 1.37 1.38 nearest",
		"ssa-diff --applier a":                "api argocd",
		"ssa-diff completion ":                "bash fish powershell zsh",
		"ssa-diff --output-file js":           "json=",
		"ssa-diff --output-file markdown=re":  "markdown=report.md",
		"ssa-diff --service-ip-families IPv4": "IPv4 IPv4,IPv6",
		"ssa-diff blame --time ":              "full none relative",
		"ssa-diff merge --su":                 "--summary",
		"ssa-diff merge -o ju":                "junit",
		"kubectl-ssa_diff -o ya":              "yaml",
	} {
		cmd := exec.Command(fish, "--no-config", "-c", `source $argv[1]; cd $argv[2]; complete -C$argv[3] | string replace -r '\t.*' ''; exit 0`, script, work, line)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%q: %v\n%s", line, err, out)
			continue
		}
		got := strings.Fields(string(out))
		sort.Strings(got)
		if strings.Join(got, " ") != want {
			t.Errorf("%q completes to %q, want %q", line, got, want)
		}
	}
}

// TestCompleteRequests: the answers of `ssa-diff __complete` (the kubectl plugin's and
// PowerShell's completion): candidates, then cobra's directive.
func TestCompleteRequests(t *testing.T) {
	work := writeFiles(t, map[string]string{"report.md": "", "apps/a.yaml": ""})
	readDir := func(dir string) ([]os.DirEntry, error) { return os.ReadDir(filepath.Join(work, dir)) }
	sep := string(filepath.Separator)
	for _, c := range []struct {
		words     []string
		want      string
		directive completion.Directive
	}{
		{[]string{""}, "blame version completion merge", completion.Default},
		{[]string{"me"}, "merge", completion.Default},
		{[]string{"merge", "--s"}, "--show-managed-fields --show-secrets --show-unchanged --summary", completion.NoFileComp},
		{[]string{"merge", "--app"}, "", completion.NoFileComp},
		{[]string{"merge", "--color", ""}, "auto always never", completion.NoFileComp},
		{[]string{"merge", "a.json", ""}, "", completion.Default},
		{[]string{"bl"}, "blame", completion.Default},
		{[]string{"apps"}, "", completion.Default},
		{[]string{"apps", ""}, "", completion.Default},
		{[]string{"--kube-version", ""}, "1.32 1.33 1.34 1.35 1.36 1.37 1.38 nearest", completion.NoFileComp},
		{[]string{"--kube-version=1.3"}, "--kube-version=1.32 --kube-version=1.33 --kube-version=1.34 --kube-version=1.35 --kube-version=1.36 --kube-version=1.37 --kube-version=1.38", completion.NoFileComp},
		{[]string{"-o", "m"}, "markdown", completion.NoFileComp},
		{[]string{"--subresource", ""}, "status scale resize ephemeralcontainers", completion.NoFileComp},
		{[]string{"--output-file", "js"}, "json=", completion.NoSpace | completion.NoFileComp},
		{[]string{"--output-file", "markdown=r"}, "markdown=report.md", completion.NoSpace | completion.NoFileComp},
		{[]string{"--output-file", "markdown=apps/"}, "markdown=apps" + sep + "a.yaml", completion.NoSpace | completion.NoFileComp},
		{[]string{"--output-file", "rep"}, "", completion.Default},
		{[]string{"-k", ""}, "", completion.FilterDirs},
		{[]string{"--crd", ""}, "", completion.Default},
		{[]string{"-f", "x.yaml", "--app"}, "--applier", completion.NoFileComp},
		{[]string{"completion", "p"}, "powershell", completion.NoFileComp},
		{[]string{"version", ""}, "", completion.NoFileComp},
		{[]string{"blame", "--time", ""}, "relative full none", completion.NoFileComp},
		{[]string{"blame", "--app"}, "", completion.NoFileComp},
		{[]string{"blame", ""}, "", completion.Default},
	} {
		got := completionCommand("ssa-diff").Complete(c.words, readDir)
		var values []string
		for _, cand := range got.Candidates {
			v, _, _ := strings.Cut(cand, "\t")
			values = append(values, v)
		}
		if strings.Join(values, " ") != c.want || got.Directive != c.directive {
			t.Errorf("%q: %q :%d, want %q :%d", c.words, values, got.Directive, c.want, c.directive)
		}
	}
	// Flags come with their descriptions.
	if got := completionCommand("ssa-diff").Complete([]string{"--kube-v"}, readDir); len(got.Candidates) != 1 || !strings.HasPrefix(got.Candidates[0], "--kube-version\tThe Kubernetes minor") {
		t.Errorf("--kube-v: %q", got.Candidates)
	}
	out, _, code := run(t, "", "__complete", "--applier", "")
	if code != 0 || out != "kubectl\napi\nargocd\nflux\nhelm\n:4\n" {
		t.Errorf("__complete: exit %d\n%s", code, out)
	}
}

// TestKubectlCompletionExecutable: the binary linked as kubectl_complete-ssa_diff answers
// kubectl's plugin completion requests (the words after `kubectl ssa-diff`, the last the
// one completed) as __complete does.
func TestKubectlCompletionExecutable(t *testing.T) {
	if ProgramName("/home/u/.krew/bin/kubectl_complete-ssa_diff") != KubectlCompletionProgram || ProgramName(`C:\bin\kubectl_complete-ssa_diff.exe`) != KubectlCompletionProgram && runtime.GOOS == "windows" {
		t.Errorf("ProgramName does not know %s", KubectlCompletionProgram)
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	link := filepath.Join(dir, KubectlCompletionProgram)
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(link, "--kube-version", "").Output()
	if err != nil || string(out) != "1.32\n1.33\n1.34\n1.35\n1.36\n1.37\n1.38\nnearest\n:4\n" {
		t.Errorf("%s --kube-version '': %v\n%s", KubectlCompletionProgram, err, out)
	}
}
