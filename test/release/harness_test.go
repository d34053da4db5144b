package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/yaml"
)

// testTag is the tag the copy of the work tree is given: the release the snapshot is of.
const testTag = "v1.2.3"

// scratch is a directory for the whole test run, removed by TestMain.
var scratch string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ssa-diff-release-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	scratch = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot is the repository's top directory (test/release is two below it).
func repoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(wd))
}

// runIn runs a command in dir, failing the test with its output when it fails.
func runIn(t testing.TB, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, out.String())
	}
	return out.String()
}

var tools struct {
	sync.Mutex
	built map[string]string
}

// tool builds a program of a tool module (tools/MODULE) once per run and returns its path.
func tool(t testing.TB, module, pkg string) string {
	t.Helper()
	tools.Lock()
	defer tools.Unlock()
	if p, ok := tools.built[pkg]; ok {
		return p
	}
	out := filepath.Join(scratch, "bin", filepath.Base(pkg))
	if strings.HasSuffix(pkg, "/v2") {
		out = filepath.Join(scratch, "bin", filepath.Base(strings.TrimSuffix(pkg, "/v2")))
	}
	runIn(t, filepath.Join(repoRoot(t), "tools", module), nil, "go", "build", "-o", out, pkg)
	if tools.built == nil {
		tools.built = map[string]string{}
	}
	tools.built[pkg] = out
	return out
}

// allTargets says whether every platform of .goreleaser.yaml is built
// (SSA_DIFF_RELEASE_TARGETS=all), or only the host's.
func allTargets() bool { return os.Getenv("SSA_DIFF_RELEASE_TARGETS") == "all" }

// artifact is an entry of goreleaser's dist/artifacts.json.
type artifact struct {
	Name, Path, Goos, Goarch, Type string
	Extra                          struct {
		ID       string
		Binaries []string
		Checksum string
	}
}

// release is what goreleaser made of the tagged copy.
type release struct {
	src, dist string // the tagged copy, goreleaser's output
	commit    string // the tagged commit
	artifacts []artifact
}

// archives lists the release's archives.
func (r *release) archives() []artifact {
	var out []artifact
	for _, a := range r.artifacts {
		if a.Type == "Archive" {
			out = append(out, a)
		}
	}
	return out
}

// kubectlArchives lists the archives of the kubectl plugin (ssa-diff_TAG_OS_ARCH), the
// ones krew installs: not the Helm plugin's.
func (r *release) kubectlArchives() []artifact {
	var out []artifact
	for _, a := range r.archives() {
		if strings.HasPrefix(a.Name, "ssa-diff_") {
			out = append(out, a)
		}
	}
	return out
}

var made struct {
	once sync.Once
	r    *release
	err  string
}

// snapshot runs goreleaser once per test run: `check`, then `release --snapshot --clean`
// on a copy of the work tree (its uncommitted changes and new files included) tagged
// testTag, with .goreleaser.yaml narrowed to the host's platform unless allTargets. SBOMs
// are skipped (syft is not installed here; the release workflow installs it).
func snapshot(t *testing.T) *release {
	t.Helper()
	made.once.Do(func() {
		r, err := makeSnapshot(t)
		if err != nil {
			made.err = err.Error()
			return
		}
		made.r = r
	})
	if made.r == nil {
		t.Fatalf("the snapshot release was not made: %s", made.err)
	}
	return made.r
}

func makeSnapshot(t *testing.T) (*release, error) {
	root := repoRoot(t)
	goreleaser := tool(t, "goreleaser", "github.com/goreleaser/goreleaser/v2")
	src := filepath.Join(scratch, "src")
	runIn(t, scratch, nil, "git", "clone", "--quiet", "--shared", root, src)
	// The work tree as it is: its changes to tracked files, and new files not ignored.
	if diff := runIn(t, root, nil, "git", "diff", "--binary", "HEAD"); diff != "" {
		patch := filepath.Join(scratch, "worktree.patch")
		if err := os.WriteFile(patch, []byte(diff), 0o644); err != nil {
			return nil, err
		}
		runIn(t, src, nil, "git", "apply", "--binary", patch)
	}
	for _, f := range strings.Split(runIn(t, root, nil, "git", "ls-files", "--others", "--exclude-standard", "-z"), "\x00") {
		if f == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Join(src, filepath.Dir(f)), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(src, f), data, 0o644); err != nil {
			return nil, err
		}
	}
	git := []string{"-c", "user.name=release test", "-c", "user.email=release@test.invalid"}
	runIn(t, src, nil, "git", append(git, "add", "-A")...)
	runIn(t, src, nil, "git", append(git, "commit", "--quiet", "--allow-empty", "-m", "the work tree")...)
	runIn(t, src, nil, "git", append(git, "tag", testTag)...)
	commit := strings.TrimSpace(runIn(t, src, nil, "git", "rev-parse", "HEAD"))

	runIn(t, src, nil, goreleaser, "check")
	cfg, err := os.ReadFile(filepath.Join(src, ".goreleaser.yaml"))
	if err != nil {
		return nil, err
	}
	var conf map[string]any
	if err := yaml.Unmarshal(cfg, &conf); err != nil {
		return nil, err
	}
	dist := filepath.Join(scratch, "dist")
	conf["dist"] = dist
	if !allTargets() {
		builds, _ := conf["builds"].([]any)
		for _, b := range builds {
			b.(map[string]any)["goos"] = []string{runtime.GOOS}
			b.(map[string]any)["goarch"] = []string{runtime.GOARCH}
		}
	}
	narrowed, err := yaml.Marshal(conf)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(scratch, "goreleaser.yaml")
	if err := os.WriteFile(cfgPath, narrowed, 0o644); err != nil {
		return nil, err
	}
	t.Logf("goreleaser release --snapshot --clean (%s)", map[bool]string{true: "every platform", false: "the host's platform: SSA_DIFF_RELEASE_TARGETS=all builds all"}[allTargets()])
	// goreleaser stops at 1h by default; the go test of make release-snapshot allows 90m.
	runIn(t, src, nil, goreleaser, "release", "--snapshot", "--clean", "--skip=sbom", "--timeout", "85m", "--config", cfgPath)
	data, err := os.ReadFile(filepath.Join(dist, "artifacts.json"))
	if err != nil {
		return nil, err
	}
	r := &release{src: src, dist: dist, commit: commit}
	if err := json.Unmarshal(data, &r.artifacts); err != nil {
		return nil, err
	}
	return r, nil
}
