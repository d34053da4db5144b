package validation_test

import (
	"strings"
	"testing"
)

// minorCases are the writes the supported minors answer differently, by group.
func minorCases(t *testing.T) []minorCase {
	var out []minorCase
	for _, set := range [][]minorCase{appsMinorCases(t), batchMinorCases(t), autoscalingMinorCases(t), networkingMinorCases(t), rbacMinorCases(t), storageMinorCases(t), nodeFlowcontrolMinorCases(t), certificatesMinorCases(t), admissionMinorCases(t), resourceMinorCases(t)} {
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
				37: `StatefulSet.apps "kafka" is invalid: spec.serviceName: Invalid value: "kafka-headless": field is immutable`,
				// 1.38: the beta declarative rule, told without the value.
				38: `StatefulSet.apps "kafka" is invalid: spec.serviceName: Invalid value: null: field is immutable`}},
		{kind: "StatefulSet", workloadCase: workloadCase{name: "claim template changed with a bad replica count", old: kafka,
			new: edit(t, edit(t, kafka, "storage: 10Gi", "storage: 20Gi"), "replicas: 3", "replicas: -1")},
			want: byMinor[string]{
				34: `StatefulSet.apps "kafka" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden]`,
				37: `StatefulSet.apps "kafka" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.volumeClaimTemplates: Invalid value: [{"name":"data","Spec":{"AccessModes":["ReadWriteOnce"],"Selector":null,"Resources":{"Limits":null,"Requests":{"storage":"20Gi"}},"VolumeName":"","StorageClassName":null,"VolumeMode":"Filesystem","DataSource":null,"DataSourceRef":null,"VolumeAttributesClassName":null},"Status":{"Phase":"Pending","AccessModes":null,"Capacity":null,"Conditions":null,"AllocatedResources":null,"AllocatedResourceStatuses":null,"CurrentVolumeAttributesClassName":null,"ModifyVolumeStatus":null,"HealthStatus":null}}]: field is immutable]`,
				38: `StatefulSet.apps "kafka" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.volumeClaimTemplates: Invalid value: null: field is immutable]`}},
		// MaxUnavailableStatefulSet is off before 1.37: the field is dropped, never checked.
		{kind: "StatefulSet", workloadCase: workloadCase{name: "maxUnavailable 0",
			new: edit(t, kafka, "replicas: 3", "replicas: 3\n  updateStrategy: {rollingUpdate: {maxUnavailable: 0}}")},
			want: byMinor[string]{34: "",
				37: `StatefulSet.apps "kafka" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0`}},
	}
}

func batchMinorCases(t *testing.T) []minorCase {
	job := jobMigrate
	suspended := edit(t, job, "spec:\n  selector", "spec:\n  suspend: true\n  selector")
	running := job + "status: {startTime: '2026-01-05T10:00:00Z', active: 1}\n"
	return []minorCase{
		// Kubernetes 1.37: a Job update is no longer validated as a create first.
		{kind: "Job", workloadCase: workloadCase{name: "a suspended Job drops a generated label", old: suspended,
			new: edit(t, suspended, "        batch.kubernetes.io/job-name: migrate\n", "")},
			want: byMinor[string]{
				34: `Job.batch "migrate" is invalid: spec.template.metadata.labels[batch.kubernetes.io/job-name]: Required value: must be 'migrate'`,
				37: ""}},
		{kind: "Job", workloadCase: workloadCase{name: "an update's spec error twice", old: job,
			new: edit(t, job, "spec:\n  selector", "spec:\n  backoffLimit: -1\n  selector")},
			want:   byMinor[string]{34: `Job.batch "migrate" is invalid: spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0`},
			causes: byMinor[int]{34: 2, 37: 1}},
		// MutablePodResourcesForSuspendedJobs (on from 1.36): a suspended Job that has not
		// started may change its containers' resources; its other template changes are then
		// reported on the pod spec.
		{kind: "Job", workloadCase: workloadCase{name: "a suspended Job's container resources changed", old: suspended,
			new: edit(t, suspended, "image: tools/migrate:2}", "image: tools/migrate:2, resources: {requests: {cpu: 500m}}}")},
			recorded: true, want: byMinor[string]{36: ""}},
		{kind: "Job", workloadCase: workloadCase{name: "a suspended Job's image changed", old: suspended,
			new: edit(t, suspended, "tools/migrate:2", "tools/migrate:3")}, recorded: true,
			want: byMinor[string]{37: `Job.batch "migrate" is invalid: spec.template.spec: Invalid value: {"Volumes":null,"InitContainers":null,"Containers":[{"Name":"migrate","Image":"tools/migrate:3","Command":null,"Args":null,"WorkingDir":"","Ports":null,"EnvFrom":null,"Env":null,"Resources":{"Limits":null,"Requests":null,"Claims":null},"ResizePolicy":null,"RestartPolicy":null,"RestartPolicyRules":null,"VolumeMounts":null,"VolumeDevices":null,"LivenessProbe":null,"ReadinessProbe":null,"StartupProbe":null,"Lifecycle":null,"TerminationMessagePath":"/dev/termination-log","TerminationMessagePolicy":"File","ImagePullPolicy":"IfNotPresent","SecurityContext":null,"Stdin":false,"StdinOnce":false,"TTY":false}],"EphemeralContainers":null,"RestartPolicy":"Never","TerminationGracePeriodSeconds":30,"ActiveDeadlineSeconds":null,"DNSPolicy":"ClusterFirst","NodeSelector":null,"ServiceAccountName":"","DeprecatedServiceAccount":"","AutomountServiceAccountToken":null,"NodeName":"","HostNetwork":false,"HostPID":false,"HostIPC":false,"ShareProcessNamespace":null,"SecurityContext":{"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"SupplementalGroups":null,"SupplementalGroupsPolicy":null,"FSGroup":null,"Sysctls":null,"FSGroupChangePolicy":null,"SeccompProfile":null,"AppArmorProfile":null,"SELinuxChangePolicy":null},"ImagePullSecrets":null,"Hostname":"","Subdomain":"","Affinity":null,"SchedulerName":"default-scheduler","Tolerations":null,"HostAliases":null,"PriorityClassName":"","Priority":null,"DNSConfig":null,"ReadinessGates":null,"RuntimeClassName":null,"EnableServiceLinks":null,"PreemptionPolicy":null,"Overhead":null,"TopologySpreadConstraints":null,"SetHostnameAsFQDN":null,"OS":null,"HostUsers":null,"SchedulingGates":null,"ResourceClaims":null,"Resources":null,"HostnameOverride":null,"SchedulingGroup":null,"EvictionResponders":null}: field is immutable`}},
		// Kubernetes 1.36: a changed start time of a running Job is Invalid, not Required.
		{kind: "Job", workloadCase: workloadCase{name: "status: start time of a running Job changed", subresource: "status", old: running,
			new: job + "status: {startTime: '2026-01-05T11:00:00Z', active: 1}\n"},
			want: byMinor[string]{
				34: `Job.batch "migrate" is invalid: status.startTime: Required value: startTime cannot be removed for unsuspended job`,
				36: `Job.batch "migrate" is invalid: status.startTime: Invalid value: "2026-01-05T11:00:00Z": field is immutable for unsuspended job once set`}},
		// Kubernetes 1.35: the schedule parser's panics are errors; 1.34's handler panics.
		{kind: "CronJob", workloadCase: workloadCase{name: "schedule the parser panics on",
			new: edit(t, cronNightly, `schedule: "30 2 * * *"`, `schedule: "TZ=0"`)},
			want: byMinor[string]{
				34: "the server panics: runtime error: slice bounds out of range [:-1]",
				35: `CronJob.batch "nightly" is invalid: [spec.schedule: Invalid value: "TZ=0": invalid schedule format: runtime error: slice bounds out of range [:-1], spec.schedule: Invalid value: "TZ=0": cannot use TZ or CRON_TZ in schedule, use timeZone field instead]`}},
	}
}

func autoscalingMinorCases(t *testing.T) []minorCase {
	hpa := hpaWeb
	external := edit(t, edit(t, hpa, "minReplicas: 2", "minReplicas: 0"), "  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}\n",
		"  - type: External\n    external: {metric: {name: queue}, target: {type: AverageValue, averageValue: \"30\"}}\n")
	return []minorCase{
		// Kubernetes 1.36: maxReplicas below 1 is Required (0) or below 1; 1.37 enforces the
		// declarative rule instead (last).
		{kind: "HorizontalPodAutoscaler", workloadCase: workloadCase{name: "negative maxReplicas",
			new: edit(t, edit(t, hpa, "maxReplicas: 10", "maxReplicas: -1"), "minReplicas: 2", "minReplicas: 1")},
			want: byMinor[string]{
				34: `HorizontalPodAutoscaler.autoscaling "web" is invalid: [spec.maxReplicas: Invalid value: -1: must be greater than 0, spec.maxReplicas: Invalid value: -1: must be greater than or equal to ` + "`minReplicas`" + `]`,
				36: `HorizontalPodAutoscaler.autoscaling "web" is invalid: [spec.maxReplicas: Invalid value: -1: must be greater than or equal to 1, spec.maxReplicas: Invalid value: -1: must be greater than or equal to ` + "`minReplicas`" + `]`,
				37: `HorizontalPodAutoscaler.autoscaling "web" is invalid: [spec.maxReplicas: Invalid value: -1: must be greater than or equal to ` + "`minReplicas`" + `, spec.maxReplicas: Invalid value: -1: must be greater than or equal to 1]`}},
		// HPAScaleToZero is on from 1.37: before, minReplicas 0 is refused.
		{kind: "HorizontalPodAutoscaler", workloadCase: workloadCase{name: "scale to zero with an external metric", new: external},
			want: byMinor[string]{
				34: `HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.minReplicas: Invalid value: 0: must be greater than or equal to 1`,
				37: ""}},
		{kind: "HorizontalPodAutoscaler", workloadCase: workloadCase{name: "a stored minReplicas 0 may stay", old: external,
			new: edit(t, external, "maxReplicas: 10", "maxReplicas: 12")}, want: byMinor[string]{34: ""}},
	}
}

func networkingMinorCases(t *testing.T) []minorCase {
	ing, np, eps := ingressWeb, networkPolicyAPI, endpointSliceWeb
	defaultBackend := edit(t, ing, "  ingressClassName: nginx\n", "  ingressClassName: nginx\n  defaultBackend: {service: {name: 1svc, port: {number: 80}}}\n")
	const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	return []minorCase{
		// RelaxedServiceNameValidation is on from 1.36.
		{kind: "Ingress", workloadCase: workloadCase{name: "backend service name starting with a digit",
			new: edit(t, ing, "service: {name: web,", "service: {name: 1svc,")},
			want: byMinor[string]{34: `Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].backend.service.name: Invalid value: "1svc": ` + dns1035, 36: ""}},
		// With the gate off, 1.35 also keeps a stored default backend's such name.
		{kind: "Ingress", workloadCase: workloadCase{name: "a stored default backend named with a digit", old: defaultBackend,
			new: edit(t, defaultBackend, "resourceVersion: \"7\"}", "resourceVersion: \"7\", labels: {a: b}}")},
			want: byMinor[string]{34: `Ingress.networking.k8s.io "web" is invalid: spec.defaultBackend.service.name: Invalid value: "1svc": ` + dns1035, 35: ""}},
		// StrictIPCIDRValidation is on from 1.36: before, legacy forms are accepted with a
		// warning (worded differently before 1.36).
		{kind: "NetworkPolicy", workloadCase: workloadCase{name: "CIDR with bits beyond the prefix",
			new: edit(t, np, "cidr: 172.17.0.0/16, except: [172.17.1.0/24]", "cidr: 10.0.0.1/8")},
			want: byMinor[string]{34: "",
				36: `NetworkPolicy.networking.k8s.io "api" is invalid: spec.ingress[0].from[1].ipBlock.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length`},
			warnings: byMinor[[]string]{34: {`spec.ingress[0].from[1].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)`}, 36: nil}},
		{kind: "NetworkPolicy", workloadCase: workloadCase{name: "except with a leading zero",
			new: edit(t, np, "except: [172.17.1.0/24]", "except: [172.17.01.0/24]")},
			want: byMinor[string]{34: "",
				36: `NetworkPolicy.networking.k8s.io "api" is invalid: spec.ingress[0].from[1].ipBlock.except[0]: Invalid value: "172.17.01.0/24": must not have leading 0s in IP or prefix length`},
			warnings: byMinor[[]string]{34: {`spec.ingress[0].from[1].ipBlock.except[0]: non-standard CIDR value "172.17.01.0/24" will be considered invalid in a future Kubernetes release: use "172.17.1.0/24"`}, 36: nil}},
		// Kubernetes 1.36: an update is no longer validated as a create first.
		{kind: "NetworkPolicy", workloadCase: workloadCase{name: "an update's spec error twice", old: np,
			new: edit(t, np, "port: 8080}", "port: 0}")},
			want:   byMinor[string]{34: `NetworkPolicy.networking.k8s.io "api" is invalid: spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`},
			causes: byMinor[int]{34: 2, 36: 1}},
		// Kubernetes 1.37 prints the end port, before the port.
		{kind: "NetworkPolicy", workloadCase: workloadCase{name: "end port below the port",
			new: edit(t, np, "endPort: 5440", "endPort: 5000")},
			want: byMinor[string]{34: "NetworkPolicy.networking.k8s.io \"api\" is invalid: spec.egress[0].ports[0].endPort: Invalid value: 5432: must be greater than or equal to `port`",
				37: "NetworkPolicy.networking.k8s.io \"api\" is invalid: spec.egress[0].ports[0].endPort: Invalid value: 5000: must be greater than or equal to `port`"}},
		{kind: "Ingress", workloadCase: workloadCase{name: "status: load balancer IP with a leading zero", subresource: "status", old: ing,
			new: ing + "status: {loadBalancer: {ingress: [{ip: 10.0.0.010}]}}\n"},
			want: byMinor[string]{34: "",
				36: `Ingress.networking.k8s.io "web" is invalid: status.loadBalancer.ingress[0].ip: Invalid value: "10.0.0.010": must not have leading 0s`},
			warnings: byMinor[[]string]{34: {`status.loadBalancer.ingress[0]: non-standard IP address "10.0.0.010" will be considered invalid in a future Kubernetes release: use "10.0.0.10"`}, 36: nil}},
		{kind: "EndpointSlice", workloadCase: workloadCase{name: "address with leading zeros",
			new: edit(t, eps, "addresses: [10.244.1.5]", "addresses: [010.244.1.5]")},
			want: byMinor[string]{34: "",
				36: `EndpointSlice.discovery.k8s.io "web-abc12" is invalid: endpoints[0].addresses[0]: Invalid value: "010.244.1.5": must not have leading 0s`},
			warnings: byMinor[[]string]{34: {`endpoints[0].addresses[0]: non-standard IP address "010.244.1.5" will be considered invalid in a future Kubernetes release: use "10.244.1.5"`}, 36: nil}},
	}
}

func rbacMinorCases(t *testing.T) []minorCase {
	role, crb := roleDeployer, clusterRoleBindingAdmins
	return []minorCase{
		// Kubernetes 1.35: an update is no longer validated as a create first.
		{kind: "Role", workloadCase: workloadCase{name: "an update's rule error twice", old: role,
			new: edit(t, role, "  verbs: [get]\n", "  verbs: []\n")},
			want: byMinor[string]{34: `Role.rbac.authorization.k8s.io "deployer" is invalid: rules[1].verbs: Required value: verbs must contain at least one value`,
				37: `Role.rbac.authorization.k8s.io "deployer" is invalid: rules[1].verbs: Required value`},
			causes: byMinor[int]{34: 2, 35: 1}},
		{kind: "ClusterRoleBinding", workloadCase: workloadCase{name: "an update's subject error twice", old: crb,
			new: edit(t, crb, "name: ci, namespace: ci}", "name: ci}")},
			want:   byMinor[string]{34: `ClusterRoleBinding.rbac.authorization.k8s.io "oracle-admins" is invalid: subjects[1].namespace: Required value`},
			causes: byMinor[int]{34: 2, 35: 1}},
		// Kubernetes 1.37: a changed roleRef is immutable, no longer "cannot change".
		{kind: "ClusterRoleBinding", workloadCase: workloadCase{name: "roleRef changed", old: crb,
			new: edit(t, crb, "name: cluster-admin}", "name: view}")},
			want: byMinor[string]{
				34: `ClusterRoleBinding.rbac.authorization.k8s.io "oracle-admins" is invalid: roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"view"}: cannot change roleRef`,
				37: `ClusterRoleBinding.rbac.authorization.k8s.io "oracle-admins" is invalid: roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"view"}: field is immutable`,
				// 1.38: the beta declarative rule, told without the value.
				38: `ClusterRoleBinding.rbac.authorization.k8s.io "oracle-admins" is invalid: roleRef: Invalid value: null: field is immutable`}},
	}
}

func storageMinorCases(t *testing.T) []minorCase {
	sc, drv, node, va, vac := storageClassGP3, csiDriverEBS, csiNodeWorker, volumeAttachmentData, volumeAttributesClassGold
	tokensOnly := edit(t, drv, "  serviceAccountTokenInSecrets: true\n", "")
	return []minorCase{
		// Kubernetes 1.36: the immutable fields of a StorageClass are "field is immutable".
		{kind: "StorageClass", workloadCase: workloadCase{name: "reclaim policy changed", old: sc,
			new: edit(t, sc, "reclaimPolicy: Delete", "reclaimPolicy: Retain")},
			want: byMinor[string]{
				34: `StorageClass.storage.k8s.io "oracle-gp3" is invalid: reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.`,
				36: `StorageClass.storage.k8s.io "oracle-gp3" is invalid: reclaimPolicy: Invalid value: "Retain": field is immutable`,
				// 1.37's beta declarative rule prints the pointer it compares.
				37: `StorageClass.storage.k8s.io "oracle-gp3" is invalid: reclaimPolicy: Invalid value: null: field is immutable`}},
		// CSIServiceAccountTokenSecrets is new and on in 1.35: its warning with it.
		{kind: "CSIDriver", workloadCase: workloadCase{name: "token requests without the secrets flag", new: tokensOnly},
			want: byMinor[string]{34: ""},
			warnings: byMinor[[]string]{34: nil,
				35: {"spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes"}}},
		// MutableCSINodeAllocatableCount is off in 1.34: the period is dropped, a CSINode's
		// allocatable count is immutable, a VolumeAttachment status's error code dropped.
		{kind: "CSIDriver", workloadCase: workloadCase{name: "allocatable update period too short",
			new: edit(t, tokensOnly, "  podInfoOnMount: false\n", "  podInfoOnMount: false\n  nodeAllocatableUpdatePeriodSeconds: 5\n")},
			want:     byMinor[string]{34: "", 35: `CSIDriver.storage.k8s.io "oracle.csi.example.com" is invalid: spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds`},
			warnings: byMinor[[]string]{34: nil, 35: nil}},
		{kind: "CSINode", workloadCase: workloadCase{name: "allocatable count changed", old: node,
			new: edit(t, node, "count: 25", "count: 30")},
			want: byMinor[string]{
				34: `CSINode.storage.k8s.io "oracle-worker-1" is invalid: spec.drivers: Invalid value: {"Name":"ebs.csi.aws.com","NodeID":"i-0123456789abcdef0","TopologyKeys":["topology.ebs.csi.aws.com/zone"],"Allocatable":{"Count":30}}: field is immutable`,
				35: ""}},
		// Kubernetes 1.36: a CSINode update is validated once.
		{kind: "CSINode", workloadCase: workloadCase{name: "an update's driver error twice", old: node,
			new: edit(t, node, "topologyKeys: [topology.ebs.csi.aws.com/zone]", "topologyKeys: [topology.ebs.csi.aws.com/zone, \"\"]")},
			want: byMinor[string]{34: `CSINode.storage.k8s.io "oracle-worker-1" is invalid: [spec.drivers[0]: Required value, spec.drivers[0]: Invalid value: "": name part must be non-empty, spec.drivers[0]: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.drivers: Invalid value: {"Name":"ebs.csi.aws.com","NodeID":"i-0123456789abcdef0","TopologyKeys":["topology.ebs.csi.aws.com/zone",""],"Allocatable":{"Count":25}}: field is immutable]`,
				35: `CSINode.storage.k8s.io "oracle-worker-1" is invalid: [spec.drivers[0]: Required value, spec.drivers[0]: Invalid value: "": name part must be non-empty, spec.drivers[0]: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.drivers: Invalid value: {"Name":"ebs.csi.aws.com","NodeID":"i-0123456789abcdef0","TopologyKeys":["topology.ebs.csi.aws.com/zone",""],"Allocatable":null}: field is immutable]`},
			causes: byMinor[int]{34: 7, 36: 4}},
		{kind: "VolumeAttachment", workloadCase: workloadCase{name: "status: negative error code", subresource: "status", old: va,
			new: va + "status: {attached: false, attachError: {message: boom, errorCode: -1}}\n"},
			want: byMinor[string]{34: "", 35: `VolumeAttachment.storage.k8s.io "oracle-csi-3f2a9c0b" is invalid: status.attachError.errorCode: Invalid value: -1: must be between 0 and 2147483647, inclusive`}},
		// Kubernetes 1.36: the attacher's driver name is checked first, not after the status.
		{kind: "VolumeAttachment", workloadCase: workloadCase{name: "attacher and node name invalid",
			new: edit(t, edit(t, va, "attacher: ebs.csi.aws.com", "attacher: Bad_Name"), "nodeName: worker-1", "nodeName: Worker_1")},
			want: byMinor[string]{
				34: `VolumeAttachment.storage.k8s.io "oracle-csi-3f2a9c0b" is invalid: [spec.nodeName: Invalid value: "Worker_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.attacher: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]`,
				36: `VolumeAttachment.storage.k8s.io "oracle-csi-3f2a9c0b" is invalid: [spec.attacher: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.nodeName: Invalid value: "Worker_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]`,
				// 1.37's beta declarative rules report the attacher last, case-insensitively.
				37: `VolumeAttachment.storage.k8s.io "oracle-csi-3f2a9c0b" is invalid: [spec.nodeName: Invalid value: "Worker_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.attacher: Invalid value: "Bad_Name": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]`}},
		// Kubernetes 1.37 reports the 1024-byte limit of an error message it checks.
		{kind: "VolumeAttachment", workloadCase: workloadCase{name: "status: error message too long", subresource: "status", old: va,
			new: va + "status: {attached: false, detachError: {message: " + strings.Repeat("x", 1100) + "}}\n"},
			want: byMinor[string]{
				34: `VolumeAttachment.storage.k8s.io "oracle-csi-3f2a9c0b" is invalid: status.detachError.message: Too long: may not be more than 262144 bytes`,
				37: `VolumeAttachment.storage.k8s.io "oracle-csi-3f2a9c0b" is invalid: status.detachError.message: Too long: may not be more than 1024 bytes`}},
		// Kubernetes 1.35: a VolumeAttributesClass update is no longer validated as a create
		// first (whose errors come before the update's).
		{kind: "VolumeAttributesClass", workloadCase: workloadCase{name: "driver changed to an invalid one", old: vac,
			new: edit(t, vac, "driverName: ebs.csi.aws.com", "driverName: ebs_csi/aws/com")},
			want: byMinor[string]{
				34: `VolumeAttributesClass.storage.k8s.io "oracle-gold" is invalid: [driverName: Invalid value: "ebs_csi/aws/com": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName'), driverName: Forbidden: updates to driverName are forbidden.]`,
				35: `VolumeAttributesClass.storage.k8s.io "oracle-gold" is invalid: [driverName: Forbidden: updates to driverName are forbidden., driverName: Invalid value: "ebs_csi/aws/com": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')]`},
			causes: byMinor[int]{34: 3, 35: 2}},
	}
}

func nodeFlowcontrolMinorCases(t *testing.T) []minorCase {
	rc, pl := runtimeClassKata, priorityLevelBatch
	return []minorCase{
		// Kubernetes 1.35: a toleration's errors no longer name the list twice.
		{kind: "RuntimeClass", workloadCase: workloadCase{name: "toleration key invalid",
			new: edit(t, rc, "{key: kata,", "{key: \"bad key\",")},
			want: byMinor[string]{
				34: `RuntimeClass.node.k8s.io "oracle-kata" is invalid: scheduling.tolerations.tolerations[0].key: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				35: `RuntimeClass.node.k8s.io "oracle-kata" is invalid: scheduling.tolerations[0].key: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`}},
		// Kubernetes 1.36: an empty handler is Required.
		{kind: "RuntimeClass", workloadCase: workloadCase{name: "empty handler", new: edit(t, rc, "handler: kata-qemu", `handler: ""`)},
			want: byMinor[string]{
				34: `RuntimeClass.node.k8s.io "oracle-kata" is invalid: handler: Invalid value: "": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				36: `RuntimeClass.node.k8s.io "oracle-kata" is invalid: handler: Required value`}},
		// Kubernetes 1.36: an empty type is Required, no longer "Unsupported".
		{kind: "PriorityLevelConfiguration", workloadCase: workloadCase{name: "limit response type empty",
			new: edit(t, edit(t, pl, "      type: Queue\n", "      type: \"\"\n"), "      queuing: {queues: 64, handSize: 6, queueLengthLimit: 50}\n", "")},
			want: byMinor[string]{
				34: `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "oracle-batch" is invalid: spec.limited.limitResponse.type: Unsupported value: "": supported values: "Queue", "Reject"`,
				36: `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "oracle-batch" is invalid: spec.limited.limitResponse.type: Required value`}},
	}
}

func certificatesMinorCases(t *testing.T) []minorCase {
	c := csrJane
	both := c + "status:\n  conditions:\n  - {type: Approved, status: \"True\", reason: Ok, message: ok}\n  - {type: Denied, status: \"True\", reason: Refused, message: refused}\n"
	return []minorCase{
		// Kubernetes 1.37 enforces the declarative union rule too, after the handwritten error.
		{kind: "CertificateSigningRequest", workloadCase: workloadCase{name: "status: approved and denied", subresource: "status", old: c, new: both},
			want: byMinor[string]{
				34: `CertificateSigningRequest.certificates.k8s.io "oracle-jane" is invalid: [status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive, status.conditions: Forbidden: updates may not add a condition of type "Approved", status.conditions: Forbidden: updates may not add a condition of type "Denied"]`,
				37: "CertificateSigningRequest.certificates.k8s.io \"oracle-jane\" is invalid: [status.conditions: Forbidden: updates may not add a condition of type \"Approved\", status.conditions: Forbidden: updates may not add a condition of type \"Denied\", status.conditions: Invalid value: \"{conditions[{\\\"type\\\": \\\"Approved\\\"}], conditions[{\\\"type\\\": \\\"Denied\\\"}]}\": must specify at most one of: `conditions[{\"type\": \"Approved\"}]`, `conditions[{\"type\": \"Denied\"}]`]"}},
	}
}

func admissionMinorCases(t *testing.T) []minorCase {
	static := edit(t, webhookPolicy, "name: oracle-policy-webhook,", "name: oracle.static.k8s.io,")
	const reserved = `names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API`
	review := edit(t, webhookPolicy, "resources: [deployments]", "resources: [deployments, tokenreviews]\n    ")
	review = edit(t, review, "apiGroups: [apps]", "apiGroups: [apps, authentication.k8s.io]")
	return []minorCase{
		// Kubernetes 1.36 reserved the suffix (a warning while ManifestBasedAdmissionControlConfig
		// is off); 1.37 refuses such a create.
		{kind: "ValidatingWebhookConfiguration", workloadCase: workloadCase{name: "name with the static suffix", new: static},
			want:     byMinor[string]{34: "", 37: `ValidatingWebhookConfiguration.admissionregistration.k8s.io "oracle.static.k8s.io" is invalid: metadata.name: Invalid value: "oracle.static.k8s.io": ` + reserved},
			warnings: byMinor[[]string]{34: nil, 36: {"metadata.name: " + reserved}, 37: nil}},
		{kind: "ValidatingWebhookConfiguration", workloadCase: workloadCase{name: "update of a name with the static suffix", old: static,
			new: edit(t, static, "timeoutSeconds: 5", "timeoutSeconds: 6")},
			want: byMinor[string]{34: ""}, warnings: byMinor[[]string]{34: nil, 36: {"metadata.name: " + reserved}}},
		// ExcludeAdmissionWebhookVirtualResources is new and on in 1.37.
		{kind: "ValidatingWebhookConfiguration", workloadCase: workloadCase{name: "rule naming token reviews", new: review},
			want: byMinor[string]{34: ""},
			warnings: byMinor[[]string]{34: nil,
				37: {"webhooks[0].rules[0]: tokenreviews.authentication.k8s.io is excluded from admission webhooks; this rule will have no effect"}}},
	}
}

func resourceMinorCases(t *testing.T) []minorCase {
	claim, template, slice := claimTrainer, claimTemplatePair, sliceNode1
	return []minorCase{
		// Kubernetes 1.35: a claim's update checks the spec for immutability alone (1.34
		// validated it as a create first, then again after the immutability).
		{kind: "ResourceClaim", workloadCase: workloadCase{name: "update to a bad request name", old: claim,
			new: edit(t, claim, "    - name: gpus\n", "    - name: GPUs\n")}, recorded: true,
			want: byMinor[string]{37: `ResourceClaim.resource.k8s.io "oracle-trainer-gpus" is invalid: spec: Invalid value: null: field is immutable`}},
		{kind: "ResourceClaimTemplate", workloadCase: workloadCase{name: "update to a bad request name", old: template,
			new: edit(t, template, "      - name: gpus\n", "      - name: GPUs\n")}, recorded: true,
			want: byMinor[string]{37: `ResourceClaimTemplate.resource.k8s.io "oracle-gpu-pair" is invalid: [spec.spec.devices.requests[0].name: Invalid value: "GPUs": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.spec.devices.constraints[0].requests[0]: Invalid value: "gpus": must be the name of a request in the claim or the name of a request and a subrequest separated by '/', spec.spec.devices.config[0].requests[0]: Invalid value: "gpus": must be the name of a request in the claim or the name of a request and a subrequest separated by '/', spec: Invalid value: {"labels":{"claim-of":"trainer"},"Spec":{"Devices":{"Requests":[{"Name":"GPUs","Exactly":{"DeviceClassName":"gpu.example.com","Selectors":[{"CEL":{"Expression":"device.attributes[\"gpu.example.com\"].memory \u003e= 40"}}],"AllocationMode":"ExactCount","Count":2,"AdminAccess":null,"Tolerations":[{"Key":"example.com/maintenance","Operator":"Exists","Value":"","Effect":"NoSchedule","TolerationSeconds":null}],"Capacity":null,"DerivedAttributes":null},"FirstAvailable":null},{"Name":"nic","Exactly":null,"FirstAvailable":[{"Name":"fast","DeviceClassName":"nic","Selectors":null,"AllocationMode":"ExactCount","Count":1,"Tolerations":null,"Capacity":null,"DerivedAttributes":null},{"Name":"any","DeviceClassName":"nic","Selectors":null,"AllocationMode":"All","Count":0,"Tolerations":null,"Capacity":null,"DerivedAttributes":null}]}],"Constraints":[{"Requests":["gpus","nic/fast"],"MatchAttribute":"example.com/numaNode","DistinctAttribute":null}],"Config":[{"Requests":["gpus"],"Opaque":{"Driver":"gpu.example.com","Parameters":{"sharing":{"strategy":"MPS"}}}}]}}}: field is immutable]`}},
		// Kubernetes 1.35: an empty part of a qualified name is Invalid, no longer Required.
		{kind: "ResourceSlice", workloadCase: workloadCase{name: "attribute with an empty domain",
			new: edit(t, slice, "      model: {string: h100}", "      /model: {string: h100}")},
			want: byMinor[string]{
				34: `ResourceSlice.resource.k8s.io "oracle-node-1-gpus" is invalid: spec.devices[0].attributes[/model]: Required value: the domain must not be empty`,
				35: `ResourceSlice.resource.k8s.io "oracle-node-1-gpus" is invalid: spec.devices[0].attributes[/model]: Invalid value: "": the domain must not be empty`,
				// Kubernetes 1.36 reports a map key's errors on the map.
				36: `ResourceSlice.resource.k8s.io "oracle-node-1-gpus" is invalid: spec.devices[0].attributes: Invalid value: "": the domain must not be empty`}},
		{kind: "ResourceSlice", workloadCase: workloadCase{name: "attribute with an empty name",
			new: edit(t, slice, "      model: {string: h100}", "      \"\": {string: h100}")},
			want: byMinor[string]{
				34: `ResourceSlice.resource.k8s.io "oracle-node-1-gpus" is invalid: spec.devices[0].attributes[]: Required value: name required`,
				35: `ResourceSlice.resource.k8s.io "oracle-node-1-gpus" is invalid: spec.devices[0].attributes[]: Invalid value: "": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')`,
				36: `ResourceSlice.resource.k8s.io "oracle-node-1-gpus" is invalid: spec.devices[0].attributes: Invalid value: "": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')`}},
		// Kubernetes 1.35: an attribute without a value is Invalid, no longer Required.
		{kind: "ResourceSlice", workloadCase: workloadCase{name: "attribute without a value",
			new: edit(t, slice, "      model: {string: h100}", "      model: {}")},
			want: byMinor[string]{
				34: `ResourceSlice.resource.k8s.io "oracle-node-1-gpus" is invalid: spec.devices[0].attributes[model]: Required value: exactly one value must be specified`,
				35: `ResourceSlice.resource.k8s.io "oracle-node-1-gpus" is invalid: spec.devices[0].attributes[model]: Invalid value: "": exactly one value must be specified`,
				// 1.37's declarative union rule.
				37: "ResourceSlice.resource.k8s.io \"oracle-node-1-gpus\" is invalid: spec.devices[0].attributes[model]: Invalid value: \"\": must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`"}},
		// DRAConsumableCapacity (on from 1.36) declares device.allowMultipleAllocations.
		{kind: "DeviceClass", workloadCase: workloadCase{name: "selector of multiple allocations",
			new: edit(t, deviceClassGPU, `device.driver == "gpu.example.com"`, `device.allowMultipleAllocations`)},
			want: byMinor[string]{
				34: `DeviceClass.resource.k8s.io "oracle-gpu.example.com" is invalid: spec.selectors[0].cel.expression: Invalid value: "device.allowMultipleAllocations && device.attributes[\"gpu.example.com\"].model == \"h100\"": compilation failed: ERROR: <input>:1:7: undefined field 'allowMultipleAllocations'
 | device.allowMultipleAllocations && device.attributes["gpu.example.com"].model == "h100"
 | ......^`,
				36: ""}},
	}
}
