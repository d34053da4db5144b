package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
)

func TestGateFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--argocd-app", "shop", "a"}, "--argocd-app needs --applier argocd"},
		{[]string{"--applier", "argocd", "--flux-force", "a"}, "--flux-force needs --applier flux"},
		{[]string{"--applier", "argocd", "--argocd-tracking", "uid", "a"}, "--argocd-tracking must be annotation, label or annotation+label"},
		{[]string{"--applier", "flux", "--flux-kustomization", "apps", "a"}, "--flux-kustomization must be NAMESPACE/NAME"},
		{[]string{"--applier", "flux", "--subresource", "status", "a"}, "flux applies the main resource only"},
		{[]string{"--fail-on", "takeover,drift", "a"}, `unknown --fail-on value "drift"`},
		{[]string{"--protect", "kube-[", "a"}, "--protect: bad pattern"},
	} {
		_, stderr, code := run(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// The GitOps appliers get the options of the command line, with their managers' names by
// default.
func TestGitOpsAppliersWiring(t *testing.T) {
	dir := writeFiles(t, map[string]string{"m.yaml": cmYAML("a", "", "1", "") + "---\n" + cmYAML("b", "shop", "2", "")})
	m := filepath.Join(dir, "m.yaml")

	f := newFake()
	out, _, code := runFake(t, f, "", "-o", "json", "--applier", "argocd", "--argocd-app", "web", "--argocd-tracking", "label", "-n", "dest", m)
	if code != 1 || len(f.argo) != 2 {
		t.Fatalf("exit %d, %d Argo CD applies\n%s", code, len(f.argo), out)
	}
	want := appliers.ArgoCDOptions{Manager: "argocd-controller", Application: "web", DestinationNamespace: "dest", Tracking: appliers.ArgoCDTrackLabel}
	if f.argo[0] != want {
		t.Errorf("options %+v, want %+v", f.argo[0], want)
	}
	// Workers predict in any order: the manifest without a namespace is the one named a.
	var sent any = "(not sent)"
	for _, c := range f.calls {
		if md := c.Object["metadata"].(map[string]any); md["name"] == "a" {
			sent = md["namespace"]
		}
	}
	if sent != "dest" {
		t.Errorf("the manifest without a namespace is sent with %v, want the destination namespace", sent)
	}
	if !strings.Contains(out, `"fieldManager": "argocd-controller"`) || !strings.Contains(out, `"applier": "argocd"`) {
		t.Errorf("the report does not name the applier:\n%s", out[:300])
	}

	f = newFake()
	_, _, code = runFake(t, f, "", "-o", "json", "--applier", "flux", "--field-manager", "flux-apps", "--flux-kustomization", "flux-system/apps",
		"--flux-override-manager", "helm", "--flux-override-manager", "kubectl-edit", "--flux-force", m)
	if code != 1 || len(f.flux) != 2 {
		t.Fatalf("exit %d, %d Flux applies", code, len(f.flux))
	}
	o := f.flux[1]
	if o.Manager != "flux-apps" || o.KustomizationNamespace != "flux-system" || o.KustomizationName != "apps" || !o.Force ||
		strings.Join(o.OverrideManagers, ",") != "helm,kubectl-edit" || o.Normalize == nil {
		t.Errorf("options %+v", o)
	}
	if !f.calls[0].Force {
		t.Error("Flux applies without force")
	}
}

// The real engine through the command: Argo CD takes the replicas from the HPA by force.
func TestArgoCDTakeoverAndPolicies(t *testing.T) {
	root := repoRoot(t)
	ex := filepath.Join(root, "testdata", "examples", "hpa-owns-replicas")
	args := []string{"--now", exampleNow, "--applier", "argocd", "-o", "json", filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json")}
	out, _, code := run(t, "", args...)
	rep := decodeReport(t, out)
	if code != 1 || len(rep.Results) != 1 || rep.Results[0].Action != "update" {
		t.Fatalf("argocd: exit %d\n%s", code, out)
	}
	validateReport(t, []byte(out))
	for _, c := range []struct {
		flags []string
		want  int
	}{
		{[]string{"--fail-on", "conflicts"}, 4},
		{[]string{"--fail-on", "takeover"}, 4},
		{[]string{"--fail-on", "takeover", "--allow-takeover-from", "hpa-*"}, 4}, // and the image from kubectl
		{[]string{"--fail-on", "takeover", "--allow-takeover-from", "hpa-*", "--allow-takeover-from", "kubectl"}, 1},
		{[]string{"--protect", "hpa-controller"}, 4},
		{[]string{"--protect", "kube-*"}, 1},
	} {
		_, _, code := run(t, "", append(c.flags, args...)...)
		if code != c.want {
			t.Errorf("%q: exit %d, want %d", c.flags, code, c.want)
		}
	}
	// kubectl without force: the 409 fails by default, not with --fail-on none.
	kargs := []string{"--now", exampleNow, filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json")}
	if _, _, code := run(t, "", kargs...); code != 3 {
		t.Errorf("kubectl: exit %d, want 3", code)
	}
	if _, _, code := run(t, "", append([]string{"--fail-on", "none"}, kargs...)...); code != 1 {
		t.Errorf("kubectl --fail-on none: exit %d, want 1", code)
	}
}

// Whether a kind is namespaced comes from the schema registry — built-in kinds and CRDs
// found among the inputs — not from whether the manifest names a namespace.
func TestScopeFromRegistry(t *testing.T) {
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: clusterissuers.cert-manager.io
spec:
  group: cert-manager.io
  scope: Cluster
  names: {kind: ClusterIssuer, plural: clusterissuers, singular: clusterissuer, listKind: ClusterIssuerList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`
	dir := writeFiles(t, map[string]string{
		"repo/crd.yaml": crd,
		"repo/objects.yaml": "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules: []\n---\n" +
			"apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata:\n  name: letsencrypt\nspec: {acme: {}}\n---\n" +
			cmYAML("settings", "", "1", "") + "---\n" +
			"apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata:\n  name: staging\nspec: {acme: {}}\n",
		"live.yaml": "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\n  managedFields: []\nrules: []\n---\n" +
			"apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata:\n  name: letsencrypt\n  managedFields: []\nspec: {}\n---\n" +
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: team\n  managedFields: []\ndata: {a: \"0\"}\n",
	})
	out, stderr, _ := runFake(t, newFake(), "", "-o", "json", "-n", "team", filepath.Join(dir, "repo"), filepath.Join(dir, "live.yaml"))
	rep := decodeReport(t, out)
	if len(rep.Results) != 5 {
		t.Fatalf("%d results\n%s", len(rep.Results), stderr)
	}
	// A new object of a cluster-scoped custom kind gets no namespace.
	if r := rep.Results[4]; r.Action != "create" || r.Namespace != "" {
		t.Errorf("ClusterIssuer staging: %s in %q, want a create without namespace", r.Action, r.Namespace)
	}
	for _, r := range rep.Results[1:4] {
		if r.LiveSource == nil || r.Action != "update" {
			t.Errorf("%s %s/%s: %s without a live object", r.Kind, r.Namespace, r.Name, r.Action)
		}
		if want := map[string]string{"ConfigMap": "team"}[r.Kind]; r.Namespace != want {
			t.Errorf("%s %s: namespace %q, want %q", r.Kind, r.Name, r.Namespace, want)
		}
	}
}
