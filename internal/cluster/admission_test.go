package cluster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
)

// TestReadAdmission: the kinds the admission chain reads are listed in every namespace,
// those the cluster does not serve left out, then the kinds the policies' paramKinds
// name; a kind RBAC forbids is an error of the read, not of the run.
func TestReadAdmission(t *testing.T) {
	s := clustertest.New(t)
	for _, r := range []clustertest.Resource{
		{APIVersion: "v1", Kind: "ServiceAccount", Name: "serviceaccounts", Namespaced: true},
		{APIVersion: "v1", Kind: "LimitRange", Name: "limitranges", Namespaced: true},
		{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass", Name: "storageclasses"},
		{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicy", Name: "validatingadmissionpolicies"},
		{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicyBinding", Name: "validatingadmissionpolicybindings"},
		{APIVersion: "example.com/v1", Kind: "Limits", Name: "limits", Namespaced: true, Custom: true},
	} {
		s.Serve(r)
	}
	s.Add(
		map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "shop"}},
		map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default", "namespace": "shop"}},
		map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default", "namespace": "ci"}},
		map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy", "metadata": map[string]any{"name": "p"},
			"spec": map[string]any{"paramKind": map[string]any{"apiVersion": "example.com/v1", "kind": "Limits"}}},
		map[string]any{"apiVersion": "example.com/v1", "kind": "Limits", "metadata": map[string]any{"name": "l", "namespace": "shop"}},
	)
	s.Forbid = func(verb, group, resource, ns, name string) bool { return resource == "limitranges" }
	c := connect(t, s, Options{})
	read, err := c.ReadAdmission(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range read.Objects {
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct{ Namespace, Name string }
		}
		if err := json.Unmarshal(o, &head); err != nil {
			t.Fatal(err)
		}
		got = append(got, head.APIVersion+" "+head.Kind+" "+head.Metadata.Namespace+"/"+head.Metadata.Name)
	}
	want := "v1 Namespace /shop|v1 ServiceAccount ci/default|v1 ServiceAccount shop/default|admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy /p|example.com/v1 Limits shop/l"
	if strings.Join(got, "|") != want {
		t.Errorf("objects\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if err := read.Errors["LimitRange"]; err == nil || !strings.Contains(err.Error(), "forbidden") {
		t.Errorf("errors %v: want LimitRange's listing forbidden", read.Errors)
	}
	if len(read.Errors) != 1 {
		t.Errorf("errors %v", read.Errors)
	}
	if read.Lists != 7 {
		t.Errorf("%d LIST, want 7 (namespaces, serviceaccounts, limitranges, storageclasses, the two policy kinds, the params)", read.Lists)
	}
}
