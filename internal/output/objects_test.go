package output

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/report"
	"sigs.k8s.io/yaml"
)

func TestObjects(t *testing.T) {
	out, errs := writeAll(t, "objects", sampleReport(), Options{})
	var list struct {
		Kind  string           `json:"kind"`
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if list.Kind != "List" || len(list.Items) != 4 {
		t.Fatalf("got a %s of %d items, want a List of the 4 predicted objects", list.Kind, len(list.Items))
	}
	// Objects are printed as the server returns them: managedFields kept, nothing masked.
	if !strings.Contains(out, "managedFields:") || !strings.Contains(out, "czNjcjN0") {
		t.Error("objects are not printed as the server returns them")
	}
	if !strings.HasPrefix(errs, "Error from server (Conflict): ") {
		t.Errorf("stderr = %q", errs)
	}

	one := report.New(report.Options{})
	one.Add(sampleReport().Results[3])
	out, _ = writeAll(t, "objects", one, Options{})
	if want := "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: builder\n  namespace: shop\n"; out != want {
		t.Errorf("a single object printed as\n%s\nwant\n%s", out, want)
	}
}
