package validation_test

import (
	"strings"
	"testing"
)

// longName is a name of n lower-case letters.
func longName(n int) string { return strings.Repeat("a", n) }

const priorityClassHigh = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: oracle-high, uid: 2c0e5c1a-0000-4000-8000-000000000031, resourceVersion: "7"}
value: 1000000
preemptionPolicy: PreemptLowerPriority
description: latency-critical services
`

const runtimeClassKata = `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: oracle-kata, uid: 2c0e5c1a-0000-4000-8000-000000000032, resourceVersion: "7"}
handler: kata-qemu
overhead:
  podFixed: {cpu: 250m, memory: 160Mi}
scheduling:
  nodeSelector: {katacontainers.io/kata-runtime: "true"}
  tolerations:
  - {key: kata, operator: Exists, effect: NoSchedule}
`

const endpointSliceWeb = `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-abc12, namespace: shop, uid: 2c0e5c1a-0000-4000-8000-000000000033, resourceVersion: "7", labels: {kubernetes.io/service-name: web}}
addressType: IPv4
ports:
- {name: http, protocol: TCP, port: 8080}
endpoints:
- addresses: [10.244.1.5]
  conditions: {ready: true}
  nodeName: node-1
  hints:
    forZones: [{name: zone-a}]
`

const leaseController = `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: controller, namespace: shop, uid: 2c0e5c1a-0000-4000-8000-000000000034, resourceVersion: "7"}
spec:
  holderIdentity: controller-0
  leaseDurationSeconds: 15
  leaseTransitions: 2
`

// rules.md valid.builtin, valid.update: a PriorityClass's value (immutable, at most one billion unless a system
// class), the system- prefix and the preemption policy (immutable).
func priorityClassCases(t *testing.T) []workloadCase {
	pc := priorityClassHigh
	return []workloadCase{
		{name: "valid create", new: pc},
		{name: "V1 value above one billion", new: edit(t, pc, "value: 1000000", "value: 1000000001")},
		{name: "V1 system prefix reserved", new: edit(t, pc, "name: oracle-high", "name: system-high")},
		{name: "V1 system class with another value", new: edit(t, pc, "name: oracle-high", "name: system-node-critical")},
		{name: "V1 system class as global default", new: edit(t, edit(t, pc, "name: oracle-high", "name: system-cluster-critical"), "value: 1000000", "value: 2000000000\nglobalDefault: true")},
		{name: "V1 preemption policy unknown", new: edit(t, pc, "preemptionPolicy: PreemptLowerPriority", "preemptionPolicy: Always")},
		{name: "V2 value cannot change", old: pc, new: edit(t, pc, "value: 1000000", "value: 2000000")},
		{name: "V2 preemption policy is immutable", old: pc, new: edit(t, pc, "preemptionPolicy: PreemptLowerPriority", "preemptionPolicy: Never")},
		{name: "V2 description may change", old: pc, new: edit(t, pc, "latency-critical services", "critical")},
	}
}

// rules.md valid.builtin, valid.update: a RuntimeClass's handler (immutable), overhead and scheduling.
func runtimeClassCases(t *testing.T) []workloadCase {
	rc := runtimeClassKata
	return []workloadCase{
		{name: "valid create", new: rc},
		{name: "V1 handler not a DNS label", new: edit(t, rc, "handler: kata-qemu", "handler: kata.qemu")},
		{name: "V1 handler missing", new: edit(t, rc, "handler: kata-qemu\n", "")},
		{name: "V1 overhead of an unknown resource", new: edit(t, rc, "podFixed: {cpu: 250m, memory: 160Mi}", "podFixed: {cpu: 250m, disk: 1Gi}")},
		{name: "V1 node selector key invalid", new: edit(t, rc, "nodeSelector: {katacontainers.io/kata-runtime: \"true\"}", "nodeSelector: {'bad key': x}")},
		{name: "V1 tolerations repeated", new: rc + "  - {key: kata, operator: Exists, effect: NoSchedule}\n"},
		{name: "V1 toleration with a value and Exists", new: edit(t, rc, "{key: kata, operator: Exists, effect: NoSchedule}", "{key: kata, operator: Exists, value: x, effect: NoSchedule}")},
		{name: "V2 handler is immutable", old: rc, new: edit(t, rc, "handler: kata-qemu", "handler: kata-fc")},
		{name: "V2 handler changed to an invalid one", old: rc, new: edit(t, rc, "handler: kata-qemu", "handler: Kata")},
	}
}

// rules.md valid.builtin, valid.update: an EndpointSlice's address type (immutable), ports and endpoints.
func endpointSliceCases(t *testing.T) []workloadCase {
	eps := endpointSliceWeb
	return []workloadCase{
		{name: "valid create", new: eps},
		{name: "V1 address type unknown", new: edit(t, eps, "addressType: IPv4", "addressType: IPv5")},
		{name: "V1 IPv6 address in an IPv4 slice", new: edit(t, eps, "addresses: [10.244.1.5]", "addresses: ['fd00::5']")},
		{name: "V1 loopback and invalid addresses", new: edit(t, eps, "addresses: [10.244.1.5]", "addresses: [127.0.0.1, 10.244.1.500]")},
		{name: "V1 endpoint without addresses", new: edit(t, eps, "addresses: [10.244.1.5]", "addresses: []")},
		{name: "V1 ports repeated with an unknown protocol", new: edit(t, eps, "- {name: http, protocol: TCP, port: 8080}", "- {name: http, protocol: TCP, port: 8080}\n- {name: http, protocol: ICMP, port: 8081}")},
		{name: "V1 port name and app protocol invalid", new: edit(t, eps, "{name: http,", "{name: HTTP, appProtocol: 'bad proto',")},
		{name: "V1 hints repeated and node name invalid", new: edit(t, edit(t, eps, "forZones: [{name: zone-a}]", "forZones: [{name: zone-a}, {name: zone-a}]"), "nodeName: node-1", "nodeName: Node_1")},
		{name: "V1 FQDN slice with a bad name", new: edit(t, edit(t, eps, "addressType: IPv4", "addressType: FQDN"), "addresses: [10.244.1.5]", "addresses: [api]")},
		{name: "V2 address type is immutable", old: eps, new: edit(t, edit(t, eps, "addressType: IPv4", "addressType: IPv6"), "addresses: [10.244.1.5]", "addresses: ['fd00::5']")},
		{name: "V2 endpoints may change", old: eps, new: edit(t, eps, "addresses: [10.244.1.5]", "addresses: [10.244.1.6]")},
	}
}

// rules.md valid.builtin: a Lease's duration, transitions, strategy and preferred holder.
func leaseCases(t *testing.T) []workloadCase {
	l := leaseController
	return []workloadCase{
		{name: "valid create", new: l},
		{name: "V1 duration not positive", new: edit(t, l, "leaseDurationSeconds: 15", "leaseDurationSeconds: 0")},
		{name: "V1 negative transitions", new: edit(t, l, "leaseTransitions: 2", "leaseTransitions: -1")},
		{name: "V1 update with a negative duration", old: l, new: edit(t, l, "leaseDurationSeconds: 15", "leaseDurationSeconds: -5")},
		{name: "V1 holder may change", old: l, new: edit(t, l, "controller-0", "controller-1")},
	}
}
