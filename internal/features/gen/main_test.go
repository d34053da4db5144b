package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The gate table is read from whichever non-test file of the package holds it (1.32 kept
// k8s.io/kubernetes' in versioned_kube_features.go); a package without one, or with two, is
// an error.
func TestReadPackageTable(t *testing.T) {
	table := `package features

var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	SomeGate: {
		{Version: version.MustParse("1.31"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.32"), Default: true, PreRelease: featuregate.Beta},
	},
}
`
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	write(dir, "kube_features.go", "package features\n\nvar defaultKubernetesFeatureGates = map[string]bool{}\n")
	write(dir, "kube_features_test.go", table)
	if _, err := readPackageTable(dir); !errors.Is(err, errNoTable) {
		t.Errorf("a table in a test file only: %v, want %v", err, errNoTable)
	}
	write(dir, "versioned_kube_features.go", table)
	gates, err := readPackageTable(dir)
	if err != nil {
		t.Fatal(err)
	}
	if specs := gates["SomeGate"]; len(specs) != 2 || !defaultAt(specs, 32) || defaultAt(specs, 31) {
		t.Errorf("SomeGate = %+v", specs)
	}
	write(dir, "more_features.go", table)
	if _, err := readPackageTable(dir); err == nil {
		t.Error("two files with a table: no error")
	}
}
