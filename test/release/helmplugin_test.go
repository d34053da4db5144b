package release

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// helmBinary is a real Helm 4: $SSA_DIFF_HELM, else built from tools/helm (Helm 4.3.2
// from the module proxy, once per run).
func helmBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SSA_DIFF_HELM"); p != "" {
		return p
	}
	return tool(t, "helm", "helm.sh/helm/v4/cmd/helm")
}

// helmEnv is an empty Helm home as a user has it: data, cache and configuration in dir,
// and extra on top. HELM_PLUGINS is left to its default, $HELM_DATA_HOME/plugins (a value
// set in the environment the test runs in is overridden): Helm 4.3.2 installs an archive,
// local or by URL, in $HELM_DATA_HOME/plugins whatever HELM_PLUGINS says, and lists and
// runs only what is in HELM_PLUGINS (helm/helm#32646), so a HELM_PLUGINS of its own
// would hide the installed plugin.
func helmEnv(dir string, extra ...string) []string {
	env := []string{"HELM_DATA_HOME=" + filepath.Join(dir, "data"), "HELM_PLUGINS=" + helmPlugins(dir),
		"HELM_CACHE_HOME=" + filepath.Join(dir, "cache"), "HELM_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"KUBECONFIG=" + filepath.Join(dir, "no-kubeconfig"), "HELM_NO_PLUGINS="}
	return append(env, extra...)
}

// helmPlugins is where Helm installs plugins in the Helm home of helmEnv.
func helmPlugins(dir string) string { return filepath.Join(dir, "data", "plugins") }

// runHelm runs helm with env, returning its output and exit status.
func runHelm(t *testing.T, helm, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(helm, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if x, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), x.ExitCode()
	}
	if err != nil {
		t.Fatalf("helm %s: %v", strings.Join(args, " "), err)
	}
	return o.String(), e.String(), 0
}

// TestHelmPluginArchives: the release's Helm plugin archives — helm-ssa-diff_TAG_OS_ARCH
// (the binary of its platform, static, and the licence) for every platform built, and one
// ssa-diff-VERSION.tgz (a folder ssa-diff: plugin.yaml with the release's version, the
// install hooks, release-tag naming the tag), each in checksums.txt.
func TestHelmPluginArchives(t *testing.T) {
	r := snapshot(t)
	sums := checksums(t, r.dist)
	var platforms []string
	plugins := 0
	for _, a := range r.archives() {
		if sums[a.Name] == "" {
			t.Errorf("%s is not in checksums.txt", a.Name)
		}
		files := unpack(t, a.Path)
		var names []string
		for n := range files {
			names = append(names, n)
		}
		sort.Strings(names)
		switch a.Extra.ID {
		case "helm-ssa-diff":
			platforms = append(platforms, a.Goos+"/"+a.Goarch)
			bin, ext := "helm-ssa-diff", "tar.gz"
			if a.Goos == "windows" {
				bin, ext = bin+".exe", "zip"
			}
			if want := fmt.Sprintf("helm-ssa-diff_%s_%s_%s.%s", testTag, a.Goos, a.Goarch, ext); a.Name != want {
				t.Errorf("archive %s, want %s (install-binary.sh names it so)", a.Name, want)
			}
			if want := "LICENSE " + bin; strings.Join(names, " ") != want {
				t.Errorf("%s holds %v, want %s", a.Name, names, want)
			}
			goos, goarch, static, err := binaryPlatform(files[bin])
			if err != nil || goos != a.Goos || goarch != a.Goarch || !static {
				t.Errorf("%s: its %s is for %s/%s (static %v), %v", a.Name, bin, goos, goarch, static, err)
			}
		case "helm-plugin":
			plugins++
			version := strings.TrimPrefix(testTag, "v") + "-snapshot"
			if want := "ssa-diff-" + version + ".tgz"; a.Name != want {
				t.Errorf("the plugin's archive is %s, want %s", a.Name, want)
			}
			want := "ssa-diff/install-binary.ps1 ssa-diff/install-binary.sh ssa-diff/plugin.yaml ssa-diff/release-tag"
			if strings.Join(names, " ") != want {
				t.Fatalf("%s holds %v, want %s", a.Name, names, want)
			}
			var meta struct{ Name, Version string }
			if err := yaml.Unmarshal(files["ssa-diff/plugin.yaml"], &meta); err != nil || meta.Name != "ssa-diff" || meta.Version != version {
				t.Errorf("plugin.yaml: name %q version %q (%v), want ssa-diff %s", meta.Name, meta.Version, err, version)
			}
			if got := string(files["ssa-diff/release-tag"]); got != testTag+"\n" {
				t.Errorf("release-tag %q, want %s", got, testTag)
			}
		}
	}
	sort.Strings(platforms)
	want := runtime.GOOS + "/" + runtime.GOARCH
	if allTargets() {
		want = "darwin/amd64 darwin/arm64 linux/amd64 linux/arm64 windows/amd64 windows/arm64"
	}
	if strings.Join(platforms, " ") != want || plugins != 1 {
		t.Errorf("plugin binaries for %v and %d plugin archives, want %s and 1", platforms, plugins, want)
	}
}

// pluginArchive is the snapshot's ssa-diff-VERSION.tgz.
func pluginArchive(t *testing.T, r *release) artifact {
	t.Helper()
	for _, a := range r.archives() {
		if a.Extra.ID == "helm-plugin" {
			return a
		}
	}
	t.Fatal("the snapshot has no Helm plugin archive")
	return artifact{}
}

// TestHelmPluginInstalls installs the plugin into a real Helm 4 as a user would, from the
// release's ssa-diff-VERSION.tgz — a local copy, then by URL — with the release served on
// 127.0.0.1 as GitHub serves it ($SSA_DIFF_RELEASE_URL points the install hook there): the
// hook downloads the binary archive of the platform, checks its SHA-256, and `helm
// ssa-diff upgrade` predicts a recorded Helm 4 upgrade (conformance/testdata/helm) from
// its dump: the conflict Helm met, exit 3. An archive whose SHA-256 is not the one
// checksums.txt gives refuses the install.
func TestHelmPluginInstalls(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the install hook of Windows (install-binary.ps1) needs pwsh")
	}
	r := snapshot(t)
	helm := helmBinary(t)
	plugin := pluginArchive(t, r)
	host := fmt.Sprintf("helm-ssa-diff_%s_%s_%s.tar.gz", testTag, runtime.GOOS, runtime.GOARCH)
	good := serveRelease(t, r, "")
	base := "SSA_DIFF_RELEASE_URL=" + good.URL + "/ssa-diff/ssa-diff/releases/download/" + testTag
	root := repoRoot(t)
	scenario := filepath.Join(root, "conformance", "testdata", "helm")
	step := filepath.Join(scenario, "recorded", "h4-conflict-kubectl-edit", "03-upgrade")

	for _, from := range []string{"file", "url"} {
		t.Run(from, func(t *testing.T) {
			home := t.TempDir()
			env := helmEnv(home, base)
			source := filepath.Join(home, plugin.Name)
			data, err := os.ReadFile(plugin.Path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(source, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if from == "url" {
				source = good.URL + "/ssa-diff/ssa-diff/releases/download/" + testTag + "/" + plugin.Name
			}
			out, errs, code := runHelm(t, helm, home, env, "plugin", "install", source, "--verify=false")
			if code != 0 || !strings.Contains(out, "Installed plugin: ssa-diff") || !strings.Contains(out+errs, host+", SHA-256 checked") {
				t.Fatalf("helm plugin install %s: exit %d\n%s%s", source, code, out, errs)
			}
			if strings.Contains(errs, "does not include") {
				t.Errorf("the install hook warns that Helm does not list the plugin:\n%s", errs)
			}
			if _, err := os.Stat(filepath.Join(helmPlugins(home), "ssa-diff", "bin", "helm-ssa-diff")); err != nil {
				t.Fatalf("the install hook left no binary: %v\n%s%s", err, out, errs)
			}
			out, errs, code = runHelm(t, helm, home, env, "plugin", "list")
			if want := regexp.MustCompile(`(?m)^ssa-diff\s+` + regexp.QuoteMeta(strings.TrimPrefix(testTag, "v")+"-snapshot") + `\s+cli/v1\s+v1\s`); code != 0 || !want.MatchString(out) {
				t.Errorf("helm plugin list: exit %d, want a line %s\n%s%s", code, want, out, errs)
			}
			// What a helm-diff user types, against the recorded dump of the cluster.
			out, errs, code = runHelm(t, helm, home, append(env, "HELM_NAMESPACE=h4-conflict-kubectl-edit"),
				"ssa-diff", "upgrade", "web", filepath.Join(scenario, "charts", "web"),
				"--live", filepath.Join(step, "live.json"), "-o", "json")
			if code != 3 {
				t.Fatalf("helm ssa-diff upgrade: exit %d, want 3 (Helm's upgrade failed with a conflict)\n%s%s", code, out, errs)
			}
			var rep struct {
				Results []struct {
					Kind, Name string
					Conflicts  []struct{ Manager string }
				}
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("the report: %v\n%s", err, out)
			}
			conflict := ""
			for _, res := range rep.Results {
				for _, c := range res.Conflicts {
					conflict += res.Kind + "/" + res.Name + " with " + c.Manager + ";"
				}
			}
			if conflict != "ConfigMap/web-config with kubectl-edit;" {
				t.Errorf("conflicts %q, want ConfigMap/web-config with kubectl-edit (the recorded 409)\n%s", conflict, errs)
			}
		})
	}

	// HELM_PLUGINS set elsewhere: Helm 4.3.2 installs the archive in $HELM_DATA_HOME/plugins
	// all the same, and neither lists nor runs it there (helm/helm#32646); the install hook
	// says so and how to move it, and once moved it is listed.
	t.Run("helm-plugins-elsewhere", func(t *testing.T) {
		home := t.TempDir()
		elsewhere := filepath.Join(home, "my-plugins")
		env := append(helmEnv(home, base), "HELM_PLUGINS="+elsewhere)
		out, errs, code := runHelm(t, helm, home, env, "plugin", "install", plugin.Path, "--verify=false")
		installed := filepath.Join(helmPlugins(home), "ssa-diff")
		warning := "helm ssa-diff: Helm installed the plugin in " + installed + ", but HELM_PLUGINS=" + elsewhere + " does not include "
		if code != 0 || !strings.Contains(out, "Installed plugin: ssa-diff") || !strings.Contains(errs, warning) {
			t.Fatalf("helm plugin install with HELM_PLUGINS=%s: exit %d, want 0 and the warning %q\n%s%s", elsewhere, code, warning, out, errs)
		}
		if out, _, _ := runHelm(t, helm, home, env, "plugin", "list"); strings.Contains(out, "ssa-diff") {
			t.Errorf("Helm lists the plugin installed outside HELM_PLUGINS (helm/helm#32646 fixed? the hook's warning is then wrong):\n%s", out)
		}
		if err := os.MkdirAll(elsewhere, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(installed, filepath.Join(elsewhere, "ssa-diff")); err != nil {
			t.Fatal(err)
		}
		if out, errs, code := runHelm(t, helm, home, env, "plugin", "list"); code != 0 || !strings.Contains(out, "ssa-diff") {
			t.Errorf("helm plugin list after the move the hook advises: exit %d\n%s%s", code, out, errs)
		}
	})

	t.Run("tampered", func(t *testing.T) {
		bad := serveRelease(t, r, host)
		home := t.TempDir()
		env := helmEnv(home, "SSA_DIFF_RELEASE_URL="+bad.URL+"/ssa-diff/ssa-diff/releases/download/"+testTag)
		out, errs, code := runHelm(t, helm, home, env, "plugin", "install", plugin.Path, "--verify=false")
		if code == 0 || !strings.Contains(errs, host+": SHA-256 ") || !strings.Contains(errs, "not installed") {
			t.Errorf("a tampered archive: exit %d\n%s%s", code, out, errs)
		}
		if _, err := os.Stat(filepath.Join(helmPlugins(home), "ssa-diff", "bin", "helm-ssa-diff")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the tampered binary was installed")
		}
		// Helm keeps the plugin's folder after a failed hook; the hook says how to start again.
		again := "helm plugin uninstall ssa-diff, then install it again"
		if !strings.Contains(errs, again) {
			t.Errorf("the failed install does not say %q:\n%s", again, errs)
		}
		if out, errs, code := runHelm(t, helm, home, env, "plugin", "uninstall", "ssa-diff"); code != 0 {
			t.Errorf("helm plugin uninstall ssa-diff after the failed install: exit %d\n%s%s", code, out, errs)
		}
		if _, err := os.Stat(filepath.Join(helmPlugins(home), "ssa-diff")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the plugin's folder is left after helm plugin uninstall: %v", err)
		}
	})
}
