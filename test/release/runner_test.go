package release

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"sigs.k8s.io/yaml"
)

// This file is a simulated GitHub Actions runner for a composite action: it runs
// action.yml's steps in order as the runner does — each step's `if` evaluated (success()
// by default), ${{ }} expressions in its env and run substituted, `shell: bash` run as
// `bash --noprofile --norc -eo pipefail FILE`, GITHUB_OUTPUT a new file per step read back
// into steps.ID.outputs, GITHUB_PATH's lines put before PATH for the later steps,
// GITHUB_STEP_SUMMARY one file — and records the `uses:` steps it does not run (setup-go,
// upload-artifact). Expressions are parsed by actionlint's parser and evaluated here for
// the part of GitHub's expression language the action uses; anything else fails the test.

// actionFile is action.yml.
type actionFile struct {
	Name, Description, Author string
	Branding                  struct{ Icon, Color string }
	Inputs                    map[string]struct {
		Description string
		Required    bool
		Default     *string
	}
	Outputs map[string]struct{ Description, Value string }
	Runs    struct {
		Using string
		Steps []actionStep
	}
}

type actionStep struct {
	Name, ID, If, Uses, Shell, Run string
	With                           map[string]string
	Env                            map[string]string
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	// Strictly: a key GitHub does not know, or one under the wrong parent, is an error.
	if err := yaml.UnmarshalStrict(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// runner is one simulated job running the action once.
type runner struct {
	t       *testing.T
	dir     string            // RUNNER_TEMP and the job's files
	work    string            // the workspace: the steps' working directory
	env     map[string]string // the job's environment
	inputs  map[string]string // with:
	github  map[string]string // the github context
	path    []string          // GITHUB_PATH's directories, newest first
	steps   map[string]map[string]string
	failed  bool
	log     bytes.Buffer        // every step's output
	used    []string            // the uses: steps reached
	outcome map[string]bool     // step name → ran and passed
	outputs map[string]string   // the action's outputs
	uploads map[string][]string // artifact name → paths
}

func newRunner(t *testing.T, work string, inputs map[string]string, env map[string]string) *runner {
	dir := t.TempDir()
	r := &runner{t: t, dir: dir, work: work, inputs: inputs, steps: map[string]map[string]string{}, outcome: map[string]bool{},
		uploads: map[string][]string{}, env: map[string]string{
			"GITHUB_ACTIONS": "true", "CI": "true", "RUNNER_TEMP": dir, "RUNNER_OS": "Linux", "RUNNER_ARCH": runnerArch(),
			"GITHUB_ACTION_PATH": repoRoot(t), "GITHUB_WORKSPACE": work, "GITHUB_STEP_SUMMARY": filepath.Join(dir, "step_summary.md"),
			"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "shop/gitops", "GITHUB_RUN_ID": "42",
			"GITHUB_EVENT_NAME": "pull_request", "GITHUB_ACTION_REF": testTag,
			"HOME": os.Getenv("HOME"), "NO_COLOR": "1",
		}}
	r.github = map[string]string{"action_path": repoRoot(t), "token": "job-token", "workspace": work}
	for k, v := range env {
		r.env[k] = v
	}
	return r
}

// runnerArch is RUNNER_ARCH of the host.
func runnerArch() string {
	return map[string]string{"amd64": "X64", "arm64": "ARM64", "386": "X86", "arm": "ARM"}[runtime.GOARCH]
}

// run runs the action's steps.
func (r *runner) run(a actionFile) {
	t := r.t
	for name, in := range a.Inputs {
		if _, ok := r.inputs[name]; !ok {
			if in.Required {
				t.Fatalf("the required input %s is not given", name)
			}
			r.inputs[name] = r.interpolate(*in.Default)
		}
	}
	for name := range r.inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("the input %s is not declared by action.yml", name)
		}
	}
	for _, s := range a.Runs.Steps {
		cond := s.If
		if cond == "" {
			cond = "success()"
		}
		if !truthy(r.eval(cond)) {
			continue
		}
		if s.Uses != "" {
			r.used = append(r.used, s.Uses)
			if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
				name := r.interpolate(s.With["name"])
				r.uploads[name] = append(r.uploads[name], r.interpolate(s.With["path"]))
			}
			continue
		}
		if s.Shell != "bash" {
			t.Fatalf("step %q: shell %q (the action's steps run bash)", s.Name, s.Shell)
		}
		ok := r.runStep(s)
		r.outcome[s.Name] = ok
		if !ok {
			r.failed = true
		}
	}
	r.outputs = map[string]string{}
	for name, o := range a.Outputs {
		r.outputs[name] = r.interpolate(o.Value)
	}
}

func (r *runner) runStep(s actionStep) bool {
	t := r.t
	script := filepath.Join(r.dir, "step.sh")
	if err := os.WriteFile(script, []byte(r.interpolate(s.Run)), 0o644); err != nil {
		t.Fatal(err)
	}
	output := filepath.Join(r.dir, "output-"+strconv.Itoa(len(r.outcome)))
	pathFile := filepath.Join(r.dir, "path")
	os.WriteFile(output, nil, 0o644)
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = r.work
	env := map[string]string{}
	for k, v := range r.env {
		env[k] = v
	}
	for k, v := range s.Env {
		env[k] = r.interpolate(v)
	}
	env["GITHUB_OUTPUT"], env["GITHUB_PATH"] = output, pathFile
	env["PATH"] = strings.Join(append(append([]string(nil), r.path...), os.Getenv("PATH")), string(os.PathListSeparator))
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	fmt.Fprintf(&r.log, "##[step] %s\n", s.Name)
	cmd.Stdout, cmd.Stderr = &r.log, &r.log
	err := cmd.Run()
	if s.ID != "" {
		r.steps[s.ID] = readOutputs(t, output)
	}
	if data, err := os.ReadFile(pathFile); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if l != "" && (len(r.path) == 0 || r.path[0] != l) {
				r.path = append([]string{l}, r.path...)
			}
		}
		os.Remove(pathFile)
	}
	return err == nil
}

// readOutputs reads a GITHUB_OUTPUT file: NAME=VALUE lines, and NAME<<DELIMITER blocks.
func readOutputs(t *testing.T, path string) map[string]string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		l := sc.Text()
		if name, delim, ok := strings.Cut(l, "<<"); ok && !strings.Contains(name, "=") {
			var v []string
			for sc.Scan() && sc.Text() != delim {
				v = append(v, sc.Text())
			}
			out[name] = strings.Join(v, "\n")
			continue
		}
		if name, v, ok := strings.Cut(l, "="); ok {
			out[name] = v
		} else if l != "" {
			t.Errorf("GITHUB_OUTPUT: %q is not NAME=VALUE", l)
		}
	}
	return out
}

var exprRE = regexp.MustCompile(`\$\{\{(.*?)\}\}`)

// interpolate substitutes the ${{ }} expressions of s.
func (r *runner) interpolate(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return str(r.eval(exprRE.FindStringSubmatch(m)[1]))
	})
}

// eval evaluates an expression (without ${{ }}).
func (r *runner) eval(src string) any {
	r.t.Helper()
	node, err := actionlint.NewExprParser().Parse(actionlint.NewExprLexer(src + "}}"))
	if err != nil {
		r.t.Fatalf("expression %q: %v", src, err)
	}
	return r.evalNode(node)
}

func (r *runner) evalNode(n actionlint.ExprNode) any {
	t := r.t
	t.Helper()
	switch n := n.(type) {
	case *actionlint.StringNode:
		return n.Value
	case *actionlint.BoolNode:
		return n.Value
	case *actionlint.IntNode:
		return float64(n.Value)
	case *actionlint.NullNode:
		return nil
	case *actionlint.VariableNode:
		switch n.Name {
		case "inputs":
			return toAny(r.inputs)
		case "github":
			return toAny(r.github)
		case "steps":
			m := map[string]any{}
			for id, outs := range r.steps {
				m[id] = map[string]any{"outputs": toAny(outs)}
			}
			return m
		}
	case *actionlint.ObjectDerefNode:
		if m, ok := r.evalNode(n.Receiver).(map[string]any); ok {
			for k, v := range m {
				if strings.EqualFold(k, n.Property) {
					return v
				}
			}
			return nil
		}
		return nil
	case *actionlint.NotOpNode:
		return !truthy(r.evalNode(n.Operand))
	case *actionlint.LogicalOpNode:
		l := r.evalNode(n.Left)
		if n.Kind == actionlint.LogicalOpNodeKindAnd {
			if !truthy(l) {
				return l
			}
			return r.evalNode(n.Right)
		}
		if truthy(l) {
			return l
		}
		return r.evalNode(n.Right)
	case *actionlint.CompareOpNode:
		eq := equal(r.evalNode(n.Left), r.evalNode(n.Right))
		switch n.Kind {
		case actionlint.CompareOpNodeKindEq:
			return eq
		case actionlint.CompareOpNodeKindNotEq:
			return !eq
		}
	case *actionlint.FuncCallNode:
		switch strings.ToLower(n.Callee) {
		case "always":
			return true
		case "success":
			return !r.failed
		case "failure":
			return r.failed
		case "cancelled":
			return false
		}
	}
	t.Fatalf("the simulated runner does not evaluate %T %v", n, n)
	return nil
}

func toAny(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// truthy is GitHub's coercion to boolean.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case float64:
		return v != 0
	}
	return true
}

// equal is GitHub's ==: strings compared ignoring case, otherwise as numbers.
func equal(a, b any) bool {
	as, aok := a.(string)
	bs, bok := b.(string)
	if aok && bok {
		return strings.EqualFold(as, bs)
	}
	if a == nil || b == nil {
		return a == nil && b == nil || str(a) == "" && str(b) == ""
	}
	return str(a) == str(b)
}

func str(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return fmt.Sprint(v)
}
