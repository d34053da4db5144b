package defaults

import (
	"path/filepath"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"

	"github.com/ssa-diff/ssa-diff/internal/recorded"
)

func BenchmarkDefaultDeployment(b *testing.B) {
	t := &testing.T{}
	want := recorded.ReadObject(t, filepath.Join("..", "..", "..", "shared", "fixtures", "create-deployment-apply", "want.json"))
	if want == nil {
		b.Skip("fixtures not found")
	}
	b.ReportAllocs()
	for b.Loop() {
		obj := unstructured.DeepCopy(want).(map[string]any)
		if err := Default("apps/v1", "Deployment", obj); err != nil {
			b.Fatal(err)
		}
	}
}
