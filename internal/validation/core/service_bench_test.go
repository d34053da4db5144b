package core_test

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/kube"
	"sigs.k8s.io/yaml"
)

// realisticService is a load balancer as the engine holds it after defaulting and the
// registry's rules: named ports with app protocols, a selector, source ranges, local
// traffic with its health-check port, annotations, and its load balancer's status.
const realisticService = `
apiVersion: v1
kind: Service
metadata:
  name: ingress-nginx-controller
  namespace: ingress-nginx
  uid: 6f5a3c2e-8d9b-4b1a-9c3e-2f1d0a7b6c5d
  resourceVersion: "42"
  creationTimestamp: "2026-12-03T09:00:00Z"
  labels:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
    app.kubernetes.io/part-of: ingress-nginx
    app.kubernetes.io/version: 1.12.0
  annotations:
    service.beta.kubernetes.io/aws-load-balancer-type: nlb
    service.beta.kubernetes.io/aws-load-balancer-scheme: internet-facing
    service.beta.kubernetes.io/aws-load-balancer-cross-zone-load-balancing-enabled: "true"
spec:
  type: LoadBalancer
  clusterIP: 10.96.120.7
  clusterIPs: [10.96.120.7]
  ipFamilies: [IPv4]
  ipFamilyPolicy: SingleStack
  selector:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  ports:
  - {name: http, port: 80, protocol: TCP, targetPort: http, appProtocol: http, nodePort: 31080}
  - {name: https, port: 443, protocol: TCP, targetPort: https, appProtocol: https, nodePort: 31443}
  - {name: metrics, port: 10254, protocol: TCP, targetPort: 10254, nodePort: 31254}
  externalTrafficPolicy: Local
  healthCheckNodePort: 32100
  internalTrafficPolicy: Cluster
  sessionAffinity: None
  allocateLoadBalancerNodePorts: true
  loadBalancerSourceRanges: [10.0.0.0/8, 192.168.0.0/16, 203.0.113.0/24]
status:
  loadBalancer:
    ingress:
    - hostname: a1b2c3.elb.eu-west-1.amazonaws.com
`

func serviceObject(b *testing.B) map[string]any {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(realisticService), &m); err != nil {
		b.Fatal(err)
	}
	return int64Numbers(m).(map[string]any)
}

// BenchmarkValidateService validates the create of a realistic Service as the engine does
// (ValidateWrite: decode into the internal type, the storage's checks, the strategy).
func BenchmarkValidateService(b *testing.B) {
	obj := serviceObject(b)
	b.ReportAllocs()
	for b.Loop() {
		res, err := validation.ValidateWrite(serverconfig.MustFor(kube.Default()), "v1", "Service", "", obj, nil)
		if err != nil || len(res.Errors) > 0 {
			b.Fatal(err, res.Errors)
		}
	}
}

// BenchmarkValidateServiceUpdate validates an update of it that adds a source range.
func BenchmarkValidateServiceUpdate(b *testing.B) {
	old, obj := serviceObject(b), serviceObject(b)
	spec := obj["spec"].(map[string]any)
	spec["loadBalancerSourceRanges"] = append(spec["loadBalancerSourceRanges"].([]any), "198.51.100.0/24")
	b.ReportAllocs()
	for b.Loop() {
		res, err := validation.ValidateWrite(serverconfig.MustFor(kube.Default()), "v1", "Service", "", obj, old)
		if err != nil || len(res.Errors) > 0 {
			b.Fatal(err, res.Errors)
		}
	}
}
