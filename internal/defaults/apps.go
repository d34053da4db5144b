package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// Defaulters of apps/v1 (k8s.io/kubernetes pkg/apis/apps/v1). Pod templates
// are defaulted by the core defaulters, which apps/v1 runs as a peer.

// appsGatedDefaulters are the apps defaulters that consult feature gates:
// defaultStatefulSet consults MaxUnavailableStatefulSet, at the default of the minor
// defaulted (featureGates, generated per release).
var appsGatedDefaulters = []named[gatedDefaulterFunc]{
	{"io.k8s.api.apps.v1.StatefulSet", defaultStatefulSet},
}

var appsDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.apps.v1.Deployment", defaultDeployment},
	{"io.k8s.api.apps.v1.DaemonSet", defaultDaemonSet},
	{"io.k8s.api.apps.v1.ReplicaSet", defaultReplicaSet},
}

// defaultDeployment follows SetDefaults_Deployment.
func defaultDeployment(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	setIfNil(spec, "replicas", int64(1))
	strategy := unstructured.EnsureObject(spec, "strategy")
	setIfUnset(strategy, "type", "RollingUpdate")
	if unstructured.Str(strategy, "type") == "RollingUpdate" {
		ru := unstructured.EnsureObject(strategy, "rollingUpdate")
		setIfNil(ru, "maxUnavailable", "25%")
		setIfNil(ru, "maxSurge", "25%")
	}
	setIfNil(spec, "revisionHistoryLimit", int64(10))
	setIfNil(spec, "progressDeadlineSeconds", int64(600))
}

// defaultDaemonSet follows SetDefaults_DaemonSet.
func defaultDaemonSet(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	us := unstructured.EnsureObject(spec, "updateStrategy")
	setIfUnset(us, "type", "RollingUpdate")
	if unstructured.Str(us, "type") == "RollingUpdate" {
		ru := unstructured.EnsureObject(us, "rollingUpdate")
		setIfNil(ru, "maxUnavailable", int64(1))
		setIfNil(ru, "maxSurge", int64(0))
	}
	setIfNil(spec, "revisionHistoryLimit", int64(10))
}

// defaultStatefulSet follows SetDefaults_StatefulSet.
func defaultStatefulSet(g *featureGates, m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	setIfUnset(spec, "podManagementPolicy", "OrderedReady")
	us := unstructured.EnsureObject(spec, "updateStrategy")
	if unset(us, "type") {
		us["type"] = "RollingUpdate"
		setIfNil(us, "rollingUpdate", map[string]any{})
	}
	if ru := unstructured.Object(us, "rollingUpdate"); unstructured.Str(us, "type") == "RollingUpdate" && ru != nil {
		setIfNil(ru, "partition", int64(0))
		if g.maxUnavailableStatefulSet {
			setIfNil(ru, "maxUnavailable", int64(1))
		}
	}
	policy := unstructured.EnsureObject(spec, "persistentVolumeClaimRetentionPolicy")
	setIfUnset(policy, "whenDeleted", "Retain")
	setIfUnset(policy, "whenScaled", "Retain")
	setIfNil(spec, "replicas", int64(1))
	setIfNil(spec, "revisionHistoryLimit", int64(10))
}

// defaultReplicaSet follows SetDefaults_ReplicaSet.
func defaultReplicaSet(m map[string]any) {
	setIfNil(unstructured.EnsureObject(m, "spec"), "replicas", int64(1))
}
