package strategy

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"sigs.k8s.io/yaml"
)

func yamlObject(t *testing.T, s string) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return testkit.DecodeJSON(t, j).(map[string]any)
}

// A field of a feature off in 1.37 is dropped by a write unless the stored object already
// uses the feature (stored before the feature went off: such objects cannot be recorded
// from a 1.37 server with its default gates; conformance/testdata/fidelity/*-off-gates-*
// and *-dropped record the drops). Rules.md write.paths.1: the strategy runs after field management.
func TestOffFeaturesKeptWhenInUse(t *testing.T) {
	slice := func() map[string]any {
		return yamlObject(t, `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s, generation: 1}
spec:
  driver: d.example.com
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  partitionTypeAttribute: d.example.com/profile
  devices:
  - name: a
    attributes:
      model: {string: x1, strings: [x1, y1]}
`)
	}
	claim := func() map[string]any {
		return yamlObject(t, `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: r
      exactly: {deviceClassName: c, derivedAttributes: [{name: d.example.com/a}]}
status:
  allocation:
    devices:
      results:
      - {request: r, driver: d.example.com, pool: p, device: a, skipNodeOperations: ["*"]}
`)
	}
	pod := func() map[string]any {
		return yamlObject(t, `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers:
  - name: c
    image: i
    readinessProbe: {grpc: {port: 1, mode: TLS}}
status:
  volumeHealth: [{name: v}]
  containerStatuses:
  - name: c
    volumeMounts: [{name: v, mountPath: /v, volumeStatus: {image: {imageRef: r}}}]
`)
	}
	node := func() map[string]any {
		return yamlObject(t, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus:\n  config: {error: boom}\n")
	}
	pvc := func() map[string]any {
		return yamlObject(t, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: d, namespace: ns}\nstatus:\n  healthStatus: {healthConditions: [{status: Healthy, reason: Ok}]}\n")
	}
	csiNode := func() map[string]any {
		return yamlObject(t, "apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: node-1}\nstatus:\n  storageHealth: [{name: disk}]\n")
	}
	without := func(build func() map[string]any, paths ...[]string) func() map[string]any {
		return func() map[string]any {
			o := build()
			for _, p := range paths {
				dropAt(o, p)
			}
			return o
		}
	}
	for _, tc := range []struct {
		name       string
		build      func() map[string]any
		storedSans func() map[string]any // the stored object without the feature's fields
		status     bool
		at         []string
	}{
		{"ResourceSlice list attributes (a map's values)", slice, without(slice, []string{"spec", "devices", "*", "attributes", "*", "strings"}), false,
			[]string{"spec", "devices", "*", "attributes", "*", "strings"}},
		{"ResourceSlice partitionTypeAttribute", slice, without(slice, []string{"spec", "partitionTypeAttribute"}), false,
			[]string{"spec", "partitionTypeAttribute"}},
		{"ResourceClaim derivedAttributes", claim, without(claim, []string{"spec", "devices", "requests", "*", "exactly", "derivedAttributes"}), false,
			[]string{"spec", "devices", "requests", "*", "exactly", "derivedAttributes"}},
		{"ResourceClaim status skipNodeOperations", claim, without(claim, []string{"status", "allocation", "devices", "results", "*", "skipNodeOperations"}), true,
			[]string{"status", "allocation", "devices", "results", "*", "skipNodeOperations"}},
		{"Pod probe grpc mode", pod, without(pod, []string{"spec", "containers", "*", "readinessProbe", "grpc", "mode"}), false,
			[]string{"spec", "containers", "*", "readinessProbe", "grpc", "mode"}},
		{"Pod status volumeStatus", pod, without(pod, []string{"status", "containerStatuses", "*", "volumeMounts", "*", "volumeStatus"}), true,
			[]string{"status", "containerStatuses", "*", "volumeMounts", "*", "volumeStatus"}},
		{"Pod status volumeHealth", pod, without(pod, []string{"status", "volumeHealth"}), true,
			[]string{"status", "volumeHealth"}},
		{"Node status config", node, without(node, []string{"status", "config"}), true, []string{"status", "config"}},
		{"PersistentVolumeClaim status healthStatus", pvc, without(pvc, []string{"status", "healthStatus"}), true, []string{"status", "healthStatus"}},
		{"CSINode status storageHealth", csiNode, without(csiNode, []string{"status", "storageHealth"}), true, []string{"status", "storageHealth"}},
	} {
		for _, storedHas := range []bool{false, true} {
			old := tc.storedSans()
			if storedHas {
				old = tc.build()
			}
			o := tc.build()
			apiVersion, kind := unstructured.Str(o, "apiVersion"), unstructured.Str(o, "kind")
			var err error
			if tc.status {
				err = UpdateStatus(serverconfig.Latest(), apiVersion, kind, o, old)
			} else {
				err = Update(serverconfig.Latest(), apiVersion, kind, o, old)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := holdsAt(o, tc.at); got != storedHas {
				t.Errorf("%s, stored object uses it %v: kept %v, want %v", tc.name, storedHas, got, storedHas)
			}
		}
	}
	// On create nothing is in use: everything goes.
	for _, build := range []func() map[string]any{slice, claim, pod} {
		o := build()
		apiVersion, kind := unstructured.Str(o, "apiVersion"), unstructured.Str(o, "kind")
		if err := Create(serverconfig.Latest(), apiVersion, kind, o); err != nil {
			t.Fatal(err)
		}
		for _, p := range [][]string{{"spec", "partitionTypeAttribute"}, {"spec", "devices", "*", "attributes", "*", "strings"},
			{"spec", "devices", "requests", "*", "exactly", "derivedAttributes"}, {"spec", "containers", "*", "readinessProbe", "grpc", "mode"}} {
			if holdsAt(o, p) {
				t.Errorf("%s: create kept %v", kind, p)
			}
		}
	}
}

// A /status write keeps the status of the devices still allocated, and of those the stored
// allocation never had; a shared device is told apart by its share (rules.md sub.reset-fields).
func TestDeallocatedDeviceStatusDropped(t *testing.T) {
	old := yamlObject(t, `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
status:
  allocation:
    devices:
      results:
      - {request: r, driver: d.example.com, pool: p, device: gpu-0}
      - {request: r, driver: d.example.com, pool: p, device: gpu-1, shareID: s-1}
`)
	obj := yamlObject(t, `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
status:
  allocation:
    devices:
      results:
      - {request: r, driver: d.example.com, pool: p, device: gpu-0}
  devices:
  - {driver: d.example.com, pool: p, device: gpu-0}
  - {driver: d.example.com, pool: p, device: gpu-1, shareID: s-1}
  - {driver: d.example.com, pool: p, device: gpu-1, shareID: s-2}
  - {driver: d.example.com, pool: p, device: gpu-2}
`)
	if err := UpdateStatus(serverconfig.Latest(), "resource.k8s.io/v1", "ResourceClaim", obj, old); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range unstructured.Objects(unstructured.Object(obj, "status"), "devices") {
		got = append(got, unstructured.Str(d, "device")+"/"+unstructured.Str(d, "shareID"))
	}
	if want := []string{"gpu-0/", "gpu-1/s-2", "gpu-2/"}; !reflect.DeepEqual(got, want) {
		t.Errorf("devices %v, want %v", got, want)
	}
}
