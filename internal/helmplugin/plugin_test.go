package helmplugin

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/conformance"
	"github.com/ssa-diff/ssa-diff/merge"
)

// TestPluginPredictsRecordedCommands runs `helm ssa-diff` on recorded Helm 4 commands
// (conformance/testdata/helm/recorded), rendering the scenario's chart itself with Helm's
// libraries and reading the case's live.json (--live): every object predicted is what the
// server stored, and the exit status says whether Helm failed.
func TestPluginPredictsRecordedCommands(t *testing.T) {
	root := filepath.Join("..", "..", "conformance", "testdata", "helm")
	for _, name := range []string{
		"h4-install/01-install",
		"h4-upgrade-auto-ssa/02-upgrade",
		"h4-upgrade-client-side/02-upgrade",
		"h3-to-h4-auto-stays-client-side/03-upgrade",
		"h3-to-h4-failed-migration-residue/03-upgrade",
		"h4-crds-install-then-upgrade/01-install",
		"h4-dropped-resource-deleted/02-upgrade",
		"h4-rollback-to-helm3-revision/03-rollback",
		"h4-conflict-kubectl-edit/03-upgrade",
		"h4-dry-run-server-hides-conflict/03-upgrade",
	} {
		t.Run(name, func(t *testing.T) {
			c, err := conformance.LoadHelmCase(filepath.Join(root, "recorded", name))
			if err != nil {
				t.Fatal(err)
			}
			args := append([]string(nil), c.HelmRequest.Args...)
			if c.HelmRequest.Command != "rollback" {
				args[2] = filepath.Join(root, "charts", c.HelmRequest.Chart)
			}
			args = append(args, "--live", filepath.Join(c.Dir, "live.json"), "-o", "json", "--now", c.Now)
			env := map[string]string{"HELM_NAMESPACE": c.HelmRequest.Namespace, "HELM_CACHE_HOME": t.TempDir(),
				"HELM_CONFIG_HOME": t.TempDir(), "HELM_DATA_HOME": t.TempDir()}
			for k, v := range env {
				t.Setenv(k, v)
			}
			var out, errb bytes.Buffer
			code := Main(args, strings.NewReader(""), &out, &errb, os.Getenv)
			want := 0
			if c.HelmResponse.HelmExit != 0 {
				want = 3
			}
			if code != want && !(want == 0 && code == 1) {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, want, errb.String())
			}
			var rep struct {
				Results []struct {
					Kind, Namespace, Name, Action string
					Object                        map[string]any
				}
			}
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
			}
			checked := 0
			for _, r := range rep.Results {
				if r.Object == nil || r.Kind == "CustomResourceDefinition" {
					continue
				}
				var live, after map[string]any
				for _, items := range []*[]map[string]any{&c.LiveItems, &c.WantItems} {
					for _, it := range *items {
						md, _ := it["metadata"].(map[string]any)
						if it["kind"] == r.Kind && md["name"] == r.Name && (md["namespace"] == r.Namespace || r.Namespace == "") {
							if items == &c.LiveItems {
								live = it
							} else {
								after = it
							}
						}
					}
				}
				one := &conformance.Case{Name: c.Name, Live: live, Want: after, Now: c.Now}
				one.Response.Code = 200
				for _, p := range conformance.Compare(one, &merge.Result{Action: merge.ActionUpdate, Object: r.Object}, false) {
					if !strings.HasPrefix(p, "predicted update, server wrote") {
						t.Errorf("%s %s: %s", r.Kind, r.Name, p)
					}
				}
				checked++
			}
			// A dry run writes nothing, and the plugin says what the command itself meets:
			// the next step of the scenario, recorded, is that upgrade refused with a 409.
			if strings.Contains(name, "dry-run") && !strings.Contains(errb.String(), "without --dry-run, helm would fail: Error: UPGRADE FAILED: conflict occurred") {
				t.Errorf("the dry run does not say the upgrade conflicts; stderr:\n%s", errb.String())
			}
			if checked == 0 && want == 0 {
				t.Errorf("no object predicted; stderr:\n%s", errb.String())
			}
		})
	}
}

// TestPluginUsage pins the plugin's refusals of bad usage (exit 2, Helm's words).
func TestPluginUsage(t *testing.T) {
	for args, want := range map[string]string{
		"":                              "a command (install, upgrade, rollback) and a release name are required",
		"diff web ./chart":              `unknown command "diff"`,
		"upgrade web":                   "upgrade takes RELEASE CHART",
		"rollback web two":              "could not convert revision to a number",
		"upgrade web ./chart --no-such": "unknown flag: --no-such",
	} {
		var out, errb bytes.Buffer
		code := Main(strings.Fields(args), strings.NewReader(""), &out, &errb, func(string) string { return "" })
		if code != 2 || !strings.Contains(errb.String(), want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", args, code, errb.String(), want)
		}
	}
}

// TestPluginRefusesConnectionFlags: Helm keeps --kube-apiserver, --kube-token and its
// other connection flags for itself and gives the plugin only their variables; ssa-diff
// reads the cluster through a kubeconfig, so the plugin refuses them (exit 2) rather than
// read another server or as another user than Helm would. Offline (--live) they do not
// matter.
func TestPluginRefusesConnectionFlags(t *testing.T) {
	helmDefaults := map[string]string{"HELM_KUBEINSECURE_SKIP_TLS_VERIFY": "false", "HELM_NAMESPACE": "shop"}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HELM_KUBEAPISERVER": "https://10.0.0.1:6443"}, "--kube-apiserver ($HELM_KUBEAPISERVER)"},
		{map[string]string{"HELM_KUBETOKEN": "abc", "HELM_KUBEASUSER": "jane"}, "--kube-token ($HELM_KUBETOKEN), --kube-as-user ($HELM_KUBEASUSER)"},
		{map[string]string{"HELM_KUBEASGROUPS": "devs"}, "--kube-as-group ($HELM_KUBEASGROUPS)"},
		{map[string]string{"HELM_KUBECAFILE": "/ca.pem", "HELM_KUBETLS_SERVER_NAME": "kube"}, "--kube-ca-file ($HELM_KUBECAFILE), --kube-tls-server-name ($HELM_KUBETLS_SERVER_NAME)"},
		{map[string]string{"HELM_KUBEINSECURE_SKIP_TLS_VERIFY": "true"}, "--kube-insecure-skip-tls-verify ($HELM_KUBEINSECURE_SKIP_TLS_VERIFY)"},
	} {
		getenv := func(k string) string {
			if v, ok := tc.env[k]; ok {
				return v
			}
			return helmDefaults[k]
		}
		var out, errb bytes.Buffer
		code := Main([]string{"upgrade", "web", "./no-chart"}, strings.NewReader(""), &out, &errb, getenv)
		want := "Error: " + tc.want + ": helm ssa-diff reads the cluster through a kubeconfig only (--kubeconfig, --kube-context)"
		if code != 2 || !strings.HasPrefix(errb.String(), want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.env, code, out.String(), errb.String(), want)
		}
	}

	// Offline (--live) the cluster is not read: the run goes on, to the chart that does not
	// exist; and Helm's defaults (no connection flag given) are never refused.
	var out, errb bytes.Buffer
	live := filepath.Join("..", "..", "conformance", "testdata", "helm", "recorded", "h4-install", "01-install", "live.json")
	code := Main([]string{"install", "web", "./no-chart", "--live", live}, strings.NewReader(""), &out, &errb,
		func(k string) string { return map[string]string{"HELM_KUBETOKEN": "abc"}[k] + helmDefaults[k] })
	if code != 2 || strings.Contains(errb.String(), "kubeconfig only") || !strings.Contains(errb.String(), "no-chart") {
		t.Errorf("--live with HELM_KUBETOKEN: exit %d, stderr %q; want the chart's error, not a refusal", code, errb.String())
	}
	if unsupportedConnection(func(k string) string { return helmDefaults[k] }) != nil {
		t.Errorf("Helm's defaults are refused")
	}
}
