package crdvalidation

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// casesDir holds the CRD and custom resource cases recorded from real servers of each minor
// (server/kubeapiserver TestCRDMinors predicts them through the engine).
var casesDir = filepath.Join("..", "..", "server", "kubeapiserver", "testdata", "crdminors")

// TestCRDMinorsCases validates the CRD of every case, and the custom resource it creates,
// with the linked server's code and with ssa-diff at the same minor: for the minor this
// module links, the answers the real servers of the other minors were recorded for.
func TestCRDMinorsCases(t *testing.T) {
	entries, err := os.ReadDir(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(casesDir, e.Name())
			crd := readYAMLFile(t, filepath.Join(dir, "crd.yaml"))
			objMap, objV1, err := DefaultedCRD(crd)
			if err != nil {
				t.Fatal(err)
			}
			se, sw, sp := ValidateCRDServer(objV1, nil)
			oe, ow, op := ValidateCRDOurs(objMap, nil)
			s, p := outcome{texts(se), sortedCopy(sw), sp}, outcome{texts(oe), sortedCopy(ow), op}
			if !s.same(p) {
				t.Fatalf("the CRD:\nserver:    %q warnings %q panic %v\npredicted: %q warnings %q panic %v", s.errs, s.warnings, s.panicked, p.errs, p.warnings, p.panicked)
			}
			obj := readYAMLFile(t, filepath.Join(dir, "object.yaml"))
			if len(se) > 0 || obj == nil {
				return
			}
			srv, err := NewOracle(crd, "v1")
			if err != nil {
				t.Fatal(err)
			}
			ours, err := NewOurs(crd, "v1")
			if err != nil {
				t.Fatal(err)
			}
			se, sw, sp = srv.Validate("", obj, nil)
			oe, ow, op = ours.Validate("", obj, nil)
			s, p = outcome{texts(se), sortedCopy(sw), sp}, outcome{texts(oe), sortedCopy(ow), op}
			if !s.same(p) {
				t.Errorf("the object:\nserver:    %q warnings %q panic %v\npredicted: %q warnings %q panic %v", s.errs, s.warnings, s.panicked, p.errs, p.warnings, p.panicked)
			}
			t.Logf("%d errors, %d warnings", len(se), len(sw))
		})
	}
}

func readYAMLFile(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}
