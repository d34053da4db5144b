package validation_test

import "testing"

// A benchmark per kind of the core group's other objects (Service has its own in
// core/service_bench_test.go): a create of a realistic object, and an update over itself.

const endpointsDB = `apiVersion: v1
kind: Endpoints
metadata: {name: external-db, namespace: data, uid: 1b0e5c1a-0000-4000-8000-000000000101, resourceVersion: "7"}
subsets:
- addresses:
  - {ip: 10.1.2.3, hostname: db-0, nodeName: node-a, targetRef: {kind: Pod, name: db-0, namespace: data}}
  - {ip: "2001:db8::3"}
  notReadyAddresses: [{ip: 10.1.2.4}]
  ports: [{name: postgres, port: 5432, protocol: TCP, appProtocol: postgresql}, {name: metrics, port: 9187, protocol: TCP}]
`

const secretRegistry = `apiVersion: v1
kind: Secret
metadata: {name: registry, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000102, resourceVersion: "7", labels: {app: web}}
type: kubernetes.io/dockerconfigjson
data:
  .dockerconfigjson: eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLmNvbSI6eyJhdXRoIjoiZFhObGNqcHdZWE56In19fQ==
`

const serviceAccountCI = `apiVersion: v1
kind: ServiceAccount
metadata: {name: ci, namespace: build, uid: 1b0e5c1a-0000-4000-8000-000000000103, resourceVersion: "7", annotations: {eks.amazonaws.com/role-arn: "arn:aws:iam::123456789012:role/ci"}}
imagePullSecrets: [{name: registry}]
secrets: [{name: ci-token}]
automountServiceAccountToken: false
`

const namespaceTeam = `apiVersion: v1
kind: Namespace
metadata: {name: team-a, uid: 1b0e5c1a-0000-4000-8000-000000000104, resourceVersion: "7", labels: {team: a, pod-security.kubernetes.io/enforce: baseline}}
spec: {finalizers: [kubernetes]}
status: {phase: Active}
`

const limitRangeDefaults = `apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000105, resourceVersion: "7"}
spec:
  limits:
  - type: Container
    max: {cpu: "2", memory: 4Gi}
    min: {cpu: 50m, memory: 64Mi}
    default: {cpu: 500m, memory: 512Mi}
    defaultRequest: {cpu: 100m, memory: 128Mi}
    maxLimitRequestRatio: {cpu: "10"}
  - type: PersistentVolumeClaim
    max: {storage: 100Gi}
    min: {storage: 1Gi}
`

const resourceQuotaCompute = `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000106, resourceVersion: "7"}
spec:
  hard: {requests.cpu: "10", requests.memory: 20Gi, limits.cpu: "20", limits.memory: 40Gi, pods: "50"}
  scopeSelector:
    matchExpressions: [{scopeName: PriorityClass, operator: In, values: [high, critical]}]
`

const eventScheduled = `apiVersion: v1
kind: Event
metadata: {name: web-5d8c7b9f4-abcde.17a2b3c4d5e6f7a8, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000107, resourceVersion: "7"}
involvedObject: {kind: Pod, namespace: shop, name: web-5d8c7b9f4-abcde, uid: 1b0e5c1a-0000-4000-8000-000000000001, apiVersion: v1}
reason: Scheduled
message: Successfully assigned shop/web-5d8c7b9f4-abcde to node-a
source: {component: default-scheduler}
firstTimestamp: "2026-12-03T09:00:00Z"
lastTimestamp: "2026-12-03T09:00:00Z"
count: 1
type: Normal
`

const eventsEventPulled = `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: web-5d8c7b9f4-abcde.17a2b3c4d5e6f7a9, namespace: shop, uid: 1b0e5c1a-0000-4000-8000-000000000108, resourceVersion: "7"}
eventTime: "2026-12-03T09:00:01.000000Z"
reportingController: kubelet
reportingInstance: node-a
action: Pulling
reason: Pulled
regarding: {kind: Pod, namespace: shop, name: web-5d8c7b9f4-abcde, uid: 1b0e5c1a-0000-4000-8000-000000000001, apiVersion: v1}
note: Successfully pulled image "nginx:1.27"
type: Normal
`

const nodeWorker = `apiVersion: v1
kind: Node
metadata: {name: worker-1, uid: 1b0e5c1a-0000-4000-8000-000000000109, resourceVersion: "7", labels: {kubernetes.io/hostname: worker-1, topology.kubernetes.io/zone: eu-west-1a}}
spec:
  podCIDR: 10.244.1.0/24
  podCIDRs: [10.244.1.0/24, "fd00:10:244:1::/64"]
  providerID: aws:///eu-west-1a/i-0123456789abcdef0
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status:
  capacity: {cpu: "8", memory: 32Gi, pods: "110"}
  allocatable: {cpu: 7800m, memory: 30Gi, pods: "110"}
  addresses: [{type: InternalIP, address: 10.0.1.17}, {type: Hostname, address: worker-1}]
`

func BenchmarkValidateEndpoints(b *testing.B)      { benchmarkWrite(b, endpointsDB) }
func BenchmarkValidateSecret(b *testing.B)         { benchmarkWrite(b, secretRegistry) }
func BenchmarkValidateServiceAccount(b *testing.B) { benchmarkWrite(b, serviceAccountCI) }
func BenchmarkValidateNamespace(b *testing.B)      { benchmarkWrite(b, namespaceTeam) }
func BenchmarkValidateLimitRange(b *testing.B)     { benchmarkWrite(b, limitRangeDefaults) }
func BenchmarkValidateResourceQuota(b *testing.B)  { benchmarkWrite(b, resourceQuotaCompute) }
func BenchmarkValidateEvent(b *testing.B)          { benchmarkWrite(b, eventScheduled) }
func BenchmarkValidateEventsEvent(b *testing.B)    { benchmarkWrite(b, eventsEventPulled) }
func BenchmarkValidateNode(b *testing.B)           { benchmarkWrite(b, nodeWorker) }
