package advice

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"

	"github.com/ssa-diff/ssa-diff/conformance"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/merge"
)

// Every recorded apply, through the real engine: exactly these advice ids, and none for
// the others. This catches false alarms as much as missing advice.
func TestEveryRecordedApply(t *testing.T) {
	want := map[string][]string{
		"apply-status-subresource":                 {IDStatusInManifest},
		"before-first-apply-conflict":              {IDClientSideApplyLeftovers},
		"before-first-apply-force":                 {IDClientSideApplyLeftovers},
		"conflict-multiple-managers":               {IDFightsController, IDFightsController},
		"crd-status-reset-on-main":                 {IDStatusInManifest},
		"duplicate-env-live-then-apply":            {IDFightsController},
		"kubectl-conflict-without-force":           {IDFightsController},
		"kubectl-csa-to-ssa-deployment-scaled":     {IDClientSideApplyLeftovers},
		"kubectl-csa-to-ssa-migration-drop-field":  {IDClientSideApplyLeftovers},
		"last-applied-kubectl-relaxation-conflict": {IDFightsController},
		"last-applied-kubectl-relaxation-success":  {IDClientSideApplyLeftovers},
		"prune-coowned-fields-kept":                {IDCoOwnedFieldKept},
		"prune-item-updater-owns-subfield":         {IDItemRemovedDespiteCoOwner},
		"scale-then-apply-conflict":                {IDFightsController},
		"status-in-main-apply-ignored":             {IDStatusInManifest},
		"update-then-apply-conflict":               {IDFightsController},
	}
	cases, err := conformance.LoadCases(testkit.RecordedDir(t))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, c := range cases {
		if !strings.HasPrefix(c.Request.Verb, "apply") {
			continue // Analyze is about applies
		}
		seen++
		s := replay(t, c.Name, nil)
		got := ids(s.analyze())
		if !sameStrings(got, want[c.Name]) {
			t.Errorf("%s: advice %v, want %v\n%s", c.Name, got, want[c.Name], dump(s.analyze()))
		}
	}
	if seen < 50 {
		t.Errorf("only %d recorded applies", seen)
	}
}

func TestStatusInManifest(t *testing.T) {
	t.Run("main resource create", func(t *testing.T) {
		s := replay(t, "status-in-main-apply-ignored", nil)
		got := only(s.analyze(), IDStatusInManifest)
		if len(got) != 1 || !sameStrings(got[0].Paths, []string{".status"}) || got[0].Severity != SeverityWarning {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "creates the object without .status", "reset on the main resource")
		mustContain(t, "fix", got[0].Fix, "--subresource=status")
	})
	t.Run("custom resource with status subresource", func(t *testing.T) {
		got := only(replay(t, "crd-status-reset-on-main", nil).analyze(), IDStatusInManifest)
		if len(got) != 1 || !sameStrings(got[0].Paths, []string{".status"}) {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "ignores .status")
	})
	t.Run("spec sent to /status", func(t *testing.T) {
		got := only(replay(t, "apply-status-subresource", nil).analyze(), IDStatusInManifest)
		if len(got) != 1 || !sameStrings(got[0].Paths, []string{".spec"}) {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "reset on the /status subresource")
		mustContain(t, "fix", got[0].Fix, "apply .spec to the main resource")
	})
	t.Run("labels sent to a Deployment's /status", func(t *testing.T) {
		// Deployment's /status also resets metadata.labels (rules.md sub.reset-fields).
		s := replay(t, "apply-status-subresource", func(c *conformance.Case) {
			setPath(c.Manifest, map[string]any{"tier": "mail"}, "metadata", "labels")
		})
		got := only(s.analyze(), IDStatusInManifest)
		if len(got) != 1 || !sameStrings(got[0].Paths, []string{".metadata.labels", ".spec"}) {
			t.Fatalf("got %s", dump(got))
		}
	})
	t.Run("empty status is not advice", func(t *testing.T) {
		// `kubectl create deployment --dry-run=client -o yaml` prints status: {}.
		s := replay(t, "create-deployment-apply", func(c *conformance.Case) { c.Manifest["status"] = map[string]any{} })
		if got := s.analyze(); len(got) != 0 {
			t.Fatalf("got %s", dump(got))
		}
	})
	t.Run("without schemas", func(t *testing.T) {
		s := replay(t, "status-in-main-apply-ignored", nil)
		s.opts.Schemas = nil
		if got := only(s.analyze(), IDStatusInManifest); len(got) != 1 {
			t.Fatalf("got %s", dump(got))
		}
	})
	t.Run("silenced", func(t *testing.T) {
		s := replay(t, "status-in-main-apply-ignored", nil)
		s.opts.Disabled = map[string]bool{IDStatusInManifest: true}
		if got := s.analyze(); len(got) != 0 {
			t.Fatalf("got %s", dump(got))
		}
	})
}

func TestFightsController(t *testing.T) {
	t.Run("HPA through /scale", func(t *testing.T) {
		got := only(replay(t, "scale-then-apply-conflict", nil).analyze(), IDFightsController)
		if len(got) != 1 || !sameStrings(got[0].Paths, []string{".spec.replicas"}) || !sameStrings(got[0].Managers, []string{"hpa-controller"}) {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, `the autoscaler "hpa-controller" writes through /scale`, "live 10, manifest 4", "refused")
		mustContain(t, "fix", got[0].Fix, "remove spec.replicas", "minReplicas", "force=true")
	})
	t.Run("HPA through a PUT, kubectl applier", func(t *testing.T) {
		got := only(replay(t, "kubectl-conflict-without-force", nil).analyze(), IDFightsController)
		if len(got) != 1 {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "fix", got[0].Fix, "--force-conflicts")
		got = only(replay(t, "update-then-apply-conflict", nil).analyze(), IDFightsController)
		if len(got) != 1 {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, `"hpa-controller" writes with updates`, "live 9, manifest 2")
	})
	t.Run("a controller's annotation, and an Apply manager is no controller", func(t *testing.T) {
		got := only(replay(t, "conflict-multiple-managers", nil).analyze(), IDFightsController)
		if len(got) != 2 {
			t.Fatalf("got %s", dump(got))
		}
		// alice (an Apply manager) also conflicts: that is the normal 409, not a fight.
		if got[0].Managers[0] != "hpa-controller" || got[1].Managers[0] != "rollout-ctl" {
			t.Fatalf("managers %v %v", got[0].Managers, got[1].Managers)
		}
		if !sameStrings(got[1].Paths, []string{".metadata.annotations.rollout.example.com/phase"}) {
			t.Fatalf("paths %v", got[1].Paths)
		}
		mustContain(t, "message", got[1].Message, `the controller "rollout-ctl" writes through /status`)
	})
	t.Run("forced: the apply takes it and the fight goes on", func(t *testing.T) {
		s := replay(t, "scale-then-apply-conflict", func(c *conformance.Case) { c.Request.Force = true })
		got := only(s.analyze(), IDFightsController)
		if len(got) != 1 {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "takes .spec.replicas from", "write it back")
		s.in.Applier = "argocd"
		mustContain(t, "message", only(s.analyze(), IDFightsController)[0].Message, "every sync forces")
	})
	t.Run("the usual fix: replicas left out", func(t *testing.T) {
		if got := replay(t, "scale-then-apply-without-replicas", nil).analyze(); len(got) != 0 {
			t.Fatalf("got %s", dump(got))
		}
	})
}

func TestOverridesManualChange(t *testing.T) {
	// The replica count was last changed with `kubectl edit` (an Update as kubectl-edit).
	s := replay(t, "update-then-apply-conflict", func(c *conformance.Case) {
		for _, e := range c.Live["metadata"].(map[string]any)["managedFields"].([]any) {
			if m := e.(map[string]any); m["manager"] == "hpa-controller" {
				m["manager"] = "kubectl-edit"
			}
		}
	})
	all := s.analyze()
	got := only(all, IDOverridesManualChange)
	if len(got) != 1 || len(only(all, IDFightsController)) != 0 || got[0].Severity != SeverityInfo {
		t.Fatalf("got %s", dump(all))
	}
	mustContain(t, "message", got[0].Message, "by hand with kubectl edit", "conflicts")
	mustContain(t, "fix", got[0].Fix, "put it into the manifest")
}

func TestClientSideApplyLeftovers(t *testing.T) {
	t.Run("kubectl migrates and deletes the dropped key", func(t *testing.T) {
		got := only(replay(t, "kubectl-csa-to-ssa-migration-drop-field", nil).analyze(), IDClientSideApplyLeftovers)
		if len(got) != 1 || got[0].Severity != SeverityWarning || !sameStrings(got[0].Paths, []string{".data.DEBUG"}) ||
			!sameStrings(got[0].Managers, []string{"kubectl-client-side-apply"}) {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "`kubectl apply --server-side` migrates", "deletes .data.DEBUG")
	})
	t.Run("kubectl migrates, nothing deleted", func(t *testing.T) {
		got := only(replay(t, "kubectl-csa-to-ssa-deployment-scaled", nil).analyze(), IDClientSideApplyLeftovers)
		if len(got) != 1 || got[0].Severity != SeverityInfo || len(got[0].Paths) != 0 {
			t.Fatalf("got %s", dump(got))
		}
	})
	t.Run("a raw apply is refused by the client-side owner", func(t *testing.T) {
		// The same object applied by a controller-style manager instead of kubectl: the
		// changed CDN_URL conflicts with client-side apply's entry, and no relaxation helps.
		s := replay(t, "kubectl-csa-to-ssa-migration-drop-field", func(c *conformance.Case) {
			c.Request.Mode, c.Request.FieldManager = "api", "gitops"
		})
		got := only(s.analyze(), IDClientSideApplyLeftovers)
		if len(got) != 2 || !sameStrings(got[0].Paths, []string{".data.CDN_URL"}) {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, `conflicts on .data.CDN_URL with "kubectl-client-side-apply"`)
		mustContain(t, "fix", got[0].Fix, "force=true")
		mustContain(t, "message", got[1].Message, "goes stale")
	})
	t.Run("a forced raw apply keeps the client-side entry and the annotation", func(t *testing.T) {
		s := replay(t, "kubectl-csa-to-ssa-migration-drop-field", func(c *conformance.Case) {
			c.Request.Mode, c.Request.FieldManager, c.Request.Force = "api", "gitops", true
		})
		got := only(s.analyze(), IDClientSideApplyLeftovers)
		if len(got) != 2 {
			t.Fatalf("got %s", dump(got))
		}
		stuck, stale := got[0], got[1]
		if stuck.Severity != SeverityWarning || !sameStrings(stuck.Managers, []string{"kubectl-client-side-apply"}) {
			t.Fatalf("stuck %s", dump(got))
		}
		// gitops co-owns what it applies; DEBUG, which it dropped, is held by the leftover alone.
		mustContain(t, "message", stuck.Message, "takes .data.CDN_URL from it by force", "co-owns 2 fields", ".data.API_URL", "alone owns", ".data.DEBUG",
			"`kubectl apply --server-side --field-manager=gitops` would fold it into \"gitops\" and delete .data.DEBUG")
		mustContain(t, "fix", stuck.Fix, "--field-manager=gitops")
		mustContain(t, "message", stale.Message, "goes stale")
		mustContain(t, "fix", stale.Fix, "kubectl annotate configmap/web-env -n kubectl-csa-to-ssa-migration-drop-field kubectl.kubernetes.io/last-applied-configuration-")
		// Without an engine there is no migration forecast.
		s.opts.Engine = nil
		if m := only(s.analyze(), IDClientSideApplyLeftovers)[0].Message; strings.Contains(m, "would fold") {
			t.Errorf("forecast without an engine: %s", m)
		}
	})
	t.Run("untracked object, forced apply", func(t *testing.T) {
		s := replay(t, "before-first-apply-force", nil)
		got := only(s.analyze(), IDClientSideApplyLeftovers)
		if len(got) != 1 || !sameStrings(got[0].Paths, []string{".data.primary", ".data.secondary", ".metadata.annotations.origin"}) {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "no managedFields", "takes .data.primary from it by force", "would not migrate it")
		// The fix names the entry's real position.
		idx := -1
		for i, e := range s.in.Result.ManagedFields {
			if e.Manager == merge.BeforeFirstApplyManager {
				idx = i
			}
		}
		mustContain(t, "fix", got[0].Fix, `"path":"/metadata/managedFields/`+strconv.Itoa(idx)+`"`)
	})
	t.Run("refused by before-first-apply", func(t *testing.T) {
		got := only(replay(t, "before-first-apply-conflict", nil).analyze(), IDClientSideApplyLeftovers)
		if len(got) != 1 || !sameStrings(got[0].Paths, []string{".data.REGION"}) || !sameStrings(got[0].Managers, []string{"before-first-apply"}) {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "conflicts on .data.REGION", "before anyone applied it")
	})
	t.Run("kubectl's relaxation leaves client-side co-owners", func(t *testing.T) {
		got := only(replay(t, "last-applied-kubectl-relaxation-success", nil).analyze(), IDClientSideApplyLeftovers)
		if len(got) != 1 {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "co-owns 4 fields", ".spec.selector", "would fold it into \"kubectl\"")
		for _, p := range got[0].Paths {
			if p == ".metadata.labels" { // a map owned with "." is not a field of its own here
				t.Errorf("paths %v", got[0].Paths)
			}
		}
	})
}

func TestCoOwnedFieldKept(t *testing.T) {
	got := only(replay(t, "prune-coowned-fields-kept", nil).analyze(), IDCoOwnedFieldKept)
	want := []string{".metadata.labels.cost-center", `.spec.template.spec.containers[name="auth-proxy"].image`, `.spec.template.spec.containers[name="auth-proxy"].name`}
	if len(got) != 1 || !sameStrings(got[0].Paths, want) || !sameStrings(got[0].Managers, []string{"team-b"}) {
		t.Fatalf("got %s", dump(got))
	}
	mustContain(t, "message", got[0].Message, `"team-b" still owns them`)
	// Pruned fields the defaulter puts back are owned by nobody: not this advice.
	if got := replay(t, "prune-defaulted-fields-reset", nil).analyze(); len(got) != 0 {
		t.Fatalf("defaulted: %s", dump(got))
	}
}

func TestItemRemovedDespiteCoOwner(t *testing.T) {
	all := replay(t, "prune-item-updater-owns-subfield", nil).analyze()
	got := only(all, IDItemRemovedDespiteCoOwner)
	item := `.spec.template.spec.containers[name="debug"]`
	if len(got) != 1 || !sameStrings(got[0].Paths, []string{item, item + ".workingDir"}) || !sameStrings(got[0].Managers, []string{"tuner"}) {
		t.Fatalf("got %s", dump(all))
	}
	mustContain(t, "message", got[0].Message, "deletes the whole item", `"tuner" owns .workingDir`)
	// The updater lost workingDir with the item: that is no fight.
	if len(only(all, IDFightsController)) != 0 {
		t.Fatalf("fight reported: %s", dump(all))
	}
	// An updater's own item next to a dropped one survives: nothing to say.
	if got := replay(t, "env-keyed-by-name-with-updater", nil).analyze(); len(got) != 0 {
		t.Fatalf("got %s", dump(got))
	}
}

func TestCoOwnerOfControllerValue(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value int64
		how   string
	}{
		{"update-then-apply-conflict", 9, "with the controller \"hpa-controller\""},
		{"scale-then-apply-conflict", 10, "\"hpa-controller\" through /scale"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The manifest now carries the autoscaler's current count: no conflict, shared ownership.
			s := replay(t, tc.name, func(c *conformance.Case) { setPath(c.Manifest, tc.value, "spec", "replicas") })
			if s.in.Result.Rejection != nil {
				t.Fatalf("rejected: %v", s.in.Result.Rejection)
			}
			all := s.analyze()
			got := only(all, IDCoOwnerOfControllerValue)
			if len(got) != 1 || !sameStrings(got[0].Paths, []string{".spec.replicas"}) || !sameStrings(got[0].Managers, []string{"hpa-controller"}) {
				t.Fatalf("got %s", dump(all))
			}
			mustContain(t, "message", got[0].Message, tc.how, "next apply of this manifest conflicts")
		})
	}
}

func TestAPIVersions(t *testing.T) {
	t.Run("removed", func(t *testing.T) {
		for _, tc := range []struct{ name, av, since, to string }{
			{"pdb-percent-then-integer", "policy/v1beta1", "1.25", "policy/v1"},
			{"cronjob-reapply-schedule", "batch/v1beta1", "1.25", "batch/v1"},
			{"hpa-v2-metrics-apply", "autoscaling/v2beta2", "1.26", "autoscaling/v2"},
		} {
			c := loadCase(t, tc.name)
			c.Manifest["apiVersion"] = tc.av
			// The prediction itself is not asked for: the server would not take the request.
			all := Analyze(Input{Live: c.Live, Manifest: c.Manifest}, Options{})
			got := only(all, IDAPIVersionRemoved)
			if len(got) != 1 || got[0].Severity != SeverityWarning || len(all) != 1 {
				t.Fatalf("%s: got %s", tc.name, dump(got))
			}
			mustContain(t, "message", got[0].Message, tc.av, "since Kubernetes "+tc.since, "a server has no such resource")
			mustContain(t, "fix", got[0].Fix, tc.to)
		}
	})
	t.Run("removed, named for the minor predicted", func(t *testing.T) {
		reg, err := schema.NewRegistry(kube.Minor(35))
		if err != nil {
			t.Fatal(err)
		}
		c := loadCase(t, "pdb-percent-then-integer")
		c.Manifest["apiVersion"] = "policy/v1beta1"
		got := only(Analyze(Input{Live: c.Live, Manifest: c.Manifest}, Options{Schemas: reg}), IDAPIVersionRemoved)
		if len(got) != 1 {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "a 1.35 server has no such resource")
	})
	t.Run("removed without replacement", func(t *testing.T) {
		psp := map[string]any{"apiVersion": "policy/v1beta1", "kind": "PodSecurityPolicy",
			"metadata": map[string]any{"name": "restricted"}, "spec": map[string]any{"privileged": false}}
		got := only(Analyze(Input{Manifest: psp}, Options{}), IDAPIVersionRemoved)
		if len(got) != 1 {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "fix", got[0].Fix, "Pod Security Admission")
	})
	t.Run("deprecated", func(t *testing.T) {
		ep := map[string]any{"apiVersion": "v1", "kind": "Endpoints",
			"metadata": map[string]any{"name": "legacy-db", "namespace": "data"},
			"subsets":  []any{map[string]any{"addresses": []any{map[string]any{"ip": "10.0.3.7"}}}}}
		got := only(Analyze(Input{Manifest: ep}, Options{}), IDAPIVersionDeprecated)
		if len(got) != 1 || got[0].Severity != SeverityInfo {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, "deprecated since Kubernetes 1.33")
		mustContain(t, "fix", got[0].Fix, "EndpointSlice")
	})
	t.Run("pre-release superseded, from the schemas", func(t *testing.T) {
		s := replay(t, "create-configmap-apply", nil) // for the registry
		vap := map[string]any{"apiVersion": "admissionregistration.k8s.io/v1beta1", "kind": "ValidatingAdmissionPolicy",
			"metadata": map[string]any{"name": "replica-limit"},
			"spec": map[string]any{"failurePolicy": "Fail", "validations": []any{
				map[string]any{"expression": "object.spec.replicas <= 5"}}}}
		got := only(Analyze(Input{Manifest: vap}, Options{Schemas: s.opts.Schemas}), IDAPIVersionDeprecated)
		if len(got) != 1 {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "fix", got[0].Fix, "admissionregistration.k8s.io/v1")
		// Without schemas the rule has nothing to go on.
		if got := Analyze(Input{Manifest: vap}, Options{}); len(got) != 0 {
			t.Fatalf("got %s", dump(got))
		}
	})
	t.Run("mismatch", func(t *testing.T) {
		// The HPA was created at autoscaling/v2; an old chart applies it at autoscaling/v1.
		c := loadCase(t, "hpa-v2-metrics-apply")
		live := c.Want
		manifest := map[string]any{"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
			"metadata": map[string]any{"name": "checkout-hpa", "namespace": "hpa-v2-metrics-apply"},
			"spec": map[string]any{"maxReplicas": 30, "targetCPUUtilizationPercentage": 65,
				"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "checkout"}}}
		// The server's conversion is the engine's (rules.md version.conversion): nothing to warn about.
		for _, opts := range []Options{{}, {Schemas: schema.MustNewRegistry(kube.Default())}} {
			if got := only(Analyze(Input{Live: live, Manifest: manifest, Manager: "legacy-chart"}, opts), IDAPIVersionMismatch); len(got) != 0 {
				t.Fatalf("got %s", dump(got))
			}
		}
	})
}

// TestAPIVersionMismatch: apiversion-mismatch is said for what the engine cannot convert as
// the server does, and for entries the server drops (rules.md version.own-version, version.conversion).
func TestAPIVersionMismatch(t *testing.T) {
	entry := func(manager, apiVersion string) map[string]any {
		return map[string]any{"manager": manager, "operation": "Update", "apiVersion": apiVersion, "time": "2026-12-01T00:00:00Z",
			"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{"f:size": map[string]any{}}}}
	}
	object := func(apiVersion, kind string, entries ...any) map[string]any {
		return map[string]any{"apiVersion": apiVersion, "kind": kind,
			"metadata": map[string]any{"name": "x", "namespace": "ns", "managedFields": entries}}
	}
	reg := schema.MustNewRegistry(kube.Default())
	if err := reg.AddCRD("crd.yaml", []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  conversion: {strategy: Webhook}
  versions:
  - {name: v2, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - {name: v1, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`)); err != nil {
		t.Fatal(err)
	}
	t.Run("dropped", func(t *testing.T) {
		live := object("apps/v1", "Deployment", entry("old-operator", "apps/v1beta2"), entry("web", "apps/v1"))
		for _, opts := range []Options{{}, {Schemas: reg}} {
			got := only(Analyze(Input{Live: live, Manifest: object("apps/v1", "Deployment"), Manager: "web"}, opts), IDAPIVersionMismatch)
			if len(got) != 1 || !sameStrings(got[0].Managers, []string{"old-operator"}) {
				t.Fatalf("got %s", dump(got))
			}
			mustContain(t, "message", got[0].Message, `"old-operator" at apps/v1beta2`, "drops them")
		}
	})
	t.Run("webhook", func(t *testing.T) {
		live := object("example.com/v2", "Widget", entry("ops", "example.com/v1"))
		got := only(Analyze(Input{Live: live, Manifest: object("example.com/v2", "Widget"), Manager: "web"}, Options{Schemas: reg}), IDAPIVersionMismatch)
		if len(got) != 1 || !sameStrings(got[0].Managers, []string{"ops"}) {
			t.Fatalf("got %s", dump(got))
		}
		mustContain(t, "message", got[0].Message, `"ops" at example.com/v1`, "approximate")
		mustContain(t, "fix", got[0].Fix, "example.com/v1")
	})
	t.Run("strategy None", func(t *testing.T) {
		none := schema.MustNewRegistry(kube.Default())
		crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, kind: Gadget}
  versions:
  - {name: v2, served: true, storage: true}
  - {name: v1, served: false, storage: false}
`
		if err := none.AddCRD("crd.yaml", []byte(crd)); err != nil {
			t.Fatal(err)
		}
		live := object("example.com/v2", "Gadget", entry("ops", "example.com/v1"))
		if got := only(Analyze(Input{Live: live, Manifest: object("example.com/v2", "Gadget"), Manager: "web"}, Options{Schemas: none}), IDAPIVersionMismatch); len(got) != 0 {
			t.Fatalf("got %s", dump(got))
		}
	})
}

func TestKnownIDs(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Known() {
		if seen[k.ID] || !IsKnown(k.ID) || (k.Severity != SeverityWarning && k.Severity != SeverityInfo) {
			t.Errorf("bad entry %+v", k)
		}
		seen[k.ID] = true
	}
	if IsKnown("no-such-advice") {
		t.Error("unknown id known")
	}
	// Every id is explained in doc.go.
	doc := readFile(t, "doc.go")
	for id := range seen {
		if !strings.Contains(doc, id) {
			t.Errorf("doc.go does not explain %s", id)
		}
	}
	// The table of retirements is consistent.
	for _, r := range Retirements() {
		if (r.Removed == "" && r.Deprecated == "") || r.Version == "" {
			t.Errorf("bad retirement %+v", r)
		}
	}
	var sorted []string
	for id := range seen {
		sorted = append(sorted, id)
	}
	sort.Strings(sorted)
	if len(sorted) != 16 {
		t.Errorf("ids %v", sorted)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
