package strategy

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
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
				err = UpdateStatus(serverconfig.MustFor(kube.Default()), apiVersion, kind, o, old)
			} else {
				err = Update(serverconfig.MustFor(kube.Default()), apiVersion, kind, o, old)
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
		if err := Create(serverconfig.MustFor(kube.Default()), apiVersion, kind, o); err != nil {
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
	if err := UpdateStatus(serverconfig.MustFor(kube.Default()), "resource.k8s.io/v1", "ResourceClaim", obj, old); err != nil {
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

// TestOffFeaturesPerMinor: the drop tables follow the server's gates, minor by minor; a
// stored object that uses an off feature keeps it, except the allocated resources' health
// statuses, which 1.34 and 1.35 drop from every /status write (pkg/api/pod/util.go
// dropDisabledPodStatusFields, v1.35.4 against v1.36.3:1060).
func TestOffFeaturesPerMinor(t *testing.T) {
	minor := func(m int) *serverconfig.Config { return serverconfig.MustFor(kube.Minor(m)) }
	pod := func() map[string]any {
		return yamlObject(t, `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  hostnameOverride: h
  initContainers:
  - {name: sidecar, image: i, restartPolicy: Always, restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [1]}}]}
  - {name: once, image: i, restartPolicy: Never}
  containers:
  - name: c
    image: i
    restartPolicy: Never
    env: [{name: A, valueFrom: {fileKeyRef: {volumeName: v, path: p, key: k}}}]
    volumeMounts: [{name: img, mountPath: /img}, {name: v, mountPath: /v}]
  volumes:
  - {name: img, image: {reference: r}}
  - {name: v, emptyDir: {}}
  - name: pr
    projected: {sources: [{clusterTrustBundle: {signerName: example.com/s, path: b}}, {podCertificate: {signerName: example.com/s, keyType: ED25519, credentialBundlePath: c}}]}
`)
	}
	dropped134 := `{"containers":[{"env":[{"name":"A","valueFrom":{}}],"image":"i","name":"c","volumeMounts":[{"mountPath":"/v","name":"v"}]}],` +
		`"initContainers":[{"image":"i","name":"sidecar","restartPolicy":"Always"},{"image":"i","name":"once"}],` +
		`"volumes":[{"emptyDir":{},"name":"v"},{"name":"pr","projected":{"sources":[{},{}]}}]}`
	kept135 := `{"containers":[{"env":[{"name":"A","valueFrom":{"fileKeyRef":{"key":"k","path":"p","volumeName":"v"}}}],"image":"i","name":"c","restartPolicy":"Never","volumeMounts":[{"mountPath":"/img","name":"img"},{"mountPath":"/v","name":"v"}]}],` +
		`"hostnameOverride":"h","initContainers":[{"image":"i","name":"sidecar","restartPolicy":"Always","restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[1]}}]},{"image":"i","name":"once","restartPolicy":"Never"}],` +
		`"volumes":[{"image":{"reference":"r"},"name":"img"},{"emptyDir":{},"name":"v"},{"name":"pr","projected":{"sources":[{},{}]}}]}`
	for m, want := range map[int]string{34: dropped134, 35: kept135, 36: kept135} {
		obj := pod()
		dropOffFeatures(minor(m), "/Pod", obj, nil)
		if got := string(jsonText(t, obj["spec"])); got != want {
			t.Errorf("1.%d create:\n got: %s\nwant: %s", m, got, want)
		}
		// An update of a pod that uses every feature keeps them.
		obj, old := pod(), pod()
		dropOffFeatures(minor(m), "/Pod", obj, old)
		if !reflect.DeepEqual(obj, pod()) {
			t.Errorf("1.%d update of a pod using the features: %s", m, jsonText(t, obj["spec"]))
		}
	}
	obj := pod()
	dropOffFeatures(minor(37), "/Pod", obj, nil)
	if !reflect.DeepEqual(obj, pod()) {
		t.Errorf("1.37 create: %s", jsonText(t, obj["spec"]))
	}

	status := func() map[string]any {
		return yamlObject(t, `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
status:
  resources: {requests: {cpu: "1"}}
  extendedResourceClaimStatus: {resourceClaimName: x, requestMappings: [{containerName: c, resourceName: example.com/gpu, requestName: r}]}
  containerStatuses:
  - name: c
    allocatedResourcesStatus: [{name: "claim:a", resources: [{resourceID: r, health: Healthy, message: m}]}]
`)
	}
	for _, c := range []struct {
		minor  int
		stored bool
		want   string // the status's keys and the container status, as kept
	}{
		{35, false, `{"containerStatuses":[{"name":"c"}]}`},
		{35, true, `{"containerStatuses":[{"name":"c"}],"extendedResourceClaimStatus":{"requestMappings":[{"containerName":"c","requestName":"r","resourceName":"example.com/gpu"}],"resourceClaimName":"x"},"resources":{"requests":{"cpu":"1"}}}`},
		{36, false, `{"containerStatuses":[{"allocatedResourcesStatus":[{"name":"claim:a","resources":[{"health":"Healthy","message":"m","resourceID":"r"}]}],"name":"c"}],"extendedResourceClaimStatus":{"requestMappings":[{"containerName":"c","requestName":"r","resourceName":"example.com/gpu"}],"resourceClaimName":"x"},"resources":{"requests":{"cpu":"1"}}}`},
	} {
		var old map[string]any
		if c.stored {
			old = status()
		}
		obj := status()
		dropOffStatusFeatures(minor(c.minor), "/Pod", obj, old)
		if got := string(jsonText(t, obj["status"])); got != c.want {
			t.Errorf("1.%d /status (stored: %v):\n got: %s\nwant: %s", c.minor, c.stored, got, c.want)
		}
	}
	// With ResourceHealthStatus off, 1.36 keeps what the stored status has; 1.35 did not.
	off := minor(36)
	off.Gates = off.Gates.With(features.ResourceHealthStatus, false)
	obj, old := status(), status()
	dropOffStatusFeatures(off, "/Pod", obj, old)
	if unstructured.Nested(obj, "status", "containerStatuses") == nil || unstructured.Objects(obj["status"].(map[string]any), "containerStatuses")[0]["allocatedResourcesStatus"] == nil {
		t.Errorf("1.36 with ResourceHealthStatus off dropped a stored health status: %s", jsonText(t, obj["status"]))
	}

	// A Node's declared features go with a write of the Node in 1.35, not from 1.36.
	node := func() map[string]any {
		return yamlObject(t, `{apiVersion: v1, kind: Node, metadata: {name: n}, status: {declaredFeatures: [A]}}`)
	}
	for m, kept := range map[int]bool{35: false, 36: true} {
		obj := node()
		dropOffFeatures(minor(m), "/Node", obj, nil)
		if got := unstructured.Nested(obj, "status", "declaredFeatures") != nil; got != kept {
			t.Errorf("1.%d: declared features kept %v, want %v", m, got, kept)
		}
	}
}

func jsonText(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
