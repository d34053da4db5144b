package predict_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/predict"
)

// TestClusterState: a dump's objects become the state, each named by its file and line; an
// object that cannot be identified is an error naming where it is, the others are kept.
func TestClusterState(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(file, []byte(`apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels: {pod-security.kubernetes.io/enforce: restricted}
---
apiVersion: v1
kind: ServiceAccount
metadata:
  namespace: shop
`), 0o600); err != nil {
		t.Fatal(err)
	}
	state, err := predict.ClusterState(file)
	if err == nil || !strings.Contains(err.Error(), file+":7: the ServiceAccount has no metadata.name") {
		t.Errorf("error %v", err)
	}
	if !state.Knows("", "Namespace") || state.SourceOf("", "Namespace", "", "shop") != file+":1" {
		t.Errorf("the namespace was not kept, or is not named by its line: %q", state.SourceOf("", "Namespace", "", "shop"))
	}
}
