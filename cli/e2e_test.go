package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"sigs.k8s.io/yaml"
)

// buildBinary builds the ssa-diff command once per test run, into a temporary directory
// TestMain removes.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "ssa-diff-test-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		bin := filepath.Join(dir, "ssa-diff")
		cmd := exec.Command(goTool, "build", "-o", bin, ".")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// built is the binary buildBinary made, and the helper buildHelper made beside it.
var built struct {
	once     sync.Once
	dir, bin string
	err      error

	helperOnce sync.Once
	helper     string
	helperErr  error
}

// buildHelper builds the helper program ssa-diff-admission once per test run, beside the
// binary buildBinary builds (where the binary finds it, as a release ships them), and
// returns the binary's path.
func buildHelper(t *testing.T) string {
	t.Helper()
	bin := buildBinary(t)
	built.helperOnce.Do(func() {
		helper := filepath.Join(filepath.Dir(bin), "ssa-diff-admission")
		cmd := exec.Command("go", "build", "-o", helper, "./cmd/ssa-diff-admission")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			built.helperErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.helper = helper
	})
	if built.helperErr != nil {
		t.Fatal(built.helperErr)
	}
	return bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func runBinary(t *testing.T, bin, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestEndToEnd(t *testing.T) {
	bin := buildBinary(t)
	root := repoRoot(t)

	t.Run("examples", func(t *testing.T) {
		for name, args := range examples(t) {
			out, _, code := runBinary(t, bin, root, append([]string{"--now", exampleNow}, args...)...)
			want, err := os.ReadFile(filepath.Join(goldenDir(t), name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("%s: the binary prints other text than the golden file", name)
			}
			if code == 0 || code == 2 {
				t.Errorf("%s: exit %d", name, code)
			}
		}
	})

	t.Run("kubectl plugin", func(t *testing.T) {
		plugin := filepath.Join(t.TempDir(), "kubectl-ssa_diff")
		if err := os.Symlink(bin, plugin); err != nil {
			t.Skip(err)
		}
		out, _, code := runBinary(t, plugin, root, "--help")
		if code != 0 || !strings.Contains(out, "kubectl ssa-diff [flags] MANIFESTS [LIVE]") {
			t.Errorf("exit %d, usage:\n%s", code, out)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"m.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: [\n"})
		out, _, code := runBinary(t, bin, dir, "-o", "json", "m.yaml")
		if code != 2 || !strings.Contains(out, `"message": "m.yaml, document 0, line `) {
			t.Errorf("exit %d\n%s", code, out)
		}
		validateReport(t, []byte(out))
	})

	t.Run("fixtures", func(t *testing.T) { fixtureCases(t, bin) })
}

// fixtureCase is the part of a recorded case's case.yaml the command needs.
type fixtureCase struct {
	Request struct {
		Mode         string `json:"mode"`
		Verb         string `json:"verb"`
		FieldManager string `json:"fieldManager"`
		Force        bool   `json:"force"`
		Subresource  string `json:"subresource"`
	} `json:"request"`
	Response struct {
		Code        int `json:"code"`
		KubectlExit int `json:"kubectlExit"`
	} `json:"response"`
	Now string `json:"now"`
}

// fixtureCases runs the binary on every recorded apply case as a CI job would and checks what
// the command owns: a report that satisfies its schema, the exit status, and for refusals the
// server's code and message. (Whether the predicted objects are exact is the engine's
// business: /work/shared/tools/fixturecheck.py scores that.)
func fixtureCases(t *testing.T, bin string) {
	cases, err := filepath.Glob(filepath.Join(testkit.RecordedDir(t), "*", "case.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, cy := range cases {
		d := filepath.Dir(cy)
		name := filepath.Base(d)
		if !strings.Contains(readFile(t, cy), "verb: apply") {
			continue
		}
		ran++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fixtureCase1(t, bin, d, name, cy)
		})
	}
	if ran == 0 {
		t.Skip("no apply cases")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readFixtureCase reads a recorded case's case.yaml.
func readFixtureCase(t *testing.T, cy string) fixtureCase {
	t.Helper()
	b, err := os.ReadFile(cy)
	if err != nil {
		t.Fatal(err)
	}
	var c fixtureCase
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", cy, err)
	}
	return c
}

// applies reports whether the case's request is an apply (to the main resource or status).
func (c fixtureCase) applies() bool {
	return c.Request.Verb == "apply" || c.Request.Verb == "apply-status"
}

// args is the command line that predicts the case's request, whose files are in the
// directory d, named as seen from the directory the command runs in (at joins them to it:
// filepath.Base to run in d).
func (c fixtureCase) args(d string, at func(string) string) []string {
	args := []string{"--field-manager", c.Request.FieldManager, "--applier", "api"}
	if c.Request.Mode == "kubectl" {
		args[len(args)-1] = "kubectl"
	}
	if c.Now != "" {
		args = append(args, "--now", c.Now)
	}
	if c.Request.Force {
		args = append(args, "--force-conflicts")
	}
	if sub := c.Request.Subresource; sub != "" || c.Request.Verb == "apply-status" {
		args = append(args, "--subresource", "status")
	}
	if _, err := os.Stat(filepath.Join(d, "crds.yaml")); err == nil {
		args = append(args, "--crd", at(filepath.Join(d, "crds.yaml")))
	}
	args = append(args, at(filepath.Join(d, "manifest.yaml")))
	if _, err := os.Stat(filepath.Join(d, "live.json")); err == nil {
		args = append(args, at(filepath.Join(d, "live.json")))
	}
	return args
}

// fixtureCase1 checks one recorded case.
func fixtureCase1(t *testing.T, bin, d, name, cy string) {
	{
		c := readFixtureCase(t, cy)
		if !c.applies() {
			return
		}
		args := append([]string{"-o", "json"}, c.args(d, filepath.Base)...)
		live, liveErr := os.ReadFile(filepath.Join(d, "live.json"))
		out, stderr, code := runBinary(t, bin, d, args...)
		if errs := schemaErrors(t, []byte(out)); len(errs) > 0 {
			t.Errorf("%s: the report does not satisfy the schema: %v (stderr %q)", name, errs, stderr)
			return
		}
		var rep struct {
			Results []struct {
				Action string         `json:"action"`
				Object map[string]any `json:"object"`
				Error  *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != 1 {
			t.Errorf("%s: %d results, %v", name, len(rep.Results), err)
			return
		}
		r := rep.Results[0]
		var want map[string]any
		wb, err := os.ReadFile(filepath.Join(d, "want.json"))
		if err != nil || json.Unmarshal(wb, &want) != nil {
			t.Fatalf("%s: want.json: %v", name, err)
		}
		succeeded := c.Response.Code < 300
		if c.Request.Mode == "kubectl" {
			succeeded = c.Response.KubectlExit == 0
		}
		if !succeeded {
			if code != 3 || r.Error == nil || r.Error.Code != c.Response.Code {
				t.Errorf("%s: exit %d, error %+v; the server answered %d", name, code, r.Error, c.Response.Code)
			} else if msg, _ := want["message"].(string); c.Request.Mode != "kubectl" && r.Error.Message != msg {
				t.Errorf("%s: message %q, the server's %q", name, r.Error.Message, msg)
			}
			return
		}
		if r.Error != nil {
			t.Errorf("%s: predicted error %d %s; the server answered %d", name, r.Error.Code, r.Error.Message, c.Response.Code)
			return
		}
		// Exit 1 exactly when the server changed the object or its ownership.
		changed := liveErr != nil
		if !changed {
			var l map[string]any
			if err := json.Unmarshal(live, &l); err != nil {
				t.Fatal(err)
			}
			changed = !reflect.DeepEqual(comparable(l), comparable(want))
		}
		if wantCode := map[bool]int{true: 1, false: 0}[changed]; code != wantCode {
			t.Errorf("%s: exit %d, want %d", name, code, wantCode)
		}
	}
}

// comparable strips what does not count as a change: resourceVersion and entry times.
func comparable(obj map[string]any) map[string]any {
	b, _ := json.Marshal(obj)
	var c map[string]any
	_ = json.Unmarshal(b, &c)
	md, _ := c["metadata"].(map[string]any)
	delete(md, "resourceVersion")
	if mf, ok := md["managedFields"].([]any); ok {
		for _, e := range mf {
			if em, ok := e.(map[string]any); ok {
				delete(em, "time")
			}
		}
	}
	return c
}
