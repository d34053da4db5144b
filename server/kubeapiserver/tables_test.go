package kubeapiserver

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
)

// TestEveryMinorHasItsTables: every minor of kube.Minors has each generated table a model
// reads, so New builds its model. A minor added to kube/releases.txt without `make
// generate` fails here, naming the tables it lacks.
func TestEveryMinorHasItsTables(t *testing.T) {
	for _, m := range kube.Minors() {
		if err := tablesOf(m); err != nil {
			t.Error(err)
		}
		if _, err := New(Config{Minor: m}); err != nil {
			t.Errorf("New(%s): %v", m, err)
		}
	}
}

// TestAMinorWithoutTablesIsRefused: a minor no table has is refused with every table named,
// never predicted with another minor's tables; the zero Minor is no minor.
func TestAMinorWithoutTablesIsRefused(t *testing.T) {
	err := tablesOf(kube.Newest() + 1)
	if err == nil {
		t.Fatalf("tablesOf(%s) found every table", kube.Newest()+1)
	}
	for _, table := range tables {
		if !strings.Contains(err.Error(), table.what) {
			t.Errorf("the refusal does not name %s: %v", table.what, err)
		}
	}
	if _, err := New(Config{}); err == nil || !strings.Contains(err.Error(), "no Kubernetes minor given") {
		t.Errorf("New(Config{}) = %v, want a refusal", err)
	}
	if _, err := New(Config{Minor: kube.Oldest() - 1}); err == nil || !strings.Contains(err.Error(), "is not predicted") {
		t.Errorf("New(%s) = %v, want a refusal", kube.Oldest()-1, err)
	}
}
