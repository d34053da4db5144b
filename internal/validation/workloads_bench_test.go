package validation_test

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/kube"
)

// benchmarkWrite measures the validation of a create of doc and of an update of it over
// itself (the common case of a GitOps sync: nothing or little changed).
func benchmarkWrite(b *testing.B, doc string) {
	obj := object(b, doc)
	av, kind := obj["apiVersion"].(string), obj["kind"].(string)
	if err := defaults.MustFor(kube.Default()).Default(av, kind, obj); err != nil {
		b.Fatal(err)
	}
	old := object(b, doc)
	if err := defaults.MustFor(kube.Default()).Default(av, kind, old); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		old  map[string]any
	}{{"create", nil}, {"update", old}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := validation.Validate(serverconfig.MustFor(kube.Default()), av, kind, "", obj, c.old)
				if err != nil || !res.Known || len(res.Errors) != 0 {
					b.Fatalf("%v %v %v", err, res.Known, res.Errors)
				}
			}
		})
	}
}

func BenchmarkValidateDeployment(b *testing.B)  { benchmarkWrite(b, deploymentSite) }
func BenchmarkValidateStatefulSet(b *testing.B) { benchmarkWrite(b, statefulSetKafka) }
func BenchmarkValidateDaemonSet(b *testing.B)   { benchmarkWrite(b, daemonSetAgent) }
func BenchmarkValidateReplicaSet(b *testing.B)  { benchmarkWrite(b, replicaSetWeb) }
func BenchmarkValidateControllerRevision(b *testing.B) {
	benchmarkWrite(b, revisionKafka)
}
func BenchmarkValidateJob(b *testing.B)     { benchmarkWrite(b, jobMigrate) }
func BenchmarkValidateCronJob(b *testing.B) { benchmarkWrite(b, cronNightly) }
func BenchmarkValidateHorizontalPodAutoscaler(b *testing.B) {
	benchmarkWrite(b, hpaWeb)
}
func BenchmarkValidatePodDisruptionBudget(b *testing.B) { benchmarkWrite(b, pdbWeb) }
