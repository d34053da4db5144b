package validation_test

import (
	"flag"
	"strings"
	"testing"
)

// The scenarios of the resource.k8s.io kinds (Dynamic Resource Allocation), answered as
// groups_test.go's are: each case's answer is the one a real kube-apiserver 1.37.2 gave
// (testdata/resource.json, recorded by TestResourceCasesAgainstOracle with
// -record-resource). Rules.md valid.builtin: messages byte for byte (device selectors compiled in the
// server's DRA CEL environment); V2: updates against the stored object and /status writes;
// V6: object metadata.

var recordResource = flag.Bool("record-resource", false, "write the oracle's answers to testdata/resource.json")

const resourceAnswers = "testdata/resource.json"

var resourceKinds = []string{"DeviceClass", "ResourceClaimTemplate", "ResourceClaim", "ResourceSlice", "DeviceTaintRule"}

func init() {
	groupResources["DeviceClass"] = struct {
		plural     string
		namespaced bool
	}{"deviceclasses", false}
	groupResources["ResourceClaimTemplate"] = struct {
		plural     string
		namespaced bool
	}{"resourceclaimtemplates", true}
	groupResources["ResourceClaim"] = struct {
		plural     string
		namespaced bool
	}{"resourceclaims", true}
	groupResources["ResourceSlice"] = struct {
		plural     string
		namespaced bool
	}{"resourceslices", false}
	groupResources["DeviceTaintRule"] = struct {
		plural     string
		namespaced bool
	}{"devicetaintrules", false}
}

func resourceCases(t *testing.T) []groupCase {
	var out []groupCase
	for _, set := range []struct {
		kind  string
		cases []workloadCase
	}{
		{"DeviceClass", deviceClassCases(t)}, {"ResourceClaimTemplate", claimTemplateCases(t)}, {"ResourceClaim", claimCases(t)},
		{"ResourceSlice", sliceCases(t)}, {"DeviceTaintRule", taintRuleCases(t)},
	} {
		for _, c := range set.cases {
			if !strings.Contains(c.new, "kind: "+set.kind+"\n") {
				t.Fatalf("%s case %q writes another kind", set.kind, c.name)
			}
			out = append(out, groupCase{kind: set.kind, workloadCase: c})
		}
	}
	return out
}

// TestResourceScenarios: ssa-diff's answer to each case is the server's (rules.md valid.builtin, valid.update, valid.metadata).
func TestResourceScenarios(t *testing.T) {
	answers := loadAnswers(t, resourceAnswers)
	for _, c := range resourceCases(t) {
		t.Run(c.key(), func(t *testing.T) {
			want, ok := answers[c.key()]
			if !ok {
				t.Fatalf("no recorded answer for %q in %s", c.key(), resourceAnswers)
			}
			if got := c.run(t); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestResourceScenariosRecorded: the table and the recorded answers match one to one, and
// each kind has refusals among its cases.
func TestResourceScenariosRecorded(t *testing.T) {
	checkRecorded(t, resourceCases(t), loadAnswers(t, resourceAnswers), resourceKinds)
}

// TestResourceCasesAgainstOracle checks the recorded answers against SSA_DIFF_ORACLE (see
// TestWorkloadCasesAgainstOracle), or records them with -record-resource.
func TestResourceCasesAgainstOracle(t *testing.T) {
	recordAgainstOracle(t, resourceCases(t), resourceAnswers, *recordResource)
}

const deviceClassGPU = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: oracle-gpu.example.com, uid: 2c0e5c1a-0000-4000-8000-000000000041, resourceVersion: "7"}
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "h100"
  config:
  - opaque:
      driver: gpu.example.com
      parameters: {sharing: {strategy: TimeSlicing}}
  extendedResourceName: example.com/gpu
`

// rules.md valid.builtin, valid.update, valid.metadata: a DeviceClass's name, selectors (compiled in the DRA CEL environment:
// syntax, undeclared names, result type), configuration and extended resource name.
func deviceClassCases(t *testing.T) []workloadCase {
	c := deviceClassGPU
	sel := `device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "h100"`
	return []workloadCase{
		{name: "valid create", new: c},
		{name: "V6 name not a DNS subdomain", new: edit(t, c, "name: oracle-gpu.example.com", "name: Oracle_GPU")},
		{name: "V1 selector syntax error", new: edit(t, c, sel, `device.driver == `)},
		{name: "V1 selector undeclared reference", new: edit(t, c, sel, `gpu.model == "h100"`)},
		{name: "V1 selector not a bool", new: edit(t, c, sel, `device.driver`)},
		{name: "V1 selector of an attribute value", new: edit(t, c, sel, `device.attributes["gpu.example.com"].healthy`)},
		{name: "V1 selector with bindings and quantities", new: edit(t, c, sel,
			`cel.bind(g, device.capacity["gpu.example.com"], g.memory.compareTo(quantity("40Gi")) >= 0) && device.allowMultipleAllocations`)},
		{name: "V1 selector without cel", new: edit(t, c, "  - cel:\n      expression: "+sel+"\n", "  - {}\n")},
		{name: "V1 config driver not a DNS subdomain and too long", new: edit(t, c, "driver: gpu.example.com", "driver: "+longName(60)+"_x.example.com")},
		{name: "V1 config without opaque and parameters not an object", new: edit(t, c, "  - opaque:\n      driver: gpu.example.com\n      parameters: {sharing: {strategy: TimeSlicing}}\n",
			"  - {}\n  - opaque: {driver: gpu.example.com, parameters: [1, 2]}\n")},
		{name: "V1 extended resource name without a domain", new: edit(t, c, "extendedResourceName: example.com/gpu", "extendedResourceName: gpu")},
		{name: "V1 extended resource name in kubernetes.io", new: edit(t, c, "extendedResourceName: example.com/gpu", "extendedResourceName: kubernetes.io/gpu")},
		{name: "V2 stored selectors are not compiled again", old: c, new: edit(t, c, "extendedResourceName: example.com/gpu", "extendedResourceName: example.com/gpu2")},
		{name: "V2 a changed selector is compiled", old: c, new: edit(t, c, sel, `device.drver == "x"`)},
	}
}

const claimTemplatePair = `apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: oracle-gpu-pair, namespace: ml, uid: 2c0e5c1a-0000-4000-8000-000000000042, resourceVersion: "7"}
spec:
  metadata:
    labels: {claim-of: trainer}
  spec:
    devices:
      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.example.com
          count: 2
          selectors:
          - cel:
              expression: device.attributes["gpu.example.com"].memory >= 40
          tolerations:
          - {key: example.com/maintenance, operator: Exists, effect: NoSchedule}
      - name: nic
        firstAvailable:
        - name: fast
          deviceClassName: nic
        - name: any
          deviceClassName: nic
          allocationMode: All
      constraints:
      - requests: [gpus, nic/fast]
        matchAttribute: example.com/numaNode
      config:
      - requests: [gpus]
        opaque:
          driver: gpu.example.com
          parameters: {sharing: {strategy: MPS}}
`

// rules.md valid.builtin, valid.update: a ResourceClaimTemplate's requests (names, classes, allocation modes,
// selectors, tolerations, subrequests), constraints and configuration; its spec is
// immutable.
func claimTemplateCases(t *testing.T) []workloadCase {
	c := claimTemplatePair
	return []workloadCase{
		{name: "valid create", new: c},
		{name: "V1 request names repeated", new: edit(t, c, "      - name: nic\n", "      - name: gpus\n")},
		{name: "V1 request with neither exactly nor firstAvailable", new: edit(t, c, "      - name: nic\n        firstAvailable:\n        - name: fast\n          deviceClassName: nic\n        - name: any\n          deviceClassName: nic\n          allocationMode: All\n", "      - name: nic\n")},
		{name: "V1 allocation mode unknown and count with All", new: edit(t, edit(t, c, "          count: 2\n", "          allocationMode: Some\n"), "          allocationMode: All\n", "          allocationMode: All\n          count: 3\n")},
		{name: "V1 subrequest class missing and names repeated", new: edit(t, c, "        - name: any\n          deviceClassName: nic\n", "        - name: fast\n")},
		{name: "V1 selector syntax error", new: edit(t, c, "expression: device.attributes[\"gpu.example.com\"].memory >= 40", "expression: device.attributes[")},
		{name: "V1 toleration operator and effect unknown", new: edit(t, c, "{key: example.com/maintenance, operator: Exists, effect: NoSchedule}", "{key: example.com/maintenance, operator: In, effect: Evict}")},
		{name: "V1 toleration Exists with a value", new: edit(t, c, "{key: example.com/maintenance, operator: Exists, effect: NoSchedule}", "{key: 'bad key', operator: Exists, value: x}")},
		{name: "V1 constraint refers to unknown requests", new: edit(t, c, "requests: [gpus, nic/fast]", "requests: [gpus, nic/slow, tpu, a/b/c]")},
		{name: "V1 constraint attribute without a domain", new: edit(t, c, "matchAttribute: example.com/numaNode", "matchAttribute: numa-node")},
		{name: "V1 constraint without an attribute", new: edit(t, c, "        matchAttribute: example.com/numaNode\n", "")},
		{name: "V1 config requests repeated and driver missing", new: edit(t, edit(t, c, "requests: [gpus]", "requests: [gpus, gpus]"), "driver: gpu.example.com", "driver: ''")},
		{name: "V1 template metadata name cannot be set", new: edit(t, c, "    labels: {claim-of: trainer}\n", "    name: x\n")},
		{name: "V2 spec is immutable", old: c, new: edit(t, c, "count: 2", "count: 3")},
		{name: "V2 labels may change", old: c, new: edit(t, c, "resourceVersion: \"7\"}", "resourceVersion: \"7\", labels: {a: b}}")},
	}
}

const claimTrainer = `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: oracle-trainer-gpus, namespace: ml, uid: 2c0e5c1a-0000-4000-8000-000000000043, resourceVersion: "7"}
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.example.com
        count: 2
    - name: nic
      firstAvailable:
      - name: fast
        deviceClassName: nic
`

const claimAllocated = `status:
  allocation:
    devices:
      results:
      - {request: gpus, driver: gpu.example.com, pool: node-1, device: gpu-0}
      - {request: gpus, driver: gpu.example.com, pool: node-1, device: gpu-1}
      - {request: nic/fast, driver: net.example.com, pool: node-1/pf0, device: vf-3}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {key: metadata.name, operator: In, values: [node-1]}
`

// rules.md valid.builtin, valid.update: a ResourceClaim's requests; its spec is immutable; its status (written
// through /status) is allocated once, reserved for consumers only when allocated, and
// reports only allocated devices.
func claimCases(t *testing.T) []workloadCase {
	c := claimTrainer
	allocated := c + claimAllocated
	return []workloadCase{
		{name: "valid create", new: c},
		{name: "V1 request name and class invalid", new: edit(t, c, "    - name: gpus\n      exactly:\n        deviceClassName: gpu.example.com\n", "    - name: GPUs\n      exactly:\n        deviceClassName: GPU_Class\n")},
		{name: "count zero is defaulted to one", new: edit(t, c, "count: 2", "count: 0")},
		{name: "V1 both exactly and firstAvailable", new: edit(t, c, "      firstAvailable:\n", "      exactly: {deviceClassName: nic}\n      firstAvailable:\n")},
		{name: "V1 selector must be a bool", new: edit(t, c, "        count: 2\n", "        count: 2\n        selectors:\n        - cel: {expression: 'device.attributes.size()'}\n")},
		{name: "V2 spec is immutable", old: c, new: edit(t, c, "count: 2", "count: 1")},
		{name: "status: allocated", subresource: "status", old: c, new: allocated},
		{name: "status: allocation results invalid", subresource: "status", old: c,
			new: edit(t, edit(t, edit(t, allocated, "request: nic/fast", "request: nic/slow"), "pool: node-1/pf0", "pool: node-1//pf0"), "device: gpu-1}", "device: gpu-1, shareID: not-a-uid}")},
		{name: "status: config source unknown", subresource: "status", old: c,
			new: edit(t, allocated, "    nodeSelector:\n", "      config:\n      - {source: FromPod, opaque: {driver: gpu.example.com, parameters: {a: 1}}}\n    nodeSelector:\n")},
		{name: "status: reserved without allocation", subresource: "status", old: c,
			new: c + "status:\n  reservedFor:\n  - {resource: pods, name: trainer-0, uid: 6c3b1f7e-2a9d-4e8b-9f1a-0b2c3d4e5f60}\n  - {resource: pods, name: trainer-1, uid: 6c3b1f7e-2a9d-4e8b-9f1a-0b2c3d4e5f60}\n"},
		{name: "status: allocation cannot be modified", subresource: "status", old: allocated, new: edit(t, allocated, "device: gpu-1}", "device: gpu-7}")},
		{name: "status: device status of an unallocated device", subresource: "status", old: allocated,
			new: allocated + "  devices:\n  - driver: gpu.example.com\n    pool: node-2\n    device: gpu-0\n    networkData: {ips: [10.0.0.1, 10.0.0.1/8, 10.0.0.1/8]}\n"},
		{name: "status: device status of allocated devices", subresource: "status", old: allocated,
			new: allocated + "  devices:\n  - driver: gpu.example.com\n    pool: node-1\n    device: gpu-0\n    data: {health: ok}\n    networkData: {interfaceName: net1, ips: [10.9.8.7/24]}\n"},
	}
}

const sliceNode1 = `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: oracle-node-1-gpus, uid: 2c0e5c1a-0000-4000-8000-000000000044, resourceVersion: "7"}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: h100}
      driverVersion: {version: 550.54.15}
    capacity:
      memory: {value: 80Gi}
  - name: gpu-1
    allowMultipleAllocations: true
    capacity:
      memory:
        value: 80Gi
        requestPolicy:
          default: 10Gi
          validRange: {min: 10Gi, max: 80Gi, step: 10Gi}
    taints:
    - {key: example.com/maintenance, effect: NoSchedule}
`

// rules.md valid.builtin, valid.update: a ResourceSlice's node selection, pool, devices (attributes, capacity
// request policies, taints, counters); driver, pool name and node name are immutable.
func sliceCases(t *testing.T) []workloadCase {
	s := sliceNode1
	return []workloadCase{
		{name: "valid create", new: s},
		{name: "V1 node name and all nodes together", new: edit(t, s, "  nodeName: node-1\n", "  nodeName: node-1\n  allNodes: true\n")},
		{name: "V1 no node selection, pool count zero", new: edit(t, edit(t, s, "  nodeName: node-1\n", ""), "resourceSliceCount: 1", "resourceSliceCount: 0")},
		{name: "V1 attribute with two values and a bad version", new: edit(t, edit(t, s, "model: {string: h100}", "model: {string: h100, int: 3}"), "version: 550.54.15", "version: v550"),
			// 1.34-1.36 range over the attributes map (1.37's declarative validation in key order).
			unordered: true},
		{name: "V1 attribute name not a C identifier", new: edit(t, s, "      model: {string: h100}", "      9model: {string: h100}")},
		{name: "V1 request policy without multiple allocations", new: edit(t, s, "    allowMultipleAllocations: true\n", "")},
		{name: "V1 request policy default off the steps", new: edit(t, s, "default: 10Gi", "default: 15Gi")},
		{name: "V1 taint effect unknown", new: edit(t, s, "effect: NoSchedule}", "effect: Evict}")},
		{name: "V1 device names repeated", new: edit(t, s, "  - name: gpu-1\n", "  - name: gpu-0\n")},
		{name: "V1 devices and shared counters together", new: s + "  sharedCounters:\n  - name: gpu-0-counters\n    counters: {memory: {value: 80Gi}}\n"},
		{name: "V1 counter set names repeated and invalid", new: edit(t, s, "  devices:\n", "  sharedCounters:\n  - {name: Set_A, counters: {memory: {value: 1Gi}}}\n  - {name: Set_A}\n  devices:\n")},
		{name: "V2 driver and node name are immutable", old: s, new: edit(t, edit(t, s, "driver: gpu.example.com", "driver: gpu2.example.com"), "nodeName: node-1", "nodeName: node-2")},
		{name: "V2 devices may change", old: s, new: edit(t, s, "value: 80Gi}", "value: 40Gi}")},
	}
}

const taintRuleDrain = `apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: oracle-gpu-maintenance, uid: 2c0e5c1a-0000-4000-8000-000000000045, resourceVersion: "7"}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-1, device: gpu-0}
  taint: {key: example.com/maintenance, value: firmware, effect: NoExecute}
`

// rules.md valid.builtin, valid.update: a DeviceTaintRule's selector and taint; its status conditions (/status).
func taintRuleCases(t *testing.T) []workloadCase {
	r := taintRuleDrain
	return []workloadCase{
		{name: "valid create", new: r},
		{name: "V1 selector names invalid", new: edit(t, r, "{driver: gpu.example.com, pool: node-1, device: gpu-0}", "{driver: GPU_Driver, pool: 'a//b', device: gpu.0}")},
		{name: "V1 taint key missing and effect unknown", new: edit(t, r, "{key: example.com/maintenance, value: firmware, effect: NoExecute}", "{value: 'bad value!', effect: Evict}")},
		{name: "V1 taint effect missing", new: edit(t, r, ", effect: NoExecute}", "}")},
		{name: "V2 taint may change", old: r, new: edit(t, r, "effect: NoExecute", "effect: NoSchedule")},
		{name: "status: conditions", subresource: "status", old: r,
			new: r + "status:\n  conditions:\n  - {type: EvictionInProgress, status: \"True\", reason: Evicting, message: x, lastTransitionTime: \"2026-12-03T09:00:00Z\"}\n"},
		{name: "status: condition invalid", subresource: "status", old: r,
			new: r + "status:\n  conditions:\n  - {type: EvictionInProgress, status: Maybe, reason: '1bad', message: x, lastTransitionTime: \"2026-12-03T09:00:00Z\"}\n"},
	}
}
