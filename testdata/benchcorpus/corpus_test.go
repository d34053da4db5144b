package benchcorpus

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestGenerate(t *testing.T) {
	a, err := Generate(Options{Objects: 60, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(Options{Objects: 60, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Live, b.Live) || len(a.Repo) != len(b.Repo) {
		t.Fatal("the same options give another corpus")
	}
	for i := range a.Repo {
		if a.Repo[i].Path != b.Repo[i].Path || !bytes.Equal(a.Repo[i].Data, b.Repo[i].Data) {
			t.Fatalf("%s differs between two runs", a.Repo[i].Path)
		}
	}
	if a.Objects < 40 || a.Objects > 90 {
		t.Errorf("%d manifest objects for about 60", a.Objects)
	}
	var list struct {
		Items []struct {
			Kind     string
			Metadata struct {
				ManagedFields []struct{ Manager, Operation, Subresource string }
			}
		}
	}
	if err := json.Unmarshal(a.Live, &list); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range list.Items {
		if len(it.Metadata.ManagedFields) == 0 {
			t.Errorf("a live %s without managedFields", it.Kind)
		}
		for _, m := range it.Metadata.ManagedFields {
			seen[it.Kind+" "+m.Manager+" "+m.Operation+" "+m.Subresource] = true
		}
	}
	for _, want := range []string{
		"Deployment kube-controller-manager Update status",
		"Deployment kube-controller-manager Update scale",
		"HorizontalPodAutoscaler kube-controller-manager Update status",
		"Certificate cert-manager-certificates-readiness Update status",
		"Deployment argocd-controller Apply ",
		"CustomResourceDefinition kubectl Apply ",
	} {
		if !seen[want] {
			t.Errorf("no %q entry in the live state", want)
		}
	}
}
