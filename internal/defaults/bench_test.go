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

// BenchmarkDefaultDefaulted defaults an object defaulted already, as the server does to the
// result of an update (PrepareForUpdate's Default): the defaulters change nothing.
func BenchmarkDefaultDefaulted(b *testing.B) {
	benchmarkDefaulted(b, newest().Default)
}

// BenchmarkDefaultOwnedDefaulted is BenchmarkDefaultDefaulted through DefaultOwned: the copy
// the benchmark makes is the caller's own, rewritten in place.
func BenchmarkDefaultOwnedDefaulted(b *testing.B) {
	benchmarkDefaulted(b, newest().DefaultOwned)
}

// benchmarkDefaulted defaults a copy of a defaulted Deployment with def at each round.
func benchmarkDefaulted(b *testing.B, def func(apiVersion, kind string, obj map[string]any) error) {
	want := testkit.ReadObject(b, filepath.Join(testkit.RecordedCase(b, "create-deployment-apply"), "want.json"))
	if err := newest().Default("apps/v1", "Deployment", want); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		obj := unstructured.DeepCopy(want).(map[string]any)
		if err := def("apps/v1", "Deployment", obj); err != nil {
			b.Fatal(err)
		}
	}
}
