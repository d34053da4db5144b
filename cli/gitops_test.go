package cli

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// gitopsConfigInputs are the prod overlay of testdata/gitops-e2e and its recorded live
// state (kube-apiserver 1.37.2, record.sh), with absolute paths.
func gitopsConfigInputs(t *testing.T) (config string, inputs []string) {
	base := filepath.Join(repoRoot(t), "testdata", "gitops-e2e")
	return filepath.Join(base, "config"), []string{"--now", e2eNow, "-k", filepath.Join(base, "repo", "overlays", "prod"), filepath.Join(base, "live.json")}
}

// An Argo CD Application read with --argocd-application makes the prediction and report
// the equivalent flags make, byte for byte, in every format: its name, destination
// namespace and ignoreDifferences (a JSON pointer and a manager for every Deployment, a jq
// path for one) as --argocd-app, -n, --ignore-path and --ignore-manager.
func TestArgoCDApplicationIsItsFlags(t *testing.T) {
	config, inputs := gitopsConfigInputs(t)
	fromFile := append([]string{"--argocd-application", filepath.Join(config, "application.yaml"), "--prune"}, inputs...)
	flags := append([]string{"--applier", "argocd", "--argocd-app", "shop", "-n", "shop-prod", "--prune",
		"--ignore-path", "apps/Deployment:/spec/replicas", "--ignore-manager", "kube-controller-manager",
		"--ignore-path", "apps/Deployment/shop-prod/web:.spec.template.spec.containers[*].resources.limits.memory"}, inputs...)
	without := append([]string{"--applier", "argocd", "--argocd-app", "shop", "-n", "shop-prod", "--prune"}, inputs...)
	for _, format := range []string{"text", "json", "markdown", "github"} {
		got, gotErr, gotCode := run(t, "", append([]string{"-o", format}, fromFile...)...)
		want, wantErr, wantCode := run(t, "", append([]string{"-o", format}, flags...)...)
		if format == "json" {
			// The report records the rules as they were read: the Application's manager
			// is its Deployment rule's, the flag's is every kind's; they hide the same here.
			var rules string
			got, rules = withoutIgnoreRules(t, got)
			want, _ = withoutIgnoreRules(t, want)
			const wantRules = `[{"group":"apps","kind":"Deployment","managers":["kube-controller-manager"],"paths":["/spec/replicas"]},{"group":"apps","kind":"Deployment","name":"web","namespace":"shop-prod","paths":[".spec.template.spec.containers[*].resources.limits.memory"]}]`
			if rules != wantRules {
				t.Errorf("the report records the Application's rules as\n%s\nwant\n%s", rules, wantRules)
			}
		}
		if got != want || gotErr != wantErr || gotCode != wantCode {
			t.Errorf("-o %s: the Application (exit %d) differs from its flags (exit %d)\n%s%s\n---\n%s%s", format, gotCode, wantCode, got, gotErr, want, wantErr)
		}
		if gotCode != 1 {
			t.Errorf("-o %s: exit %d, want 1 (changes)\n%s", format, gotCode, gotErr)
		}
		// The rules hide something: without them the report differs.
		if plain, _, _ := run(t, "", append([]string{"-o", format}, without...)...); format == "text" && plain == got {
			t.Errorf("-o %s: the ignoreDifferences hide nothing", format)
		}
	}
}

// withoutIgnoreRules is a JSON report without its options.policy.ignore, and those rules
// compacted.
func withoutIgnoreRules(t *testing.T, report string) (string, string) {
	t.Helper()
	var rep map[string]any
	if err := json.Unmarshal([]byte(report), &rep); err != nil {
		t.Fatal(err)
	}
	policy := rep["options"].(map[string]any)["policy"].(map[string]any)
	rules, err := json.Marshal(policy["ignore"])
	if err != nil {
		t.Fatal(err)
	}
	delete(policy, "ignore")
	out, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), string(rules)
}

// A Flux Kustomization read with --flux-kustomization-file makes the prediction its flags
// make: its namespace/name as --flux-kustomization, spec.force as --flux-force.
func TestFluxKustomizationIsItsFlags(t *testing.T) {
	config, inputs := gitopsConfigInputs(t)
	fromFile := append([]string{"--flux-kustomization-file", filepath.Join(config, "kustomization.yaml")}, inputs...)
	flags := append([]string{"--applier", "flux", "--flux-kustomization", "flux-system/shop-prod", "--flux-force"}, inputs...)
	for _, format := range []string{"text", "json"} {
		got, gotErr, gotCode := run(t, "", append([]string{"-o", format}, fromFile...)...)
		want, wantErr, wantCode := run(t, "", append([]string{"-o", format}, flags...)...)
		if got != want || gotErr != wantErr || gotCode != wantCode {
			t.Errorf("-o %s: the Kustomization (exit %d) differs from its flags (exit %d)\n%s%s\n---\n%s%s", format, gotCode, wantCode, got, gotErr, want, wantErr)
		}
		if !strings.Contains(got, "kustomize.toolkit.fluxcd.io/name") {
			t.Errorf("-o %s: no owner label of the Kustomization in the prediction", format)
		}
	}
}

// A Flux Kustomization that changes its objects (testdata/gitops-e2e/flux-vars: a
// targetNamespace, postBuild variables inline and from a ConfigMap, an escaped $${, a
// default, an object with substitution disabled, a cluster-scoped object) predicts what
// the same objects as kustomize-controller builds them (rendered/, written by hand)
// predict with the equivalent flags, in every format; the ConfigMap is read from a
// --flux-substitute-from file or from the live objects. A variable without a value fails
// its object, as the controller's strict substitution does.
func TestFluxKustomizationBuildsAsTheController(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "gitops-e2e", "flux-vars")
	kus := filepath.Join(dir, "kustomization.yaml")
	repo, rendered := filepath.Join(dir, "repo"), filepath.Join(dir, "rendered")
	for _, format := range []string{"text", "json", "markdown"} {
		for _, live := range [][]string{{"--flux-substitute-from", filepath.Join(dir, "vars.yaml")}, {filepath.Join(dir, "live.json")}} {
			got, gotErr, gotCode := run(t, "", append([]string{"-o", format, "--now", e2eNow, "--flux-kustomization-file", kus, repo}, live...)...)
			wantLive := live[len(live)-1:]
			if len(live) == 2 {
				wantLive = nil
			}
			want, wantErr, wantCode := run(t, "", append([]string{"-o", format, "--now", e2eNow, "--applier", "flux", "--flux-kustomization", "flux-system/shop-vars", rendered}, wantLive...)...)
			want = strings.ReplaceAll(want, rendered, repo)
			if got != want || gotErr != wantErr || gotCode != wantCode {
				t.Errorf("-o %s %v: the Kustomization (exit %d) differs from its rendering (exit %d)\n%s%s\n---\n%s%s", format, live, gotCode, wantCode, got, gotErr, want, wantErr)
			}
			if gotCode != 1 {
				t.Errorf("-o %s: exit %d, want 1\n%s", format, gotCode, gotErr)
			}
		}
	}
	strict := writeFiles(t, map[string]string{"k.yaml": strings.Replace(readFile(t, kus), `replicas: "2"`, `other: "2"`, 1)})
	out, errs, _ := run(t, "", "--now", e2eNow, "--flux-kustomization-file", filepath.Join(strict, "k.yaml"), repo, filepath.Join(dir, "live.json"))
	if want := `app.yaml, document 0, line 1: as Flux Kustomization flux-system/shop-vars builds it: postBuild substitution (as kustomize-controller runs it, strict): variable not set (strict mode): "replicas"`; !strings.Contains(out+errs, want) {
		t.Errorf("an unset variable:\n%s%s\nwant %s", out, errs, want)
	}
}

// The Kustomization's objects, built and predicted against the live state recorded from
// kube-apiserver 1.37.2 (testdata/gitops-e2e/flux-vars/record.sh: an earlier revision
// applied as kustomize-controller, a hand's annotation), are what the server stores when
// it gets them as kustomize-controller sends them (server-dry-run.json): namespace,
// substituted values, the escaped and disabled variables, managedFields; times and
// resourceVersion aside.
func TestFluxKustomizationIsTheServersAnswer(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "gitops-e2e", "flux-vars")
	out, errs, code := run(t, "", "-o", "json", "--now", e2eNow, "--flux-kustomization-file", filepath.Join(dir, "kustomization.yaml"),
		filepath.Join(dir, "repo"), filepath.Join(dir, "live.json"))
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Results []struct {
			Kind, Name, Action string
			Object             map[string]any `json:"object"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var server struct{ Items []map[string]any }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "server-dry-run.json"))), &server); err != nil || len(server.Items) != 3 {
		t.Fatalf("server-dry-run.json: %v", err)
	}
	strip := func(obj map[string]any) map[string]any {
		md, _ := obj["metadata"].(map[string]any)
		delete(md, "resourceVersion")
		mf, _ := md["managedFields"].([]any)
		for _, e := range mf {
			delete(e.(map[string]any), "time")
		}
		return obj
	}
	for _, want := range server.Items {
		md := want["metadata"].(map[string]any)
		found := false
		for _, r := range rep.Results {
			if r.Kind != want["kind"] || r.Name != md["name"] {
				continue
			}
			found = true
			if r.Action != "update" {
				t.Errorf("%s %s: %s, want update", r.Kind, r.Name, r.Action)
			}
			if got := strip(r.Object); !reflect.DeepEqual(got, strip(want)) {
				g, _ := json.MarshalIndent(got, "", " ")
				w, _ := json.MarshalIndent(want, "", " ")
				t.Errorf("%s %s: the predicted object is not the server's:\n%s\n---\n%s", r.Kind, r.Name, g, w)
			}
		}
		if !found {
			t.Errorf("%s %v not predicted", want["kind"], md["name"])
		}
	}
}

// What the files say and the command cannot take is refused (exit 2), naming the field
// and, for a flag saying otherwise, both.
func TestGitOpsConfigRefusals(t *testing.T) {
	config, inputs := gitopsConfigInputs(t)
	app := filepath.Join(config, "application.yaml")
	kus := filepath.Join(config, "kustomization.yaml")
	const appHead = "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: shop}\nspec:\n  destination: {namespace: shop-prod}\n"
	const kusHead = "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: shop, namespace: flux-system}\nspec:\n"
	dir := writeFiles(t, map[string]string{
		"csa.yaml":       appHead + "  syncPolicy: {syncOptions: [CreateNamespace=true]}\n",
		"respect.yaml":   appHead + "  syncPolicy: {syncOptions: [ServerSideApply=true, RespectIgnoreDifferences=true]}\n  ignoreDifferences:\n  - {kind: Deployment, managedFieldsManagers: [kube-controller-manager]}\n",
		"replace.yaml":   appHead + "  syncPolicy: {syncOptions: [ServerSideApply=true, Replace=true]}\n",
		"select.yaml":    appHead + "  syncPolicy: {syncOptions: [ServerSideApply=true]}\n  ignoreDifferences:\n  - {kind: Deployment, jqPathExpressions: ['.spec.template.spec.initContainers[] | select(.name == \"istio-init\")']}\n",
		"optional.yaml":  appHead + "  syncPolicy: {syncOptions: [ServerSideApply=true]}\n  ignoreDifferences:\n  - {kind: Deployment, jqPathExpressions: ['.spec.foo?']}\n",
		"strategy.yaml":  kusHead + "  postBuild:\n    substituteStrategy: Sometimes\n",
		"badname.yaml":   kusHead + "  postBuild:\n    substitute: {my-var: \"3\"}\n",
		"ignore.yaml":    kusHead + "  ignore:\n  - paths: [/spec/replicas]\n    target: {kind: Deployment}\n",
		"badignore.yaml": kusHead + "  ignore:\n  - paths: [spec/replicas]\n",
		"unnamed.yaml":   "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nspec: {}\n",
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--argocd-application", app, "-n", "shop-staging"}, `spec.destination.namespace is "shop-prod", but --namespace shop-staging was given`},
		{[]string{"--argocd-application", app, "--argocd-app", "other"}, `metadata.name is "shop", but --argocd-app other was given`},
		{[]string{"--argocd-application", app, "--applier", "kubectl"}, `but --applier kubectl was given`},
		{[]string{"--argocd-application", app, "--flux-kustomization-file", kus}, "give one"},
		{[]string{"--argocd-application", kus}, "not an Argo CD Application"},
		{[]string{"--argocd-application", filepath.Join(dir, "missing.yaml")}, "missing.yaml"},
		{[]string{"--argocd-application", filepath.Join(dir, "csa.yaml")}, "no ServerSideApply=true"},
		{[]string{"--argocd-application", filepath.Join(dir, "respect.yaml")}, "RespectIgnoreDifferences=true with managedFieldsManagers (ignore rule 0) is not predicted"},
		{[]string{"--argocd-application", filepath.Join(dir, "replace.yaml")}, "sync option Replace=true is not predicted"},
		{[]string{"--argocd-application", filepath.Join(dir, "select.yaml")}, `spec.ignoreDifferences[0].jqPathExpressions[0]: the jq expression ".spec.template.spec.initContainers[] | select(.name == \"istio-init\")" is not taken`},
		{[]string{"--argocd-application", filepath.Join(dir, "optional.yaml")}, `the jq expression ".spec.foo?" is not taken`},
		{[]string{"--flux-kustomization-file", kus, "--flux-kustomization", "flux-system/other"}, `metadata.namespace/name is "flux-system/shop-prod", but --flux-kustomization flux-system/other was given`},
		{[]string{"--flux-kustomization-file", kus, "--flux-force=false"}, `spec.force is "true", but --flux-force false was given`},
		{[]string{"--flux-kustomization-file", app}, "not a Flux Kustomization"},
		{[]string{"--flux-kustomization-file", filepath.Join(dir, "strategy.yaml")}, `spec.postBuild.substituteStrategy: "Sometimes" (want WithVariables or Always)`},
		{[]string{"--flux-kustomization-file", filepath.Join(dir, "badname.yaml")}, `variable name "my-var" is invalid`},
		{[]string{"--flux-substitute-from", filepath.Join(dir, "badname.yaml")}, "give the --flux-kustomization-file"},
		{[]string{"--flux-kustomization-file", filepath.Join(dir, "badignore.yaml")}, `badignore.yaml: spec.ignore[0]: paths[0]: "spec/replicas" is not a JSON pointer`},
		{[]string{"--flux-kustomization-file", filepath.Join(dir, "unnamed.yaml")}, "metadata.namespace and metadata.name are needed"},
	} {
		out, errs, code := run(t, "", append(c.args, inputs...)...)
		if code != 2 || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%q: exit %d, stderr %q, want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// --flux-ignore takes spec.ignore's rules: a Deployment whose replicas another applier
// changed (testdata/flux-ignore, recorded from fluxcd/pkg/ssa) is no drift under a rule
// ignoring them — Flux sends nothing — and is drift without it.
func TestFluxIgnoreFlag(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "flux-ignore", "replicas-other-applier-unchanged")
	args := []string{"--now", e2eNow, "-o", "json", "--applier", "flux", filepath.Join(dir, "manifest.yaml"), filepath.Join(dir, "live.json")}
	for _, c := range []struct {
		rules  []string
		action string
	}{
		{[]string{"--flux-ignore", `{"paths":["/spec/replicas"],"target":{"kind":"Deployment"}}`}, `"action": "unchanged"`},
		{nil, `"action": "update"`},
	} {
		out, errs, code := run(t, "", append(c.rules, args...)...)
		if !strings.Contains(out, c.action) || code > 1 {
			t.Errorf("%v: exit %d, want %s\n%s%s", c.rules, code, c.action, out, errs)
		}
	}
}
