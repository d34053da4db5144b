package main

import (
	"reflect"
	"testing"
)

// The staging modules are read from the release's go.mod: a replace block and a single
// replace line alike; a module replaced by a version, or required only, is not staged.
func TestStagedIn(t *testing.T) {
	mod := `module k8s.io/kubernetes

require (
	k8s.io/api v0.0.0
	k8s.io/streaming v0.0.0
	sigs.k8s.io/yaml v1.4.0
)

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/apimachinery => ./staging/src/k8s.io/apimachinery
	github.com/x/y => github.com/x/y v1.2.3
)

replace k8s.io/kms => ./staging/src/k8s.io/kms
`
	want := map[string]bool{"k8s.io/api": true, "k8s.io/apimachinery": true, "k8s.io/kms": true}
	if got := stagedIn(mod); !reflect.DeepEqual(got, want) {
		t.Errorf("stagedIn = %v, want %v", got, want)
	}
	if got := stagedIn("module k8s.io/kubernetes\n"); len(got) != 0 {
		t.Errorf("stagedIn of a go.mod without replacements = %v", got)
	}
}
