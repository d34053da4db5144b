package defaults

import (
	"path/filepath"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

func BenchmarkDefaultDeployment(b *testing.B) {
	want := testkit.ReadObject(b, filepath.Join(testkit.RecordedCase(b, "create-deployment-apply"), "want.json"))
	b.ReportAllocs()
	for b.Loop() {
		obj := unstructured.DeepCopy(want).(map[string]any)
		if err := newest().Default("apps/v1", "Deployment", obj); err != nil {
			b.Fatal(err)
		}
	}
}
