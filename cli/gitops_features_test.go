package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/merge"
)

// featureReport is what these tests read of a report.
type featureReport struct {
	Results []struct {
		Kind, Namespace, Name, Action string
		Source                        struct {
			File, Via string
			Document  int
			Line      int
		}
		Prune          *struct{ Applier, Message string }
		Approximations []struct{ Reason, Message string }
		Error          *struct {
			Code   int
			Fields []struct{ Path, DidYouMean string }
		}
		Warnings []string
		Findings []struct {
			Category, Level, Reason, File, Message string
			Line                                   int
		}
	}
	Summary struct{ Objects, Pruned, Approximate, ExitCode int }
}

func readFeatureReport(t *testing.T, out string) featureReport {
	t.Helper()
	var r featureReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return r
}

func (r featureReport) pruned() []string {
	var out []string
	for _, res := range r.Results {
		if res.Action == "prune" {
			out = append(out, res.Kind+" "+res.Namespace+"/"+res.Name)
		}
	}
	return out
}

// liveCM is a live ConfigMap with managedFields, labels and annotations.
func liveCM(ns, name string, labels, annotations map[string]string, extra string) string {
	meta := map[string]any{"name": name, "namespace": ns, "uid": "u-" + name,
		"managedFields": []any{map[string]any{"manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1",
			"fieldsV1": map[string]any{"f:data": map[string]any{"f:a": map[string]any{}}}}}}
	if labels != nil {
		meta["labels"] = labels
	}
	if annotations != nil {
		meta["annotations"] = annotations
	}
	if extra != "" {
		var refs []any
		json.Unmarshal([]byte(extra), &refs)
		meta["ownerReferences"] = refs
	}
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": map[string]any{"a": "1"}})
	return string(b)
}

func liveList(items ...string) string {
	return `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + "]}"
}

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

func TestPrunePreview(t *testing.T) {
	manifest := cmYAML("kept", "shop", `"1"`, "")
	la := map[string]string{lastApplied: "{}"}
	live := liveList(
		liveCM("shop", "kept", map[string]string{"app": "shop"}, la, ""),
		liveCM("shop", "gone", map[string]string{"app": "shop"}, la, ""),       // kubectl prunes it
		liveCM("shop", "other-app", map[string]string{"app": "blog"}, la, ""),  // not selected
		liveCM("shop", "hand-made", map[string]string{"app": "shop"}, nil, ""), // never applied by kubectl apply
		liveCM("elsewhere", "gone", map[string]string{"app": "shop"}, la, ""),  // a namespace the apply does not visit
		liveCM("shop", "argo", nil, map[string]string{appliers.ArgoCDTrackingAnnotation: "shop:/ConfigMap:shop/argo"}, ""),
		liveCM("shop", "argo-copy", nil, map[string]string{appliers.ArgoCDTrackingAnnotation: "shop:/ConfigMap:shop/argo"}, ""), // a copy: its id names another object
		liveCM("shop", "argo-keep", nil, map[string]string{appliers.ArgoCDTrackingAnnotation: "shop:/ConfigMap:shop/argo-keep", "argocd.argoproj.io/sync-options": "Prune=false"}, ""),
		liveCM("shop", "argo-child", nil, map[string]string{appliers.ArgoCDTrackingAnnotation: "shop:/ConfigMap:shop/argo-child"}, `[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"x"}]`),
		liveCM("shop", "argo-label", map[string]string{appliers.ArgoCDInstanceLabel: "shop"}, nil, ""),
		liveCM("shop", "flux", map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"}, nil, ""),
		liveCM("shop", "flux-keep", map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"}, map[string]string{"kustomize.toolkit.fluxcd.io/prune": "disabled"}, ""),
	)
	dir := writeFiles(t, map[string]string{"m.yaml": manifest, "live.json": live})
	m, l := filepath.Join(dir, "m.yaml"), filepath.Join(dir, "live.json")
	for _, c := range []struct {
		name string
		args []string
		want string
		code int
	}{
		{"kubectl selector", []string{"--prune", "-l", "app=shop"}, "ConfigMap shop/gone", 1},
		{"kubectl set selector", []string{"--prune", "-l", "app in (shop,blog)"}, "ConfigMap shop/gone,ConfigMap shop/other-app", 1},
		{"kubectl --all", []string{"--prune", "--all"}, "ConfigMap shop/gone,ConfigMap shop/other-app", 1},
		{"kubectl allowlist without ConfigMap", []string{"--prune", "--all", "--prune-allowlist", "apps/v1/Deployment"}, "", 1},
		{"kubectl allowlist", []string{"--prune", "--all", "--prune-allowlist", "core/v1/ConfigMap"}, "ConfigMap shop/gone,ConfigMap shop/other-app", 1},
		{"kubectl -n visits its namespace", []string{"--prune", "-l", "app=shop", "-n", "elsewhere"}, "ConfigMap shop/gone,ConfigMap elsewhere/gone", 1},
		{"fail on prune", []string{"--prune", "-l", "app=shop", "--fail-on", "prune"}, "ConfigMap shop/gone", 4},
		{"argocd annotation", []string{"--applier", "argocd", "--argocd-app", "shop", "--prune"}, "ConfigMap shop/argo", 1},
		{"argocd label", []string{"--applier", "argocd", "--argocd-app", "shop", "--argocd-tracking", "label", "--prune"}, "ConfigMap shop/argo-label", 1},
		{"argocd other installation", []string{"--applier", "argocd", "--argocd-app", "shop", "--argocd-installation-id", "x", "--prune"}, "", 1},
		{"flux", []string{"--applier", "flux", "--flux-kustomization", "flux-system/apps", "--prune"}, "ConfigMap shop/flux", 1},
		{"no --prune", []string{"--applier", "flux", "--flux-kustomization", "flux-system/apps"}, "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"--now", "2026-12-02T12:00:00Z", "-o", "json"}, c.args...), m, l)
			out, stderr, code := run(t, "", args...)
			rep := readFeatureReport(t, out)
			if got := strings.Join(rep.pruned(), ","); got != c.want || code != c.code {
				t.Fatalf("pruned %q exit %d, want %q exit %d\n%s", got, code, c.want, c.code, stderr)
			}
			validateReport(t, []byte(out))
			if rep.Summary.Pruned != len(rep.pruned()) {
				t.Errorf("summary counts %d pruned", rep.Summary.Pruned)
			}
			for _, r := range rep.Results {
				if r.Action == "prune" && (r.Prune == nil || r.Source.File != l || len(r.Findings) != 1 || r.Findings[0].Category != "prune") {
					t.Errorf("a pruned object: %+v", r)
				}
			}
		})
	}
	// The formats say it.
	for format, want := range map[string]string{
		"text":     "v1 ConfigMap shop/gone: prune  [live ",
		"github":   "title=ConfigMap shop/gone%3A prune::kubectl apply --prune deletes it",
		"junit":    `<testcase name="v1 ConfigMap shop/gone"`,
		"markdown": "| to create | to update | unchanged | to prune |",
		"diff":     "-kind: ConfigMap",
	} {
		out, _, _ := run(t, "", "--now", "2026-12-02T12:00:00Z", "-o", format, "--prune", "-l", "app=shop", m, l)
		if !strings.Contains(out, want) {
			t.Errorf("-o %s does not show the prune (%q):\n%s", format, want, out)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-l", "app=x"}, "--selector needs --prune"},
		{[]string{"--prune"}, "without explicitly passing --all"},
		{[]string{"--prune", "--all", "-l", "a=b"}, "cannot set --all and --selector"},
		{[]string{"--prune", "-l", "a in b"}, `--selector "a in b": unable to parse requirement: found 'b' expected: '('`},
		{[]string{"--prune", "--all", "--prune-allowlist", "ConfigMap"}, "please follow <group/version/kind>"},
		{[]string{"--applier", "argocd", "--prune"}, "needs --argocd-app"},
		{[]string{"--applier", "flux", "--prune"}, "needs --flux-kustomization"},
		{[]string{"--applier", "api", "--prune"}, "prunes nothing"},
		{[]string{"--applier", "argocd", "--argocd-app", "a", "--prune", "-l", "x=y"}, "kubectl's"},
	} {
		_, stderr, code := run(t, "", append(c.args, m, l)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestApproximations(t *testing.T) {
	crdKind := "apiVersion: ops.example.com/v1\nkind: BackupPolicy\nmetadata:\n  name: nightly\n  namespace: shop\nspec:\n  schedule: daily\n"
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 2\n  maxReplicas: 5\n"
	hpaLive := `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web","namespace":"shop","uid":"1",
		"managedFields":[{"manager":"old-tool","operation":"Update","apiVersion":"autoscaling/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:maxReplicas":{}}}}]},
		"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":4}}`
	webhook := `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration","metadata":{"name":"sidecars","uid":"2"},
		"webhooks":[{"name":"inject.sidecars.io","rules":[{"apiGroups":["apps"],"apiVersions":["v1"],"resources":["deployments"],"operations":["CREATE","UPDATE"]}],
		"clientConfig":{"url":"https://x"},"sideEffects":"None","admissionReviewVersions":["v1"]},
		{"name":"only-labelled.sidecars.io","objectSelector":{"matchLabels":{"inject":"true"}},"rules":[{"apiGroups":["*"],"apiVersions":["*"],"resources":["*"],"operations":["*"]}],
		"clientConfig":{"url":"https://x"},"sideEffects":"None","admissionReviewVersions":["v1"]}]}`
	deploy := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: web:1\n"
	dir := writeFiles(t, map[string]string{
		"crd.yaml": crdKind, "hpa.yaml": hpa, "deploy.yaml": deploy, "cm.yaml": cmYAML("plain", "shop", `"1"`, ""),
		"live.json": liveList(hpaLive, webhook),
	})
	live := filepath.Join(dir, "live.json")
	for _, c := range []struct {
		manifest, reason, says string
	}{
		{"crd.yaml", "no-schema", "give its CustomResourceDefinition with --crd FILE"},
		{"hpa.yaml", "version-conversion", "managers recorded fields at autoscaling/v1 (old-tool)"},
		{"deploy.yaml", "webhook", `the mutating admission webhook "inject.sidecars.io" (MutatingWebhookConfiguration "sidecars", live `},
		{"cm.yaml", "", ""},
	} {
		t.Run(c.manifest, func(t *testing.T) {
			args := []string{"--now", "2026-12-02T12:00:00Z", "-o", "json", filepath.Join(dir, c.manifest), live}
			out, _, code := run(t, "", args...)
			rep := readFeatureReport(t, out)
			validateReport(t, []byte(out))
			r := rep.Results[0]
			if c.reason == "" {
				if len(r.Approximations) != 0 || rep.Summary.Approximate != 0 {
					t.Fatalf("approximations %+v", r.Approximations)
				}
				return
			}
			if len(r.Approximations) != 1 || r.Approximations[0].Reason != c.reason || !strings.Contains(r.Approximations[0].Message, c.says) {
				t.Fatalf("approximations %+v, want one %s saying %q", r.Approximations, c.reason, c.says)
			}
			for _, w := range r.Warnings {
				if strings.Contains(w, "no schema for") {
					t.Errorf("the registry's warning stays beside the approximation: %q", w)
				}
			}
			approx := 0
			for _, f := range r.Findings {
				if f.Category == "approximate" {
					approx++
					if f.Reason != c.reason || f.Level != "warning" {
						t.Errorf("finding %+v", f)
					}
				}
			}
			if approx != 1 || rep.Summary.Approximate != 1 || code == 4 {
				t.Errorf("%d approximate findings, summary %d, exit %d", approx, rep.Summary.Approximate, code)
			}
			// Strict mode fails on it, whatever the rest.
			out, _, code = run(t, "", append([]string{"--fail-on", "approximate"}, args...)...)
			if code != 4 || !strings.Contains(out, `"level": "failure"`) {
				t.Errorf("--fail-on approximate: exit %d", code)
			}
		})
	}
	// A --schema v2 document.
	v2 := `{"swagger":"2.0","info":{"title":"x","version":"1"},"paths":{},"definitions":{"io.example.Widget":{"type":"object",
		"x-kubernetes-group-version-kind":[{"group":"example.io","version":"v1","kind":"Widget"}],"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"spec":{"type":"object"}}}}}`
	dir2 := writeFiles(t, map[string]string{"v2.json": v2, "w.yaml": "apiVersion: example.io/v1\nkind: Widget\nmetadata:\n  name: w\nspec: {}\n"})
	out, _, _ := run(t, "", "--now", "2026-12-02T12:00:00Z", "-o", "json", "--schema", filepath.Join(dir2, "v2.json"), filepath.Join(dir2, "w.yaml"))
	if rep := readFeatureReport(t, out); len(rep.Results[0].Approximations) != 1 || rep.Results[0].Approximations[0].Reason != "openapi-v2" {
		t.Errorf("a kind of an OpenAPI v2 document: %+v", rep.Results[0].Approximations)
	}
}

// refusing answers every apply with a 422 whose causes name fields.
type refusing struct{}

func (*refusing) Predict(appliers.Applier, merge.Request) (*merge.Result, error) {
	return &merge.Result{Action: merge.ActionRejected, Rejection: &merge.StatusError{Code: 422, Reason: "Invalid",
		Message: `Deployment.apps "web" is invalid: spec.template.spec.containers[0].image: Required value`,
		Details: &merge.StatusDetails{Causes: []merge.StatusCause{{Reason: "FieldValueRequired", Message: "Required value", Field: "spec.template.spec.containers[0].image"}}}}}, nil
}

// TestRefusalAtItsField: a refusal whose causes name a field is reported at the field's
// line (a 422 here, whatever validation answers); a field the schema does not declare gets
// the schema's closest name.
func TestRefusalAtItsField(t *testing.T) {
	deploy := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replcas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: \"\"\n"
	dir := writeFiles(t, map[string]string{"d.yaml": deploy})
	out, _, code := runFake(t, &refusing{}, "", "-o", "json", filepath.Join(dir, "d.yaml"))
	rep := readFeatureReport(t, out)
	f := rep.Results[0].Findings[0]
	if code != 3 || f.Category != "rejected" || f.Line != 17 || len(rep.Results[0].Error.Fields) != 1 {
		t.Errorf("exit %d, finding %+v, fields %+v; want the rejection at line 17", code, f, rep.Results[0].Error.Fields)
	}
	out, _, _ = runFake(t, &refusing{}, "", "-o", "github", filepath.Join(dir, "d.yaml"))
	if !strings.Contains(out, "line=17,") {
		t.Errorf("-o github:\n%s", out)
	}

	// The real engine: a field the schema does not declare (500, no causes).
	for format, want := range map[string]string{
		"json":   `"didYouMean": ".spec.replicas"`,
		"text":   "field: .spec.replcas (line 6); did you mean .spec.replicas?",
		"github": "line=6,title=Deployment default/web%3A rejected::",
	} {
		out, _, code := run(t, "", "--applier", "api", "-o", format, filepath.Join(dir, "d.yaml"))
		if code != 3 || !strings.Contains(out, want) {
			t.Errorf("-o %s: exit %d, want %q in\n%s", format, code, want, out)
		}
	}
	// The real engine's 422: a cause names a map key in brackets.
	cm := writeFiles(t, map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ndata:\n  ok: \"1\"\n  \"bad key!\": \"2\"\n"})
	if out, _, code := run(t, "", "--applier", "api", "-o", "github", filepath.Join(cm, "cm.yaml")); code != 3 || !strings.Contains(out, "cm.yaml,line=7,title=ConfigMap default/bad%3A rejected::the server would refuse the apply (422 Invalid)") {
		t.Errorf("a 422 on a data key: exit %d\n%s", code, out)
	}
}

func TestKustomizeFlagsAndDirectories(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"app/kustomization.yaml": "namespace: shop\nresources:\n- cm.yaml\n",
		"app/cm.yaml":            cmYAML("settings", "", `"1"`, ""),
		"plain/cm.yaml":          cmYAML("plain", "", `"1"`, ""),
	})
	out, stderr, code := run(t, "", "-o", "json", filepath.Join(dir, "app"))
	rep := readFeatureReport(t, out)
	if code != 1 || len(rep.Results) != 1 || rep.Results[0].Namespace != "shop" || rep.Results[0].Source.Via != "kustomize "+filepath.ToSlash(filepath.Join(dir, "app")) ||
		rep.Results[0].Source.File != filepath.Join(dir, "app", "cm.yaml") || !strings.Contains(stderr, "holds a kustomization: built as `kubectl apply -k") {
		t.Errorf("a kustomization directory as MANIFESTS: exit %d, %+v, stderr %q", code, rep.Results, stderr)
	}
	out, _, code = run(t, "", "-o", "json", "-k", filepath.Join(dir, "app"), "-f", filepath.Join(dir, "plain"))
	if rep := readFeatureReport(t, out); code != 1 || len(rep.Results) != 2 {
		t.Errorf("-k and -f: exit %d, %d results", code, len(rep.Results))
	}
	for _, c := range []struct{ args []string }{{[]string{"-k", filepath.Join(dir, "plain")}}, {[]string{"-k", filepath.Join(dir, "nowhere")}}} {
		if _, stderr, code := run(t, "", c.args...); code != 2 || !strings.Contains(stderr, "-k ") {
			t.Errorf("%q: exit %d, %q", c.args, code, stderr)
		}
	}
}
