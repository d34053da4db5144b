package validation_test

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
)

// rules132Cases: rules 1.32 answers otherwise, read in 1.32.13's source and checked against
// a kube-apiserver 1.32.13 (docs/minors.md): pod template rules 1.32 has off
// (PodLifecycleSleepActionAllowZero, RelaxedDNSSearchValidation; on from 1.33) unless the
// stored spec uses them, and a StatefulSet's revisionHistoryLimit. Not among minorCases
// (whose answers are recorded at every older minor) until 1.32 is listed and they are
// recorded with -record-minor.
func rules132Cases(t *testing.T) []minorCase {
	site := deploymentSite
	sleep0 := edit(t, site, "image: nginx:1.27}", "image: nginx:1.27, lifecycle: {preStop: {sleep: {seconds: 0}}}}")
	underscore := edit(t, site, "    spec:\n", "    spec:\n      dnsConfig: {searches: [my_domain.example]}\n")
	kafka := statefulSetKafka
	return []minorCase{
		// Kubernetes 1.32: revisionHistoryLimit may not change (1.32.13's
		// ValidateStatefulSetUpdate does not take it from the stored spec), and the Forbidden
		// message does not name it.
		{kind: "StatefulSet", workloadCase: workloadCase{name: "revisionHistoryLimit changed", old: kafka,
			new: edit(t, kafka, "replicas: 3", "replicas: 3\n  revisionHistoryLimit: 2")},
			want: byMinor[string]{
				32: `StatefulSet.apps "kafka" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`,
				33: ""}},
		{kind: "Deployment", workloadCase: workloadCase{name: "a preStop sleep of 0 seconds", new: sleep0},
			want: byMinor[string]{
				32: `Deployment.apps "site" is invalid: spec.template.spec.containers[0].lifecycle.preStop.sleep: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
				33: ""}},
		{kind: "Deployment", workloadCase: workloadCase{name: "a preStop sleep of 0 seconds kept", old: sleep0, new: sleep0},
			want: byMinor[string]{32: ""}},
		{kind: "Deployment", workloadCase: workloadCase{name: "a search domain with an underscore", new: underscore},
			want: byMinor[string]{
				32: `Deployment.apps "site" is invalid: spec.template.spec.dnsConfig.searches[0]: Invalid value: "my_domain.example": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
				33: ""}},
		{kind: "Deployment", workloadCase: workloadCase{name: "a search domain with an underscore kept", old: underscore, new: underscore},
			want: byMinor[string]{32: ""}},
	}
}

// TestRulesAt132: each listed minor answers rules132Cases as the table says (1.32's answers
// are checked when 1.32 is listed).
func TestRulesAt132(t *testing.T) {
	for _, c := range rules132Cases(t) {
		for _, v := range kube.Minors() {
			t.Run(c.kind+"/"+c.name+"/"+v.String(), func(t *testing.T) {
				if !c.want.covers(int(v)) {
					t.Fatalf("no answer for %s", v)
				}
				if got, _, _ := c.validateFull(t, serverconfig.MustFor(v)); got != c.want.at(int(v)) {
					t.Errorf("got  %s\nwant %s", got, c.want.at(int(v)))
				}
			})
		}
	}
}
