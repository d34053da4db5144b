package smpmeta

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

func deployment(t *testing.T) strategicpatch.LookupPatchMeta {
	t.Helper()
	typ, ok := schema.MustNewRegistry(kube.Default()).Lookup(schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"})
	if !ok {
		t.Fatal("no apps/v1 Deployment")
	}
	return For(typ)
}

// walk follows a path of struct fields (a trailing "[]" on a name: the items of a list).
func walk(t *testing.T, m strategicpatch.LookupPatchMeta, path string) (strategicpatch.LookupPatchMeta, strategicpatch.PatchMeta, error) {
	t.Helper()
	var pm strategicpatch.PatchMeta
	var err error
	for _, p := range strings.Split(path, ".") {
		if name, ok := strings.CutSuffix(p, "[]"); ok {
			m, pm, err = m.LookupPatchMetadataForSlice(name)
		} else {
			m, pm, err = m.LookupPatchMetadataForStruct(p)
		}
		if err != nil {
			return nil, pm, err
		}
	}
	return m, pm, nil
}

func TestTagsOfStructFields(t *testing.T) {
	for _, c := range []struct {
		path       string
		strategies []string
		key        string
	}{
		{"spec.template.spec.containers[]", []string{"merge"}, "name"},
		{"spec.template.spec.containers[].ports[]", []string{"merge"}, "containerPort"},
		{"spec.template.spec.volumes[]", []string{"merge", "retainKeys"}, "name"},
		{"spec.template.spec.tolerations[]", []string{""}, ""},
		{"spec.template.spec.containers[].args[]", []string{""}, ""},
		{"metadata.finalizers[]", []string{"merge"}, ""},
		{"metadata.ownerReferences[]", []string{"merge"}, "uid"},
		{"spec.strategy", []string{"retainKeys"}, ""},
		{"metadata.labels", []string{""}, ""},
		// encoding/json's field match falls back to one equal but for case.
		{"spec.template.spec.Containers[]", []string{"merge"}, "name"},
	} {
		_, pm, err := walk(t, deployment(t), c.path)
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if !reflect.DeepEqual(pm.GetPatchStrategies(), c.strategies) || pm.GetPatchMergeKey() != c.key {
			t.Errorf("%s: strategies %q key %q, want %q %q", c.path, pm.GetPatchStrategies(), pm.GetPatchMergeKey(), c.strategies, c.key)
		}
	}
}

func TestLookupErrorsAsReflection(t *testing.T) {
	for path, want := range map[string]string{
		"spec.template.spec.containerz[]":         `unable to find api field in struct PodSpec for the json field "containerz"`,
		"metadata.labels.app":                     "merging an object in json but data type is not struct, instead is: map",
		"spec.replicas.x":                         "merging an object in json but data type is not struct, instead is: int64",
		"spec.template.spec.containers[].image[]": "expected slice or array type, but got: struct",
	} {
		_, _, err := walk(t, deployment(t), path)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
}

func TestNativeKinds(t *testing.T) {
	for gvk, want := range map[schema.GVK]bool{
		{Version: "v1", Kind: "ConfigMap"}:                                                           true,
		{Group: "apps", Version: "v1", Kind: "Deployment"}:                                           true,
		{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}:             true,
		{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService"}:                         false,
		{Group: "example.com", Version: "v1", Kind: "Widget"}:                                        false,
		{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"}:                       true,
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration"}: true,
	} {
		if got := Native(gvk); got != want {
			t.Errorf("%v: Native %v, want %v", gvk, got, want)
		}
	}
}

// A three-way patch, as Helm's client-side upgrade computes it: fields of the new manifest
// that drifted are set back, fields the old manifest had and the new one drops are
// deleted, a container someone else added stays.
func TestThreeWayPatch(t *testing.T) {
	original := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1","env":[{"name":"A","value":"1"}]}]}}}}`
	modified := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}}}`
	current := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":5,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1","env":[{"name":"A","value":"1"}]},{"name":"sidecar","image":"envoy"}]}}}}`
	patch, err := strategicpatch.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), deployment(t), true)
	if err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(patch, &got); err != nil {
		t.Fatal(err)
	}
	var want any
	_ = json.Unmarshal([]byte(`{"spec":{"replicas":2,"template":{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"env":null,"image":"nginx:2","name":"web"}]}}}}`), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("patch %s", patch)
	}
	merged, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(current), patch, deployment(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(merged), `"sidecar"`) || strings.Contains(string(merged), `"env"`) || !strings.Contains(string(merged), `"replicas":2`) {
		t.Errorf("merged %s", merged)
	}
}
