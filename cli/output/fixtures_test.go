package output

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/cli/input"
	"github.com/ssa-diff/ssa-diff/cli/report"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", name), got)
}

var (
	now    = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	hpaAt  = time.Date(2026, 12, 2, 9, 36, 20, 0, time.UTC)
	seenAt = time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
)

func src(file string, doc, line int) input.Source {
	return input.Source{File: file, Document: doc, Line: line}
}

func deployment(replicas int64, image string) map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]interface{}{"name": "web", "namespace": "shop", "resourceVersion": "144"},
		"spec": map[string]interface{}{
			"replicas": replicas,
			"template": map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{
				map[string]interface{}{"name": "app", "image": image},
			}}},
		},
	}
}

// sampleReport is a report with one result of each kind, as the engine and the command
// would build them (hand-made: the writers are tested apart from the engine).
func sampleReport() *report.Report {
	rep := report.New(report.Options{FieldManager: "kubectl", Applier: "kubectl", Now: now})
	hpa := report.Manager{Manager: "hpa-controller", Operation: "Update", APIVersion: "apps/v1", Subresource: "scale"}
	kcm := report.Manager{Manager: "kube-controller-manager", Operation: "Update", APIVersion: "apps/v1", Time: &hpaAt}

	live := deployment(10, "shop/web:1.0")
	rejected := &report.Result{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web",
		Source: src("deploy/web.yaml", 0, 1), LiveSource: &input.Source{File: "live.json", Item: new(int), Line: 4},
		Action: report.ActionRejected, Live: live,
		Conflicts: []report.Conflict{
			{Manager: hpa, Owner: `"hpa-controller" with subresource "scale" using apps/v1`, Path: ".spec.replicas", Live: int64(10), Applied: int64(3)},
			{Manager: kcm, Owner: `"kube-controller-manager" using apps/v1`, Path: `.spec.template.spec.containers[name="app"].image`, Live: "shop/web:1.0", Applied: "shop/web:2.0"},
		},
		Ownership: []report.Ownership{}, Deleted: []string{}, Warnings: []string{},
		Error: &report.Error{Code: 409, Reason: "Conflict", Message: "Apply failed with 2 conflicts: conflicts with \"hpa-controller\" with subresource \"scale\" using apps/v1:\n- .spec.replicas\nconflicts with \"kube-controller-manager\" using apps/v1:\n- .spec.template.spec.containers[name=\"app\"].image"},
	}
	rejected.WithForce = &report.Result{Action: report.ActionUpdate, Changed: true, Ownership: []report.Ownership{
		{Manager: report.Manager{Manager: "kubectl", Operation: "Apply"}, Gained: []string{".spec.replicas"}},
		{Manager: hpa, Taken: []string{".spec.replicas"}, Removed: true},
		{Manager: kcm, Taken: []string{`.spec.template.spec.containers[name="app"].image`}},
	}}

	cmLive := map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "settings", "namespace": "shop", "labels": map[string]interface{}{"team": "payments"},
			"managedFields": []interface{}{map[string]interface{}{"manager": "helm", "operation": "Apply", "apiVersion": "v1", "time": "2026-11-30T08:00:00Z", "fieldsType": "FieldsV1",
				"fieldsV1": map[string]interface{}{"f:data": map[string]interface{}{"f:retries": map[string]interface{}{}, "f:timeout": map[string]interface{}{}}}}}},
		"data": map[string]interface{}{"endpoint": "https://pay.internal", "retries": "5", "timeout": "30s"},
	}
	cmPred := map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "settings", "namespace": "shop", "labels": map[string]interface{}{"team": "payments"},
			"managedFields": []interface{}{map[string]interface{}{"manager": "helm", "operation": "Apply", "apiVersion": "v1", "time": "2026-12-02T12:00:00Z", "fieldsType": "FieldsV1",
				"fieldsV1": map[string]interface{}{"f:data": map[string]interface{}{"f:timeout": map[string]interface{}{}}}}}},
		"data": map[string]interface{}{"endpoint": "https://pay.internal", "timeout": "45s"},
	}
	updated := &report.Result{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings",
		Source: src("deploy/settings.yaml", 1, 7), LiveSource: &input.Source{File: "live.json", Line: 30},
		Action: report.ActionUpdate, Changed: true, Live: cmLive, Object: cmPred,
		Conflicts: []report.Conflict{},
		Ownership: []report.Ownership{{Manager: report.Manager{Manager: "helm", Operation: "Apply", Time: &seenAt},
			Released: []string{".data.retries"}, Deleted: []string{".data.retries"}}},
		Deleted: []string{".data.retries"}, Warnings: []string{},
	}

	secretLive := map[string]interface{}{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]interface{}{"name": "creds", "namespace": "shop"},
		"data":     map[string]interface{}{"password": "aHVudGVyMg==", "user": "YWRtaW4="}}
	secretPred := map[string]interface{}{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]interface{}{"name": "creds", "namespace": "shop"},
		"data":     map[string]interface{}{"password": "czNjcjN0", "user": "YWRtaW4=", "token": "dG9rZW4="}}
	secret := &report.Result{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "creds",
		Source: src("deploy/secret.yaml", 0, 1), LiveSource: &input.Source{File: "live.json", Line: 60},
		Action: report.ActionUpdate, Changed: true, Live: secretLive, Object: secretPred,
		Conflicts: []report.Conflict{}, Ownership: []report.Ownership{}, Deleted: []string{},
		Warnings: []string{"the live object has no metadata.managedFields"},
	}

	created := &report.Result{APIVersion: "v1", Kind: "ServiceAccount", Namespace: "shop", Name: "builder",
		Source: src("deploy/sa.yaml", 0, 1), Action: report.ActionCreate, Changed: true,
		Object:    map[string]interface{}{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]interface{}{"name": "builder", "namespace": "shop"}},
		Conflicts: []report.Conflict{}, Deleted: []string{}, Warnings: []string{},
		Ownership: []report.Ownership{{Manager: report.Manager{Manager: "kubectl", Operation: "Apply"}, Gained: []string{".metadata.name", ".metadata.namespace"}}},
	}
	unchanged := &report.Result{APIVersion: "v1", Kind: "Namespace", Name: "shop",
		Source: src("deploy/ns.yaml", 0, 1), LiveSource: &input.Source{File: "live.json", Line: 90},
		Action: report.ActionUnchanged, Live: map[string]interface{}{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]interface{}{"name": "shop"}},
		Object:    map[string]interface{}{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]interface{}{"name": "shop"}},
		Conflicts: []report.Conflict{}, Ownership: []report.Ownership{}, Deleted: []string{}, Warnings: []string{},
	}
	broken := report.FromError(src("deploy/broken.yaml", 2, 14), &input.Error{Source: src("deploy/broken.yaml", 2, 12), Line: 14, Path: ".spec", Err: errString("invalid YAML: mapping values are not allowed in this context")})

	for _, r := range []*report.Result{rejected, updated, secret, created, unchanged, broken} {
		rep.Add(r)
	}
	rep.Summarize()
	return rep
}

type errString string

func (e errString) Error() string { return string(e) }

// writeAll runs a writer over a report as the command does.
func writeAll(t *testing.T, format string, rep *report.Report, opts Options) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	opts.Stderr = &errb
	if opts.Now.IsZero() {
		opts.Now = now
	}
	w, err := New(format, &out, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(rep); err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String()
}
