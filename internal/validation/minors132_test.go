package validation_test

import (
	"slices"
	"strings"
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

// warnings132Cases: the warnings 1.32 gives otherwise than 1.33, each answer the one a
// kube-apiserver 1.32.13 and a 1.33.13 gave to the same create (kubectl create
// --dry-run=server): 1.33.13 added apimachinery's GetWarningsForIP and GetWarningsForCIDR
// to the Node, Endpoints and pod warnings, the pod warnings' duplicate port names and
// preferred node-selector values, and the GitRepoVolumeDriver wording; 1.32 warns of a
// Service's addresses in its own words.
func warnings132Cases() []struct {
	name, obj string
	want      byMinor[[]string]
} {
	return []struct {
		name, obj string
		want      byMinor[[]string]
	}{
		{"Service addresses", `apiVersion: v1
kind: Service
metadata: {name: lb, namespace: default}
spec:
  type: LoadBalancer
  ports: [{port: 80}]
  externalIPs: ["010.0.0.1", "2001:DB8::1"]
  loadBalancerIP: "10.0.0.010"
  loadBalancerSourceRanges: ["010.0.0.0/8", "2001:DB8::/32", "10.0.0.1/8"]
`, byMinor[[]string]{
			32: {
				`spec.externalIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("010.0.0.1"): IPv4 field has octet with leading zero`,
				`spec.externalIPs[1]: IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops`,
				`spec.loadBalancerIP: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("10.0.0.010"): IPv4 field has octet with leading zero`,
				`spec.loadBalancerSourceRanges[0]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("010.0.0.0/8"): ParseAddr("010.0.0.0"): IPv4 field has octet with leading zero`,
				`spec.loadBalancerSourceRanges[1]: IPv6 prefix "2001:DB8::/32" is not in RFC 5952 canonical format ("2001:db8::/32"), which may cause controller apply-loops`,
			},
			33: {
				`spec.externalIPs[0]: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"`,
				`spec.externalIPs[1]: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")`,
				`spec.loadBalancerIP: non-standard IP address "10.0.0.010" will be considered invalid in a future Kubernetes release: use "10.0.0.10"`,
				`spec.loadBalancerSourceRanges[0]: non-standard CIDR value "010.0.0.0/8" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"`,
				`spec.loadBalancerSourceRanges[1]: IPv6 CIDR value "2001:DB8::/32" should be in RFC 5952 canonical format ("2001:db8::/32")`,
				`spec.loadBalancerSourceRanges[2]: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)`,
			}}},
		{"pod template", `apiVersion: apps/v1
kind: Deployment
metadata: {name: site, namespace: default}
spec:
  selector: {matchLabels: {app: site}}
  template:
    metadata: {labels: {app: site}}
    spec:
      dnsPolicy: None
      dnsConfig: {nameservers: ["010.0.0.1"]}
      hostAliases: [{ip: "010.0.0.2", hostnames: [a.example]}]
      affinity:
        nodeAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 1
            preference: {matchExpressions: [{key: zone, operator: In, values: ["a b"]}]}
      volumes: [{name: g, gitRepo: {repository: "https://example.com/r.git"}}]
      containers:
      - {name: a, image: nginx, ports: [{name: http, containerPort: 80}]}
      - {name: b, image: nginx, ports: [{name: http, containerPort: 81}]}
`, byMinor[[]string]{
			32: {`spec.template.spec.volumes[0].gitRepo: deprecated in v1.11`},
			33: {
				`spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[0]: a b is invalid, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
				`spec.template.spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+`,
				`spec.template.spec.containers[1].ports[0]: duplicate port name "http" with spec.template.spec.containers[0].ports[0], services and probes that select ports by name will use spec.template.spec.containers[0].ports[0]`,
				`spec.template.spec.dnsConfig.nameservers[0]: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"`,
				`spec.template.spec.hostAliases[0].ip: non-standard IP address "010.0.0.2" will be considered invalid in a future Kubernetes release: use "10.0.0.2"`,
			}}},
		{"Node pod CIDR", `apiVersion: v1
kind: Node
metadata: {name: n1}
spec: {podCIDRs: ["010.244.0.0/24"]}
`, byMinor[[]string]{
			32: nil,
			33: {`spec.podCIDRs[0]: non-standard CIDR value "010.244.0.0/24" will be considered invalid in a future Kubernetes release: use "10.244.0.0/24"`}}},
		{"Endpoints address", `apiVersion: v1
kind: Endpoints
metadata: {name: e1, namespace: default}
subsets: [{addresses: [{ip: "010.1.2.3"}], ports: [{port: 80}]}]
`, byMinor[[]string]{
			32: nil,
			33: {`subsets[0].addresses[0].ip: non-standard IP address "010.1.2.3" will be considered invalid in a future Kubernetes release: use "10.1.2.3"`}}},
	}
}

// TestWarningsAt132: at 1.32 (when listed) and 1.33, each create is warned of as their
// servers warned of it.
func TestWarningsAt132(t *testing.T) {
	for _, c := range warnings132Cases() {
		for _, v := range []kube.Minor{32, 33} {
			t.Run(c.name+"/"+v.String(), func(t *testing.T) {
				if !v.IsSupported() {
					t.Skipf("%s is not listed", v)
				}
				msg, _, got := workloadCase{name: c.name, new: c.obj}.validateFull(t, serverconfig.MustFor(v))
				if msg != "" {
					t.Fatalf("refused: %s", msg)
				}
				if want := c.want.at(int(v)); !slices.Equal(got, want) {
					t.Errorf("warnings\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			})
		}
	}
}
