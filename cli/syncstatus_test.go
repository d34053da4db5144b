package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --sync-status says, beside what the sync changes, what Argo CD shows before it:
// an Application ignoring /spec/replicas of a Deployment whose replicas an autoscaler
// changed (testdata/argocd-diff/replicas-ignored-json-pointer, where argo-cd v3.6.2
// answered Synced) shows it Synced while its sync takes the replicas back by force; the
// same without the rule shows it OutOfSync with the diff. The Application and the
// equivalent flags give the same bytes; the JSON report satisfies the schema.
func TestSyncStatusArgoCD(t *testing.T) {
	t.Chdir(repoRoot(t))
	dir := filepath.Join("testdata", "argocd-diff", "replicas-ignored-json-pointer")
	app := filepath.Join(t.TempDir(), "application.yaml")
	if err := os.WriteFile(app, []byte(`apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: shop
  namespace: argocd
spec:
  syncPolicy:
    syncOptions:
    - ServerSideApply=true
  ignoreDifferences:
  - group: apps
    kind: Deployment
    jsonPointers:
    - /spec/replicas
`), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []string{filepath.Join(dir, "manifest.json"), filepath.Join(dir, "live.json")}
	common := []string{"--now", "2026-12-06T01:00:00Z", "--color", "never", "--sync-status"}
	fromApp := append(append(append([]string{}, common...), "--argocd-application", app), inputs...)
	fromFlags := append(append(append([]string{}, common...), "--applier", "argocd", "--argocd-app", "shop", "--ignore-path", "apps/Deployment:/spec/replicas"), inputs...)
	for _, format := range []string{"text", "json", "markdown", "html"} {
		a, stderr, code := run(t, "", append([]string{"-o", format}, fromApp...)...)
		if code != 0 && code != 1 && code != 4 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		b, _, _ := run(t, "", append([]string{"-o", format}, fromFlags...)...)
		if a != b {
			t.Errorf("%s: the Application and the flags differ:\n%s\n----\n%s", format, a, b)
		}
		switch format {
		case "json":
			validateReport(t, []byte(a))
			if !strings.Contains(a, `"syncStatus": {`) || !strings.Contains(a, `"status": "Synced"`) {
				t.Errorf("json: no Synced syncStatus:\n%s", a)
			}
		case "html":
			if !strings.Contains(a, `data-sync>Argo CD shows it Synced</p>`) {
				t.Errorf("html: no sync status")
			}
		default:
			golden(t, "sync-status-argocd-ignored."+format, []byte(a))
		}
	}
	// Without the rule: OutOfSync, and the diff Argo CD shows.
	plain := append(append(append([]string{}, common...), "--applier", "argocd", "--argocd-app", "shop"), inputs...)
	for _, format := range []string{"text", "markdown"} {
		out, stderr, _ := run(t, "", append([]string{"-o", format}, plain...)...)
		if !strings.Contains(out, "Argo CD shows it OutOfSync") {
			t.Errorf("%s: not OutOfSync: %s%s", format, out, stderr)
		}
		golden(t, "sync-status-argocd."+format, []byte(out))
	}
	html, _, _ := run(t, "", append([]string{"-o", "html"}, plain...)...)
	if !strings.Contains(html, `<p class="sync warn" data-sync>Argo CD shows it OutOfSync</p><div class="diff"><h3>Diff <small>Argo CD&#39;s normalized live object → after the sync</small>`) {
		t.Errorf("html: no OutOfSync with its diff")
	}
}

// --sync-status with Flux is its drift detection: unchanged when spec.ignore leaves out
// the only field that drifted (testdata/flux-ignore, recorded from fluxcd/pkg/ssa), else
// configured. Another applier is refused.
func TestSyncStatusFlux(t *testing.T) {
	t.Chdir(repoRoot(t))
	dir := filepath.Join("testdata", "flux-ignore", "replicas-other-applier-unchanged")
	args := []string{"--now", "2026-12-06T00:00:00Z", "--color", "never", "--show-unchanged", "--sync-status", "--applier", "flux",
		filepath.Join(dir, "manifest.yaml"), filepath.Join(dir, "live.json")}
	out, stderr, _ := run(t, "", append([]string{"--flux-ignore", `{"paths":["/spec/replicas"],"target":{"kind":"Deployment"}}`}, args...)...)
	if !strings.Contains(out, "Flux detects no drift (unchanged): it applies nothing") {
		t.Errorf("with spec.ignore: %s%s", out, stderr)
	}
	out, stderr, _ = run(t, "", args...)
	if !strings.Contains(out, "Flux detects drift (configured): it applies the object") {
		t.Errorf("without spec.ignore: %s%s", out, stderr)
	}
	golden(t, "sync-status-flux.txt", []byte(out))
	js, _, _ := run(t, "", append([]string{"-o", "json"}, args...)...)
	validateReport(t, []byte(js))
	if _, stderr, code := run(t, "", "--sync-status", filepath.Join(dir, "manifest.yaml"), filepath.Join(dir, "live.json")); code != 2 || !strings.Contains(stderr, "--sync-status says what Argo CD or Flux shows") {
		t.Errorf("kubectl applier: exit %d, %s", code, stderr)
	}
}
