package blametext_test

import (
	"os"
	"path/filepath"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/blametext"
)

// A ConfigMap whose data one manager applied and another updated, printed as text with
// the full times.
func ExamplePrint() {
	live := `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web", "namespace": "apps", "managedFields": [
  {"manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "time": "2026-12-01T10:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:mode": {}}}},
  {"manager": "operator", "operation": "Update", "apiVersion": "v1", "time": "2026-12-01T11:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:level": {}}}}]},
 "data": {"mode": "fast", "level": "3"}}`
	dir, _ := os.MkdirTemp("", "blame")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "live.json")
	_ = os.WriteFile(path, []byte(live), 0o600)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	blametext.Print(path, nil, os.Stdout, os.Stderr, blametext.Options{Format: "text", TimeMode: "relative", Now: now})
	// Output:
	// apiVersion: v1
	//                              data:
	// operator (Update)   60m ago    level: "3"
	// kubectl            120m ago    mode: fast
	//                              kind: ConfigMap
	//                              metadata:
	//                                name: web
	//                                namespace: apps
}
