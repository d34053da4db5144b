package gitopsconfig

import (
	"reflect"
	"strings"
	"testing"
)

const application = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: shop, namespace: argocd}
spec:
  destination: {server: https://kubernetes.default.svc, namespace: shop}
  syncPolicy:
    syncOptions: [ServerSideApply=true, RespectIgnoreDifferences=true, ServerSideApply=false, ServerSideApply=true]
  ignoreDifferences:
  - group: apps
    kind: Deployment
    jsonPointers: [/spec/replicas]
    managedFieldsManagers: [kube-controller-manager]
  - kind: ConfigMap
    name: settings
    namespace: shop
    jqPathExpressions: ['.data["generated"]']
`

func TestReadApplication(t *testing.T) {
	a, err := ReadApplication([]byte(application))
	if err != nil {
		t.Fatal(err)
	}
	want := &Application{Name: "shop", Namespace: "shop",
		SyncOptions: map[string]string{"ServerSideApply": "true", "RespectIgnoreDifferences": "true"},
		Ignore: []IgnoreDifference{
			{Group: "apps", Kind: "Deployment", JSONPointers: []string{"/spec/replicas"}, ManagedFieldsManagers: []string{"kube-controller-manager"}},
			{Kind: "ConfigMap", Name: "settings", Namespace: "shop", JQPathExpressions: []string{`.data["generated"]`}},
		}}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("%+v\nwant %+v", a, want)
	}
	if !a.SyncOption("ServerSideApply") || a.SyncOption("Validate") {
		t.Error("SyncOption")
	}
	for _, bad := range []struct{ doc, says string }{
		{"kind: ConfigMap\napiVersion: v1\n", "not an Argo CD Application"},
		{"apiVersion: argoproj.io/v1alpha1\nkind: Application\nspec: {syncPolicy: {syncOptions: [ServerSideApply]}}\n", "syncOptions[0]"},
		{"apiVersion: argoproj.io/v1alpha1\nkind: Application\nspec: {ignoreDifferences: [{kind: X, jsonPointers: [spec]}]}\n", "jsonPointers[0]"},
		{"apiVersion: argoproj.io/v1alpha1\nkind: Application\nspec: {ignoreDifferences: [{group: apps}]}\n", "no kind"},
		{"apiVersion: argoproj.io/v1alpha1\nkind: Application\nspec: {destination: 3}\n", "not an Argo CD Application"},
	} {
		if _, err := ReadApplication([]byte(bad.doc)); err == nil || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%q: %v, want %q", bad.doc, err, bad.says)
		}
	}
}

const kustomization = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: shop, namespace: flux-system}
spec:
  targetNamespace: shop
  force: true
  postBuild:
    substitute: {replicas: "3"}
    substituteFrom:
    - {kind: ConfigMap, name: vars}
    - {kind: Secret, name: secret-vars}
    - {kind: ConfigMap, name: absent, optional: true}
`

func TestReadKustomization(t *testing.T) {
	k, err := ReadKustomization([]byte(kustomization))
	if err != nil {
		t.Fatal(err)
	}
	if k.TargetNamespace != "shop" || !k.Force || k.Namespace != "flux-system" || len(k.SubstituteFrom) != 3 {
		t.Errorf("%+v", k)
	}
	objs := []map[string]any{
		{"kind": "ConfigMap", "metadata": map[string]any{"name": "vars", "namespace": "flux-system"}, "data": map[string]any{"tag": "1.2", "replicas": "1"}},
		{"kind": "Secret", "metadata": map[string]any{"name": "secret-vars", "namespace": "flux-system"}, "data": map[string]any{"token": "c2VjcmV0"}},
	}
	vars, err := k.Variables(objs)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"tag": "1.2", "replicas": "3", "token": "secret"}; !reflect.DeepEqual(vars, want) {
		t.Errorf("%v, want %v", vars, want)
	}
	if _, err := k.Variables(objs[:1]); err == nil || !strings.Contains(err.Error(), "Secret flux-system/secret-vars not given") {
		t.Errorf("a missing Secret: %v", err)
	}
}

func FuzzReadApplication(f *testing.F) {
	f.Add([]byte(application))
	f.Fuzz(func(t *testing.T, data []byte) {
		if a, err := ReadApplication(data); err == nil && a.SyncOptions == nil {
			t.Fatal("nil sync options")
		}
	})
}

func FuzzReadKustomization(f *testing.F) {
	f.Add([]byte(kustomization))
	f.Fuzz(func(t *testing.T, data []byte) {
		if k, err := ReadKustomization(data); err == nil {
			_, _ = k.Variables(nil)
		}
	})
}
