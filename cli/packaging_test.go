package cli

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-o", "json", "--version"}} {
		out, _, code := run(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "ssa-diff ") || !strings.Contains(out, "  go:         go1.") ||
			!strings.Contains(out, "  kubernetes: 1.34.4, 1.35.4, 1.36.3, 1.37.2 ") || !strings.Contains(out, "  commit:     ") {
			t.Errorf("%q: exit %d\n%s", args, code, out)
		}
	}
	if _, stderr, code := run(t, "", "version", "extra"); code != 2 || !strings.Contains(stderr, "takes no arguments") {
		t.Errorf("version with an argument: exit %d, %q", code, stderr)
	}
}

// TestCompletion: each shell's script names every flag and the values of the flags that
// take a fixed set; bash's is valid bash and completes as it should; zsh's and fish's
// parse when those shells are installed.
func TestCompletion(t *testing.T) {
	flags := completionFlags("ssa-diff")
	if len(flags) < 40 {
		t.Fatalf("%d flags", len(flags))
	}
	dir := t.TempDir()
	for _, shell := range completionShells {
		out, stderr, code := run(t, "", "completion", shell)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: exit %d, %s", shell, code, stderr)
		}
		for _, f := range flags {
			if !strings.Contains(out, f.name) {
				t.Errorf("%s: no --%s", shell, f.name)
			}
		}
		for _, v := range []string{"argocd", "markdown", "approximate", "annotation+label", "fights-controller"} {
			if !strings.Contains(out, v) {
				t.Errorf("%s: the value %q is not offered", shell, v)
			}
		}
		script := filepath.Join(dir, "ssa-diff."+shell)
		if err := os.WriteFile(script, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		sh, err := exec.LookPath(shell)
		if err != nil {
			if shell == "bash" {
				t.Fatal("no bash")
			}
			t.Logf("no %s here: its script is not parsed", shell)
			continue
		}
		if out, err := exec.Command(sh, "-n", script).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", shell, err, out)
		}
	}
	if _, _, code := run(t, "", "completion", "tcsh"); code != 2 {
		t.Errorf("an unknown shell: exit %d", code)
	}

	// bash completes.
	for line, want := range map[string]string{
		"ssa-diff --applier ":   "api argocd flux helm kubectl",
		"ssa-diff -o j":         "json junit",
		"ssa-diff --fail-o":     "--fail-on",
		"ssa-diff completion ":  "bash fish zsh",
		"ssa-diff --color a":    "always auto",
		"ssa-diff --fail-on pr": "prune",
	} {
		words := strings.Split(line, " ")
		script := `source "$1"; COMP_WORDS=(` + quoteWords(words) + `); COMP_CWORD=` + strconv.Itoa(len(words)-1) +
			`; _ssa_diff; printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '`
		out, err := exec.Command("bash", "-c", script, "bash", filepath.Join(dir, "ssa-diff.bash")).CombinedOutput()
		if err != nil {
			t.Errorf("%q: %v %s", line, err, out)
			continue
		}
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("%q completes to %q, want %q", line, got, want)
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

// dockerBuild is the build stage's command of the Dockerfile: its environment, flags and
// ldflags with the ARG defaults put in.
func dockerBuild(t *testing.T) (env []string, flags []string, ldflags string) {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	args := map[string]string{}
	argLine := regexp.MustCompile(`^ARG (\w+)=(.*)$`)
	build := regexp.MustCompile(`^RUN ((?:\w+=\S+ )*)go build (.*) -ldflags "([^"]*)" -o (\S+) \.$`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if m := argLine.FindStringSubmatch(l); m != nil {
			args[m[1]] = m[2]
		}
		if m := build.FindStringSubmatch(l); m != nil {
			expand := func(s string) string { return os.Expand(s, func(k string) string { return args[k] }) }
			return strings.Fields(m[1]), strings.Fields(m[2]), expand(m[3])
		}
	}
	t.Fatal("no `RUN … go build … -ldflags \"…\" -o … .` in the Dockerfile")
	return nil, nil, ""
}

// TestReleaseBuildFlags: the Dockerfile's build stage, run as a plain go build with the
// same flags, makes a static binary that says its version; goreleaser builds alike for
// linux, darwin and windows on amd64 and arm64, with checksums.
func TestReleaseBuildFlags(t *testing.T) {
	env, flags, ldflags := dockerBuild(t)
	if strings.Join(env, " ") != "CGO_ENABLED=0" || strings.Join(flags, " ") != "-trimpath -tags kustomize_disable_go_plugin_support" {
		t.Errorf("build stage: env %q, flags %q", env, flags)
	}
	var gr struct {
		Builds []struct {
			Env, Flags, Tags, Ldflags, Goos, Goarch []string
			Main, Binary                            string
		}
		Archives []struct {
			NameTemplate string `json:"name_template"`
		}
		Checksum struct {
			NameTemplate string `json:"name_template"`
			Algorithm    string
		}
	}
	data, err := os.ReadFile(filepath.Join(repoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &gr); err != nil {
		t.Fatal(err)
	}
	b := gr.Builds[0]
	sort.Strings(b.Goos)
	sort.Strings(b.Goarch)
	if strings.Join(b.Env, " ") != "CGO_ENABLED=0" || strings.Join(b.Flags, " ") != "-trimpath" || strings.Join(b.Tags, ",") != "kustomize_disable_go_plugin_support" || strings.Join(b.Goos, ",") != "darwin,linux,windows" ||
		strings.Join(b.Goarch, ",") != "amd64,arm64" || gr.Checksum.Algorithm != "sha256" || b.Binary != "ssa-diff" {
		t.Errorf("goreleaser: %+v, checksum %+v", b, gr.Checksum)
	}
	// The same ldflags, the versions aside.
	norm := regexp.MustCompile(`=(\{\{ ?\.\w+ ?\}\}|\S+)`)
	if len(b.Ldflags) != 1 || norm.ReplaceAllString(b.Ldflags[0], "=X") != norm.ReplaceAllString(ldflags, "=X") {
		t.Errorf("ldflags differ:\n goreleaser %q\n Dockerfile %q", b.Ldflags, ldflags)
	}
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "ssa-diff")
	ldflags = strings.Replace(ldflags, "linkedVersion=devel", "linkedVersion=v9.8.7", 1)
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-ldflags", ldflags, "-o", bin, ".")...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if runtime.GOOS == "linux" {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Error("the binary is dynamically linked")
			}
		}
		f.Close()
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "ssa-diff v9.8.7\n") || !strings.Contains(string(out), "  commit:     unknown") {
		t.Errorf("version: %v\n%s", err, out)
	}
}

// TestKrewManifest: one platform per release archive, each the archive goreleaser names.
func TestKrewManifest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), ".krew.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	uri := regexp.MustCompile(`addURIAndSha "https://github.com/ssa-diff/ssa-diff/releases/download/\{\{ \.TagName \}\}/ssa-diff_\{\{ \.TagName \| trimPrefix \\"v\\" \}\}_(\w+)_(\w+)\.(tar\.gz|zip)" \.TagName`)
	var got []string
	for _, m := range uri.FindAllStringSubmatch(string(data), -1) {
		ext := "tar.gz"
		if m[1] == "windows" {
			ext = "zip"
		}
		if m[3] != ext {
			t.Errorf("%s/%s: .%s, goreleaser makes .%s", m[1], m[2], m[3], ext)
		}
		got = append(got, m[1]+"/"+m[2])
	}
	sort.Strings(got)
	if strings.Join(got, ",") != "darwin/amd64,darwin/arm64,linux/amd64,linux/arm64,windows/amd64,windows/arm64" {
		t.Errorf("platforms %v", got)
	}
	if strings.Count(string(data), "bin: ssa-diff.exe") != 2 || strings.Count(string(data), "bin: ssa-diff\n") != 4 {
		t.Error("each platform links the binary of its archive")
	}
	if !strings.Contains(string(data), "name: ssa-diff\n") || ProgramName("kubectl-ssa_diff") != "kubectl ssa-diff" {
		t.Error("krew links the plugin as kubectl-ssa_diff, which ssa-diff must recognise")
	}
}

// TestGitHubAction runs the action's gate script as the runner would, with a fake GitHub
// environment: annotations on standard output, the report in the job summary linking the
// run's page, the HTML report written for the upload step, the exit status and the HTML
// report's path as step outputs, the step failing as ssa-diff's status says.
func TestGitHubAction(t *testing.T) {
	// Every key action.yml may hold: decoded strictly, a key GitHub does not know, one
	// indented under the wrong parent or written twice (as `summary:` once was, under
	// `version:`, which gave version summary's description) is an error.
	type input struct {
		Description string
		Required    bool
		Default     *string
	}
	var action struct {
		Name, Description, Author string
		Branding                  struct{ Icon, Color string }
		Inputs                    map[string]input
		Outputs                   map[string]struct{ Description, Value string }
		Runs                      struct {
			Using string
			Steps []struct {
				Name, ID, If, Uses, Shell, Run string
				With                           map[string]string
				Env                            map[string]string
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" || !action.Inputs["manifests"].Required || action.Outputs["exit-code"].Value == "" {
		t.Errorf("action.yml: %+v", action)
	}
	// Each input the steps read is declared, each declared one is read, and each has a
	// description; an optional one has a default.
	steps, err := json.Marshal(action.Runs.Steps)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`\binputs\.([A-Za-z0-9_-]+)`).FindAllStringSubmatch(string(steps), -1) {
		used[m[1]] = true
		if _, ok := action.Inputs[m[1]]; !ok {
			t.Errorf("the steps read inputs.%s, which action.yml does not declare", m[1])
		}
	}
	for name, in := range action.Inputs {
		if !used[name] {
			t.Errorf("the input %q is declared but no step reads it", name)
		}
		if in.Description == "" || (!in.Required && in.Default == nil) {
			t.Errorf("the input %q: %+v", name, in)
		}
	}
	scripts := 0
	for _, s := range action.Runs.Steps {
		for _, name := range []string{"install.sh", "run.sh"} {
			if strings.Contains(s.Run, "$GITHUB_ACTION_PATH/action/"+name) {
				scripts++
				if _, err := os.Stat(filepath.Join(repoRoot(t), "action", name)); err != nil {
					t.Error(err)
				}
			}
		}
	}
	if scripts != 2 {
		t.Errorf("%d steps run the action's scripts", scripts)
	}
	uploads := 0
	for _, s := range action.Runs.Steps {
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") && s.With["path"] == "${{ steps.gate.outputs.report }}" && strings.HasPrefix(s.If, "always()") {
			uploads++
		}
	}
	if uploads != 1 || action.Outputs["report"].Value == "" {
		t.Error("the action does not upload the HTML report, even when the gate fails")
	}

	bin := buildBinary(t)
	root := repoRoot(t)
	ex := "testdata/examples/hpa-owns-replicas/"
	for _, c := range []struct {
		args         string
		status, exit string
		annotation   string
		summary      string
	}{
		{"--now 2026-12-02T12:00:00Z", "3", "exit status 3", "::error file=testdata/examples/hpa-owns-replicas/manifest.yaml,line=", "## ❌ ssa-diff: fails: the server would reject 1 apply (exit 3)"},
		{"--now 2026-12-02T12:00:00Z --fail-on none", "1", "", "::warning file=", "## ✅ ssa-diff: passes, with changes (exit 1)"},
	} {
		dir := t.TempDir()
		summary, output := filepath.Join(dir, "summary.md"), filepath.Join(dir, "output")
		os.WriteFile(summary, []byte("earlier\n"), 0o644)
		cmd := exec.Command("bash", filepath.Join(root, "action", "run.sh"))
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "SSA_DIFF="+bin, "NO_COLOR=1", "GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+output,
			"INPUT_MANIFESTS="+ex+"manifest.yaml", "INPUT_LIVE="+ex+"live.json", "INPUT_ARGS="+c.args, "INPUT_SUMMARY=true",
			"RUNNER_TEMP="+dir, "GITHUB_SERVER_URL=https://github.com", "GITHUB_REPOSITORY=shop/gitops", "GITHUB_RUN_ID=42")
		out, err := cmd.Output()
		if got := ""; err != nil {
			got = err.Error()
			if got != c.exit {
				t.Errorf("%s: the step ends with %q, want %q", c.args, got, c.exit)
			}
		} else if c.exit != "" {
			t.Errorf("%s: the step passes, want %q", c.args, c.exit)
		}
		if !strings.Contains(string(out), c.annotation) || !strings.Contains(string(out), "\nssa-diff: 1 object") {
			t.Errorf("%s: annotations:\n%s", c.args, out)
		}
		sum, _ := os.ReadFile(summary)
		if !strings.HasPrefix(string(sum), "earlier\n"+c.summary) || !strings.Contains(string(sum), "(<https://github.com/shop/gitops/actions/runs/42>)") {
			t.Errorf("%s: the job summary is not appended the report linking the run:\n%s", c.args, sum)
		}
		report := filepath.Join(dir, "ssa-diff-report.html")
		o, _ := os.ReadFile(output)
		if string(o) != "exit-code="+c.status+"\nreport="+report+"\n" {
			t.Errorf("%s: outputs %q", c.args, o)
		}
		if page, err := os.ReadFile(report); err != nil || !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")) {
			t.Errorf("%s: no HTML report: %v", c.args, err)
		}
	}
}
