package release

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rhysd/actionlint"
)

// TestWorkflowsLint: actionlint finds nothing in .github/workflows (the release workflow,
// and the one that runs the Action on GitHub's runners, whose `uses: ./` it checks against
// action.yml's inputs), with shellcheck on their scripts where shellcheck is installed
// (Debian's shellcheck package; .ci/run installs it).
func TestWorkflowsLint(t *testing.T) {
	opts := &actionlint.LinterOptions{}
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = sc
	} else {
		t.Log("no shellcheck here: the workflows' scripts are not checked")
	}
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, opts)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(repoRoot(t), ".github", "workflows", "*.yml"))
	if len(files) < 2 {
		t.Fatalf("workflows: %v", files)
	}
	errs, err := l.LintFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) > 0 {
		t.Errorf("actionlint: %d errors\n%s", len(errs), out.String())
	}
}

// TestActionScriptsShellcheck: the Action's scripts pass shellcheck.
func TestActionScriptsShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("no shellcheck here (apt-get install shellcheck)")
	}
	scripts, _ := filepath.Glob(filepath.Join(repoRoot(t), "action", "*.sh"))
	if out, err := exec.Command(sc, scripts...).CombinedOutput(); err != nil || len(scripts) != 3 {
		t.Errorf("shellcheck %v: %v\n%s", scripts, err, out)
	}
}
