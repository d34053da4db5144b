package validation_test

import "testing"

// minorCases are the writes the supported minors answer differently, by group.
func minorCases(t *testing.T) []minorCase {
	var out []minorCase
	for _, set := range [][]minorCase{appsMinorCases(t)} {
		out = append(out, set...)
	}
	return out
}

func appsMinorCases(t *testing.T) []minorCase {
	kafka := statefulSetKafka
	return []minorCase{
		// Kubernetes 1.37: one immutability error per field instead of one Forbidden spec.
		{kind: "StatefulSet", workloadCase: workloadCase{name: "serviceName changed", old: kafka,
			new: edit(t, kafka, "serviceName: kafka", "serviceName: kafka-headless")},
			want: byMinor[string]{
				34: `StatefulSet.apps "kafka" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`,
				37: `StatefulSet.apps "kafka" is invalid: spec.serviceName: Invalid value: "kafka-headless": field is immutable`}},
		{kind: "StatefulSet", workloadCase: workloadCase{name: "claim template changed with a bad replica count", old: kafka,
			new: edit(t, edit(t, kafka, "storage: 10Gi", "storage: 20Gi"), "replicas: 3", "replicas: -1")},
			want: byMinor[string]{
				34: `StatefulSet.apps "kafka" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden]`,
				37: `StatefulSet.apps "kafka" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.volumeClaimTemplates: Invalid value: [{"name":"data","Spec":{"AccessModes":["ReadWriteOnce"],"Selector":null,"Resources":{"Limits":null,"Requests":{"storage":"20Gi"}},"VolumeName":"","StorageClassName":null,"VolumeMode":"Filesystem","DataSource":null,"DataSourceRef":null,"VolumeAttributesClassName":null},"Status":{"Phase":"Pending","AccessModes":null,"Capacity":null,"Conditions":null,"AllocatedResources":null,"AllocatedResourceStatuses":null,"CurrentVolumeAttributesClassName":null,"ModifyVolumeStatus":null,"HealthStatus":null}}]: field is immutable]`}},
		// MaxUnavailableStatefulSet is off before 1.37: the field is dropped, never checked.
		{kind: "StatefulSet", workloadCase: workloadCase{name: "maxUnavailable 0",
			new: edit(t, kafka, "replicas: 3", "replicas: 3\n  updateStrategy: {rollingUpdate: {maxUnavailable: 0}}")},
			want: byMinor[string]{34: "",
				37: `StatefulSet.apps "kafka" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0`}},
	}
}
