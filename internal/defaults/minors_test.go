package defaults

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

func releaseFor(t *testing.T, minor int) Release {
	t.Helper()
	r, ok := For(kube.Minor(minor))
	if !ok {
		t.Fatalf("no release of 1.%d", minor)
	}
	if r.Minor() != kube.Minor(minor) {
		t.Fatalf("For(1.%d).Minor() = %s", minor, r.Minor())
	}
	return r
}

func object(t *testing.T, text string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatal(err)
	}
	return unstructured.CopyAsDecoded(v)
}

// TestReleases: one table per minor of kube.Minors, of the release kube/releases.txt
// names; none for the zero Minor.
func TestReleases(t *testing.T) {
	var got, want []string
	for _, m := range kube.Minors() {
		got = append(got, releaseFor(t, int(m)).Kubernetes())
		want = append(want, m.Release())
	}
	if !slices.Equal(got, want) {
		t.Errorf("releases %v, want %v (make generate)", got, want)
	}
	if r, ok := For(0); ok {
		t.Errorf("For(the zero Minor) = %s", r.Kubernetes())
	}
	before := kube.Minors()[0] - 1
	if _, ok := For(before); ok {
		t.Errorf("For(%s), older than the oldest listed, found a release", before)
	}
}

// TestKnownPerMinor: a kind is known at the minors whose release serves its group-version.
func TestKnownPerMinor(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		since            int
	}{
		{"certificates.k8s.io/v1", "ClusterTrustBundle", 37},
		{"certificates.k8s.io/v1", "PodCertificateRequest", 37},
		{"storagemigration.k8s.io/v1", "StorageVersionMigration", 37},
		{"resource.k8s.io/v1", "DeviceTaintRule", 37},
		{"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicy", 36},
		{"apps/v1", "Deployment", 34},
	} {
		for m := 34; m <= 37; m++ {
			if got := releaseFor(t, m).Known(tc.apiVersion, tc.kind); got != (m >= tc.since) {
				t.Errorf("1.%d: newest().Known(%s %s) = %v, want from 1.%d", m, tc.apiVersion, tc.kind, got, tc.since)
			}
		}
	}
}

// TestEncodingPerMinor: the JSON tags of each release decide what its server returns.
func TestEncodingPerMinor(t *testing.T) {
	// resource.k8s.io/v1 ResourceSliceSpec.devices gains omitempty in 1.35: before, a slice
	// without devices comes back with "devices": null.
	for m := 34; m <= 37; m++ {
		obj := object(t, `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"driver":"d","pool":{"name":"p","generation":1,"resourceSliceCount":1},"allNodes":true,"devices":[]}}`)
		if err := releaseFor(t, m).Normalize("resource.k8s.io/v1", "ResourceSlice", obj); err != nil {
			t.Fatal(err)
		}
		_, has := unstructured.Object(obj, "spec")["devices"]
		if has != (m == 34) {
			t.Errorf("1.%d: spec.devices present %v in %v", m, has, obj["spec"])
		}
	}
	// apps/v1 ControllerRevision.data has omitempty before 1.37, which encoding/json ignores
	// on a struct: every minor returns "data": null.
	for m := 34; m <= 37; m++ {
		obj := object(t, `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r"},"revision":1}`)
		if err := releaseFor(t, m).Normalize("apps/v1", "ControllerRevision", obj); err != nil {
			t.Fatal(err)
		}
		if v, has := obj["data"]; !has || v != nil {
			t.Errorf("1.%d: data %v (present %v), want null", m, v, has)
		}
	}
	// A field a release does not have is dropped by decoding: core/v1
	// NodeSystemInfo.runningInUserNamespace is new in 1.37.
	for m := 36; m <= 37; m++ {
		obj := object(t, `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{"nodeInfo":{"runningInUserNamespace":true}}}`)
		if err := releaseFor(t, m).Normalize("v1", "Node", obj); err != nil {
			t.Fatal(err)
		}
		_, has := unstructured.NestedObject(obj, "status", "nodeInfo")["runningInUserNamespace"]
		if has != (m == 37) {
			t.Errorf("1.%d: runningInUserNamespace kept %v", m, has)
		}
	}
}

// TestGatesPerMinor: the defaulters consult the feature gates at the defaults of the minor
// defaulted (generated from each release's k8s.io/kubernetes pkg/features).
func TestGatesPerMinor(t *testing.T) {
	want := map[int]featureGates{
		34: {imageVolume: false, maxUnavailableStatefulSet: false, seLinuxMountReadWriteOncePod: true, volumeLimitScaling: false},
		35: {imageVolume: true, maxUnavailableStatefulSet: false, seLinuxMountReadWriteOncePod: true, volumeLimitScaling: false},
		36: {imageVolume: true, maxUnavailableStatefulSet: false, seLinuxMountReadWriteOncePod: true, volumeLimitScaling: false},
		37: {imageVolume: true, maxUnavailableStatefulSet: true, seLinuxMountReadWriteOncePod: true, volumeLimitScaling: true},
	}
	for m, w := range want {
		if got := releaseFor(t, m).r.gates; got != w {
			t.Errorf("1.%d: gates %+v, want %+v", m, got, w)
		}
	}
	// MaxUnavailableStatefulSet: on from 1.37, where a StatefulSet's rolling update gets
	// maxUnavailable: 1.
	for m := 36; m <= 37; m++ {
		obj := object(t, `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s"},"spec":{"selector":{},"template":{}}}`)
		if err := releaseFor(t, m).Default("apps/v1", "StatefulSet", obj); err != nil {
			t.Fatal(err)
		}
		_, has := unstructured.NestedObject(obj, "spec", "updateStrategy", "rollingUpdate")["maxUnavailable"]
		if has != (m == 37) {
			t.Errorf("1.%d: rollingUpdate.maxUnavailable defaulted %v", m, has)
		}
	}
	// ImageVolume: on from 1.35, where an image volume's pullPolicy is defaulted.
	for m := 34; m <= 35; m++ {
		obj := object(t, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}],"volumes":[{"name":"v","image":{"reference":"busybox:1"}}]}}`)
		if err := releaseFor(t, m).Default("v1", "Pod", obj); err != nil {
			t.Fatal(err)
		}
		vol := unstructured.Objects(unstructured.Object(obj, "spec"), "volumes")[0]
		_, has := unstructured.Object(vol, "image")["pullPolicy"]
		if has != (m == 35) {
			t.Errorf("1.%d: image volume pullPolicy defaulted %v", m, has)
		}
	}
}

// newest is the release of the newest minor, which the package's tests of one minor use.
func newest() Release { return MustFor(kube.Default()) }
