package crdvalidation

import "testing"

// The harness predicts at the minor of the server code it links: one ssa-diff predicts.
func TestLinkedMinor(t *testing.T) {
	v, err := serverMinor()
	if err != nil {
		t.Fatal(err)
	}
	if !v.IsSupported() {
		t.Fatalf("the linked server is Kubernetes %s: not a minor ssa-diff predicts", v)
	}
	t.Logf("predicting Kubernetes %s", v)
}
