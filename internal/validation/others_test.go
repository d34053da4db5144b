package validation_test

import "testing"

const daemonSetAgent = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: monitoring, uid: 1b0e5c1a-0000-4000-8000-000000000004, resourceVersion: "7"}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: agent:1.0}]
`

const replicaSetWeb = `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web-7d4b9c8f6d, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000005, resourceVersion: "7"}
spec:
  replicas: 2
  selector: {matchLabels: {app: web, pod-template-hash: 7d4b9c8f6d}}
  template:
    metadata: {labels: {app: web, pod-template-hash: 7d4b9c8f6d}}
    spec:
      containers: [{name: web, image: nginx:1.27}]
`

const revisionKafka = `apiVersion: apps/v1
kind: ControllerRevision
metadata: {name: kafka-7c9d8f6b5, namespace: streaming, uid: 1b0e5c1a-0000-4000-8000-000000000006, resourceVersion: "7"}
revision: 3
data: {spec: {template: {metadata: {labels: {app: kafka}}}}}
`

const hpaWeb = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000007, resourceVersion: "7"}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
`

const pdbWeb = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000008, resourceVersion: "7"}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
`

// rules.md valid.builtin, valid.update: DaemonSet, ReplicaSet, ControllerRevision, HorizontalPodAutoscaler and
// PodDisruptionBudget.
func TestOtherWorkloadValidation(t *testing.T) { runWorkloadCases(t, otherWorkloadCases(t)) }

func otherWorkloadCases(t *testing.T) []workloadCase {
	ds, rs, rev, hpa, pdb := daemonSetAgent, replicaSetWeb, revisionKafka, hpaWeb, pdbWeb
	return []workloadCase{
		{name: "DaemonSet valid", new: ds},
		{name: "DaemonSet V2 selector", old: ds, new: edit(t, ds, "selector: {matchLabels: {app: agent}}", "selector: {matchLabels: {app: agent, tier: node}}"),
			want: "DaemonSet.apps \"agent\" is invalid: [spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"agent\",\"tier\":\"node\"}}: field is immutable, spec.template.metadata.labels: Invalid value: {\"app\":\"agent\"}: `selector` does not match template `labels`]"},
		{name: "DaemonSet template change moves the template generation", old: ds, new: edit(t, ds, "agent:1.0", "agent:1.1")},
		{name: "DaemonSet V1 maxSurge with maxUnavailable", new: edit(t, ds, "spec:\n  selector", "spec:\n  updateStrategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}\n  selector"),
			want: `DaemonSet.apps "agent" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`},
		{name: "DaemonSet V1 both zero", new: edit(t, ds, "spec:\n  selector", "spec:\n  updateStrategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}\n  selector"),
			want: `DaemonSet.apps "agent" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`},
		{name: "DaemonSet V1 unknown update strategy", new: edit(t, ds, "spec:\n  selector", "spec:\n  updateStrategy: {type: Canary}\n  selector"),
			want: `DaemonSet.apps "agent" is invalid: spec.updateStrategy: Unsupported value: {"Type":"Canary","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"`},
		{name: "DaemonSet V1 activeDeadlineSeconds", new: edit(t, ds, "containers:", "activeDeadlineSeconds: 60\n      containers:"),
			want: `DaemonSet.apps "agent" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported`},
		{name: "DaemonSet warning: the template's deprecated node label on a template change",
			old:      edit(t, ds, "containers:", "nodeSelector: {beta.kubernetes.io/arch: amd64}\n      containers:"),
			new:      edit(t, edit(t, ds, "containers:", "nodeSelector: {beta.kubernetes.io/arch: amd64}\n      containers:"), "agent:1.0", "agent:1.1"),
			warnings: []string{`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead`}},
		{name: "DaemonSet warning: none when the template stays (its generation does)",
			old: edit(t, ds, "containers:", "nodeSelector: {beta.kubernetes.io/arch: amd64}\n      containers:"),
			new: edit(t, edit(t, ds, "containers:", "nodeSelector: {beta.kubernetes.io/arch: amd64}\n      containers:"), "spec:\n  selector", "spec:\n  minReadySeconds: 5\n  selector")},
		{name: "ReplicaSet valid", new: rs},
		{name: "ReplicaSet V1 empty selector is worded as a Deployment's", new: edit(t, rs, "selector: {matchLabels: {app: web, pod-template-hash: 7d4b9c8f6d}}", "selector: {}"),
			want: `ReplicaSet.apps "web-7d4b9c8f6d" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment`},
		{name: "ReplicaSet V1 negative minReadySeconds", new: edit(t, rs, "replicas: 2", "replicas: 2\n  minReadySeconds: -5"),
			want: `ReplicaSet.apps "web-7d4b9c8f6d" is invalid: spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0`},
		{name: "ReplicaSet status: fully labeled above replicas", subresource: "status", old: rs,
			new:  rs + "status: {replicas: 1, fullyLabeledReplicas: 2}\n",
			want: `ReplicaSet.apps "web-7d4b9c8f6d" is invalid: status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas`},
		{name: "ReplicaSet V2 selector is immutable", old: rs, new: edit(t, rs, "selector: {matchLabels: {app: web, pod-template-hash: 7d4b9c8f6d}}", "selector: {matchLabels: {app: web}}"),
			want: `ReplicaSet.apps "web-7d4b9c8f6d" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web"}}: field is immutable`},
		{name: "ReplicaSet V2 allowed update: replicas and template", old: rs, new: edit(t, edit(t, rs, "replicas: 2", "replicas: 0"), "nginx:1.27", "nginx:1.28")},
		{name: "ReplicaSet warning: a name that is no DNS label", new: edit(t, rs, "name: web-7d4b9c8f6d", "name: web.7d4b9c8f6d"),
			warnings: []string{"metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"}},
		{name: "ControllerRevision valid", new: rev},
		{name: "ControllerRevision V1 data must be an object", new: edit(t, rev, "data: {spec: {template: {metadata: {labels: {app: kafka}}}}}", "data: [1, 2]"),
			want: `ControllerRevision.apps "kafka-7c9d8f6b5" is invalid: data: Required value: data must be a valid JSON object`},
		{name: "ControllerRevision V2 data is immutable", old: rev, new: edit(t, rev, "app: kafka", "app: broker"),
			want: `ControllerRevision.apps "kafka-7c9d8f6b5" is invalid: data: Invalid value: {"spec":{"template":{"metadata":{"labels":{"app":"broker"}}}}}: field is immutable`},
		{name: "ControllerRevision V1 negative revision", new: edit(t, rev, "revision: 3", "revision: -3"),
			want: `ControllerRevision.apps "kafka-7c9d8f6b5" is invalid: revision: Invalid value: -3: must be greater than or equal to 0`},
		{name: "HPA valid", new: hpa},
		{name: "HPA V1 maxReplicas below minReplicas", new: edit(t, hpa, "maxReplicas: 10", "maxReplicas: 1"),
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: spec.maxReplicas: Invalid value: 1: must be greater than or equal to `minReplicas`"},
		{name: "HPA V1 maxReplicas 0 is reported by declarative validation", new: edit(t, edit(t, hpa, "maxReplicas: 10", "maxReplicas: 0"), "minReplicas: 2", "minReplicas: 0"),
			want: `HorizontalPodAutoscaler.autoscaling "web" is invalid: [spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas, spec.maxReplicas: Required value]`},
		{name: "HPA V1 negative minReplicas last, from declarative validation", new: edit(t, hpa, "minReplicas: 2", "minReplicas: -1"),
			want: `HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.minReplicas: Invalid value: -1: must be greater than or equal to 0`},
		{name: "HPA V1 scale target without a group", new: edit(t, hpa, "apiVersion: apps/v1, kind: Deployment", "apiVersion: v1, kind: Deployment"),
			want: `HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group`},
		{name: "HPA V1 metric with two sources", new: edit(t, hpa, "type: Resource\n", "type: Resource\n    pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: \"10\"}}\n"),
			want: `HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.metrics[0].pods: Forbidden: must populate the given metric source only`},
		{name: "HPA V1 resource target with value and utilization", new: edit(t, hpa, "averageUtilization: 70", "averageUtilization: 70, averageValue: 100m"),
			want: `HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization`},
		{name: "HPA V1 behavior", new: edit(t, hpa, "  metrics:", "  behavior: {scaleUp: {stabilizationWindowSeconds: 4000, selectPolicy: Avg, policies: [{type: Pods, value: 0, periodSeconds: 1801}]}}\n  metrics:"),
			want: `HorizontalPodAutoscaler.autoscaling "web" is invalid: [spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600, spec.behavior.scaleUp.selectPolicy: Unsupported value: "Avg": supported values: "Disabled", "Max", "Min", spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero, spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800]`},
		{name: "HPA status: negative replicas", subresource: "status", old: hpa, new: hpa + "status: {currentReplicas: -1, desiredReplicas: 2}\n",
			want: `HorizontalPodAutoscaler.autoscaling "web" is invalid: status.currentReplicas: Invalid value: -1: must be greater than or equal to 0`},
		{name: "HPA V2 an update is validated as a create: maxReplicas below minReplicas", old: hpa, new: edit(t, hpa, "minReplicas: 2", "minReplicas: 12"),
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: spec.maxReplicas: Invalid value: 10: must be greater than or equal to `minReplicas`"},
		{name: "HPA V2 a ReplicationController target needs no group", old: hpa,
			new: edit(t, hpa, "{apiVersion: apps/v1, kind: Deployment, name: web}", "{apiVersion: v1, kind: ReplicationController, name: web}")},
		{name: "HPA V2 a new target kind at a version without a group", old: hpa,
			new:  edit(t, hpa, "{apiVersion: apps/v1, kind: Deployment, name: web}", "{apiVersion: v1, kind: StatefulSet, name: web}"),
			want: `HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group`},
		{name: "PDB valid", new: pdb},
		{name: "PDB V1 both budgets", new: edit(t, pdb, "minAvailable: 1", "minAvailable: 1\n  maxUnavailable: 150%"),
			want: `PodDisruptionBudget.policy "web" is invalid: [spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"web"}},"MaxUnavailable":"150%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set, spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%]`},
		{name: "PDB V1 eviction policy", new: edit(t, pdb, "minAvailable: 1", "minAvailable: 1\n  unhealthyPodEvictionPolicy: Never"),
			want: `PodDisruptionBudget.policy "web" is invalid: spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"`},
		{name: "PDB V1 malformed percentage", new: edit(t, pdb, "minAvailable: 1", "minAvailable: half"),
			want: `PodDisruptionBudget.policy "web" is invalid: spec.minAvailable: Invalid value: "half": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{name: "PDB V2 the budget may change from minAvailable to maxUnavailable", old: pdb, new: edit(t, pdb, "minAvailable: 1", "maxUnavailable: 25%")},
		{name: "PDB V2 an update is validated as a create: percentage above 100%", old: pdb, new: edit(t, pdb, "minAvailable: 1", "minAvailable: 120%"),
			want: `PodDisruptionBudget.policy "web" is invalid: spec.minAvailable: Invalid value: "120%": must not be greater than 100%`},
		{name: "PDB V2 the selector may change", old: pdb, new: edit(t, pdb, "{app: web}", "{app: web, tier: front}")},
	}
}
