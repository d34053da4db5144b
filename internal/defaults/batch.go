package defaults

import (
	"math"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Defaulters of batch/v1 (k8s.io/kubernetes pkg/apis/batch/v1). Pod
// templates are defaulted by the core defaulters, which batch/v1 runs as a
// peer.

var batchDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.batch.v1.Job", defaultJob},
	{"io.k8s.api.batch.v1.CronJob", defaultCronJob},
	{"io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern", defaultPodConditionsPattern},
}

// defaultJob follows SetDefaults_Job.
func defaultJob(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	if isNil(spec, "completions") && isNil(spec, "parallelism") {
		spec["completions"] = int64(1)
		spec["parallelism"] = int64(1)
	}
	setIfNil(spec, "parallelism", int64(1))
	if isNil(spec, "backoffLimit") {
		if !isNil(spec, "backoffLimitPerIndex") {
			spec["backoffLimit"] = int64(math.MaxInt32)
		} else {
			spec["backoffLimit"] = int64(6)
		}
	}
	if tl := unstructured.NestedObject(spec, "template", "metadata"); tl != nil && tl["labels"] != nil {
		meta := unstructured.EnsureObject(m, "metadata")
		if unset(meta, "labels") {
			meta["labels"] = unstructured.DeepCopy(tl["labels"])
		}
	}
	setIfNil(spec, "completionMode", "NonIndexed")
	setIfNil(spec, "suspend", false)
	if isNil(spec, "podReplacementPolicy") {
		if !isNil(spec, "podFailurePolicy") {
			spec["podReplacementPolicy"] = "Failed"
		} else {
			spec["podReplacementPolicy"] = "TerminatingOrFailed"
		}
	}
	setIfNil(spec, "manualSelector", false)
}

// defaultCronJob follows SetDefaults_CronJob.
func defaultCronJob(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	setIfUnset(spec, "concurrencyPolicy", "Allow")
	setIfNil(spec, "suspend", false)
	setIfNil(spec, "successfulJobsHistoryLimit", int64(3))
	setIfNil(spec, "failedJobsHistoryLimit", int64(1))
}

// defaultPodConditionsPattern follows SetDefaults_PodFailurePolicyOnPodConditionsPattern.
func defaultPodConditionsPattern(m map[string]any) { setIfUnset(m, "status", "True") }
