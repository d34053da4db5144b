package release

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// releasesURL is where GitHub serves the releases' files, as .krew.yaml and the Action name
// them.
const releasesURL = "https://github.com/ssa-diff/ssa-diff/releases/download"

// serveRelease serves the snapshot's files as GitHub serves a release's:
// /ssa-diff/ssa-diff/releases/download/TAG/NAME. tamper changes the bytes of one file
// served, by name.
func serveRelease(t *testing.T, r *release, tamper string) *httptest.Server {
	t.Helper()
	prefix := "/ssa-diff/ssa-diff/releases/download/" + testTag + "/"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		name, ok := strings.CutPrefix(req.URL.Path, prefix)
		if !ok || strings.Contains(name, "/") {
			http.NotFound(w, req)
			return
		}
		data, err := os.ReadFile(filepath.Join(r.dist, name))
		if err != nil {
			http.NotFound(w, req)
			return
		}
		if name == tamper {
			data = append(append([]byte(nil), data...), "tampered"...)
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// platformsBuilt keeps the platforms of a .krew.yaml template whose archive the snapshot
// has (all of them when every platform is built).
func platformsBuilt(template string, r *release) string {
	head, rest, _ := strings.Cut(template, "  platforms:\n")
	items := strings.Split(rest, "    - selector:\n")
	out := head + "  platforms:\n"
	for _, item := range items[1:] {
		for _, a := range r.kubectlArchives() {
			if strings.Contains(item, "_"+a.Goos+"_"+a.Goarch+".") {
				out += "    - selector:\n" + item
			}
		}
	}
	return out
}

// TestKrewManifest: .krew.yaml rendered by krew-release-bot's own `template` command
// (it downloads each archive to sum it: from the snapshot served on 127.0.0.1) is a
// manifest krew's validate-krew-manifest accepts, installing each platform with `kubectl
// krew install --manifest` (krew as kubectl-krew; `kubectl` a stand-in that dispatches to
// it as kubectl does); the sha256 of each platform is its archive's in checksums.txt; the
// manifest of the real release (GitHub's URLs) validates too.
func TestKrewManifest(t *testing.T) {
	r := snapshot(t)
	srv := serveRelease(t, r, "")
	bot := tool(t, "krew-release-bot", "github.com/rajatjindal/krew-release-bot/cmd/action")
	validate := tool(t, "krew", "sigs.k8s.io/krew/cmd/validate-krew-manifest")
	krew := tool(t, "krew", "sigs.k8s.io/krew/cmd/krew")

	raw, err := os.ReadFile(filepath.Join(repoRoot(t), ".krew.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	template := string(raw)
	if n := strings.Count(template, "{{ addURIAndSha "); n != 6 {
		t.Errorf(".krew.yaml has %d platforms, want 6", n)
	}
	if !allTargets() {
		template = platformsBuilt(template, r)
		t.Logf("krew validates the platforms built: SSA_DIFF_RELEASE_TARGETS=all validates all")
	}
	local := srv.URL + "/ssa-diff/ssa-diff/releases/download"
	dir := t.TempDir()
	tmpl := filepath.Join(dir, ".krew.yaml")
	if err := os.WriteFile(tmpl, []byte(strings.ReplaceAll(template, releasesURL, local)), 0o644); err != nil {
		t.Fatal(err)
	}
	rendered := runIn(t, dir, nil, bot, "template", "--tag", testTag, "--template-file", tmpl)
	// The bot logs to standard error, which runIn mixes in: the manifest starts at apiVersion.
	if i := strings.Index(rendered, "apiVersion:"); i >= 0 {
		rendered = rendered[i:]
	}
	manifest := filepath.Join(dir, "ssa-diff.yaml")
	if err := os.WriteFile(manifest, []byte(rendered), 0o644); err != nil {
		t.Fatal(err)
	}

	// Each platform's uri and sha256: the archive's, as checksums.txt says.
	var plugin struct {
		Spec struct {
			Version   string
			Platforms []struct {
				URI, Sha256, Bin string
				Selector         struct{ MatchLabels map[string]string }
			}
		}
	}
	if err := yaml.Unmarshal([]byte(rendered), &plugin); err != nil {
		t.Fatalf("the rendered manifest is not YAML: %v\n%s", err, rendered)
	}
	sums := checksums(t, r.dist)
	if plugin.Spec.Version != testTag || len(plugin.Spec.Platforms) != len(r.kubectlArchives()) {
		t.Errorf("version %q, %d platforms, for %d archives", plugin.Spec.Version, len(plugin.Spec.Platforms), len(r.kubectlArchives()))
	}
	for _, p := range plugin.Spec.Platforms {
		name := filepath.Base(p.URI)
		if sums[name] == "" || p.Sha256 != sums[name] || !strings.HasPrefix(p.URI, local+"/"+testTag+"/") {
			t.Errorf("%v: uri %s sha256 %s, checksums.txt %q", p.Selector.MatchLabels, p.URI, p.Sha256, sums[name])
		}
	}

	// krew's validation, installing every platform from the served archives.
	path := filepath.Join(dir, "path")
	os.Mkdir(path, 0o755)
	if err := os.Symlink(krew, filepath.Join(path, "kubectl-krew")); err != nil {
		t.Fatal(err)
	}
	kubectl := "#!/bin/sh\n# kubectl's plugin dispatch: kubectl krew ARGS runs kubectl-krew ARGS.\n[ \"$1\" = krew ] || exit 1\nshift\nexec kubectl-krew \"$@\"\n"
	if err := os.WriteFile(filepath.Join(path, "kubectl"), []byte(kubectl), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + path + string(os.PathListSeparator) + os.Getenv("PATH")}
	out := runIn(t, dir, env, validate, "-manifest", manifest)
	if !regexp.MustCompile(`all \d+ spec.platforms installed fine`).MatchString(out) {
		t.Errorf("validate-krew-manifest:\n%s", out)
	}

	// The manifest of the real release: GitHub's URLs, the same sums; krew's structural
	// validation (its install would download from GitHub).
	real := filepath.Join(t.TempDir(), "ssa-diff.yaml")
	if err := os.WriteFile(real, []byte(strings.ReplaceAll(rendered, local, releasesURL)), 0o644); err != nil {
		t.Fatal(err)
	}
	runIn(t, dir, nil, validate, "-manifest", real, "-skip-install")
}
