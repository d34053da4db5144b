package testkit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
)

// fakeApplier is an applier's file, as someone adding one writes it: its type and its Kind.
const fakeApplier = `package appliers

import "github.com/ssa-diff/ssa-diff/merge"

type fakeApply struct{ manager string }

func (f fakeApply) Name() string                 { return "fake" }
func (f fakeApply) Manager() string              { return f.manager }
func (f fakeApply) AlwaysForces() bool           { return true }
func (f fakeApply) Subresources() bool           { return false }
func (f fakeApply) SendsNamespace() bool         { return false }
func (f fakeApply) Prunes(PruneCandidate) string { return "" }

func (f fakeApply) Apply(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	req.Manager, req.Force = f.manager, true
	return e.Apply(req)
}

func fakeKind() Kind {
	return Kind{
		Name: "fake", Usage: "a fake applier of the test", Manager: "fake-controller",
		Apply: "the fake's apply", ForceHint: "a fake force", AlwaysForces: true,
		Options: []Option{{Name: "fake-mode", Arg: "MODE", Usage: "Fake: its mode.", Default: "calm", Choices: []string{"calm", "wild"}}},
		New: func(s Settings) (Applier, error) { return fakeApply{manager: s.manager("fake-controller")}, nil },
	}
}
`

// TestAddingAMinorAndAnApplier: a minor is one line of kube/releases.txt, an applier its
// file and one line of appliers.Kinds — the rest follows. The binary is built with a fake of
// each added (go build -overlay: the repository is not touched), and it lists them: the
// applier in --help, its option, the completion, the report; the minor in `ssa-diff version`
// and as the default, which fails loudly (its tables are not generated) rather than
// predicting with another minor's.
func TestAddingAMinorAndAnApplier(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	root, dir := RepoRoot(t), t.TempDir()
	releases, err := os.ReadFile(filepath.Join(root, "kube", "releases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	kinds, err := os.ReadFile(filepath.Join(root, "appliers", "kinds.go"))
	if err != nil {
		t.Fatal(err)
	}
	// The one line of each.
	addedKinds := strings.Replace(string(kinds), "\t\thelmKind(),\n", "\t\thelmKind(),\n\t\tfakeKind(),\n", 1)
	if addedKinds == string(kinds) {
		t.Fatal("appliers/kinds.go has no line helmKind(), to add one after")
	}
	// The minor added is the one after the newest listed, as a release: the default then.
	newest := kube.Newest()
	added := newest + 1
	overlay := map[string]string{
		filepath.Join(root, "kube", "releases.txt"): write(t, dir, "releases.txt", string(releases)+"v"+added.String()+".0\n"),
		filepath.Join(root, "appliers", "kinds.go"): write(t, dir, "kinds.go", addedKinds),
		filepath.Join(root, "appliers", "fake.go"):  write(t, dir, "fake.go", fakeApplier),
	}
	b, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "ssa-diff")
	build := exec.Command("go", "build", "-tags", "kustomize_disable_go_plugin_support", "-overlay", write(t, dir, "overlay.json", string(b)), "-o", bin, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -overlay: %v\n%s", err, out)
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	example := []string{"testdata/examples/csa-to-ssa-migration/manifest.yaml", "testdata/examples/csa-to-ssa-migration/live.json"}

	// The minors the help names are the list's, with the one added: read, never typed out.
	var minors []string
	for _, m := range kube.Minors() {
		minors = append(minors, m.String())
	}
	named := "kube-apiserver " + strings.Join(minors, ", ") + " or " + added.String()
	help, _ := run("--help")
	for _, want := range []string{named, "fake: a fake applier of the test", "--applier kubectl|api|argocd|flux|helm|fake",
		"--fake-mode MODE", "fake-controller with --applier"} {
		if !strings.Contains(strings.Join(strings.Fields(help), " "), want) {
			t.Errorf("--help does not say %q:\n%s", want, help)
		}
	}
	if out, _ := run("completion", "bash"); !strings.Contains(out, "fake") || !strings.Contains(out, "wild") {
		t.Errorf("the completion does not offer the fake applier and its option's values")
	}
	if out, code := run(append([]string{"--fake-mode", "wild"}, example...)...); code != 2 || !strings.Contains(out, "--fake-mode needs --applier fake") {
		t.Errorf("--fake-mode without --applier fake: exit %d\n%s", code, out)
	}
	if out, code := run(append([]string{"--applier", "fake", "--fake-mode", "odd"}, example...)...); code != 2 || !strings.Contains(out, "--fake-mode must be calm or wild") {
		t.Errorf("--fake-mode odd: exit %d\n%s", code, out)
	}
	out, code := run(append([]string{"--kube-version", "1.37", "--applier", "fake", "--fake-mode", "wild", "-o", "json", "--now", "2026-12-01T00:00:00Z"}, example...)...)
	if code > 1 || !strings.Contains(out, `"applier": "fake"`) || !strings.Contains(out, `"fieldManager": "fake-controller"`) {
		t.Errorf("--applier fake: exit %d\n%s", code, out)
	}

	if out, _ := run("version"); !strings.Contains(out, strings.TrimPrefix(newest.Release(), "v")+", "+added.String()+".0 ") || !strings.Contains(out, added.String()+" by default") {
		t.Errorf("version does not list the added minor:\n%s", out)
	}
	// Listed, not generated: every run that does not name another minor fails, saying so.
	if out, code := run(example...); code != 2 || !strings.Contains(out, added.String()) || !strings.Contains(out, "make generate") {
		t.Errorf("a run at the added minor: exit %d\n%s", code, out)
	}
}

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
