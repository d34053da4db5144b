package input

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRequestBodiesReadAsYAML: a JSON body with trailing commas, which kubectl's reader
// refuses, is read as the API server reads an apply body (YAML) when the Loader reads
// request bodies (rules.md request.yaml-body); valid JSON is JSON either way.
func TestRequestBodiesReadAsYAML(t *testing.T) {
	dir := t.TempDir()
	trailing := filepath.Join(dir, "trailing.json")
	body := "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\n    \"name\": \"x\",\n  },\n  \"data\": {\"a\": \"b\",},\n}\n"
	if err := os.WriteFile(trailing, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	strict := (&Loader{}).Load(trailing)
	if len(strict) != 1 || strict[0].Err == nil {
		t.Fatalf("kubectl's reader: want one error, got %+v", strict)
	}
	bodies := (&Loader{RequestBodies: true}).Load(trailing)
	if len(bodies) != 1 || bodies[0].Err != nil {
		t.Fatalf("as a request body: %+v", bodies)
	}
	o := bodies[0].Object
	if o.Object["kind"] != "ConfigMap" || o.Object["data"].(map[string]any)["a"] != "b" {
		t.Errorf("read %v", o.Object)
	}
	if line := o.Line("/data/a"); line != 7 {
		t.Errorf("data.a at line %d, want 7", line)
	}

	valid := filepath.Join(dir, "valid.json")
	if err := os.WriteFile(valid, []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []*Loader{{}, {RequestBodies: true}} {
		if es := l.Load(valid); len(es) != 1 || es[0].Err != nil {
			t.Errorf("valid JSON (RequestBodies %v): %+v", l.RequestBodies, es)
		}
	}
}
