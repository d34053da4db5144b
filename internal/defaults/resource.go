package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// Defaulters of resource.k8s.io/v1 (k8s.io/kubernetes pkg/apis/resource/v1).
// SetDefaults_DeviceTaint stamps timeAdded with the current time: that value
// is assigned by the server (see Assigned), not defaulted here.

var resourceDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.resource.v1.ExactDeviceRequest", defaultDeviceRequest},
	{"io.k8s.api.resource.v1.DeviceSubRequest", defaultDeviceRequest},
}

// defaultDeviceRequest follows SetDefaults_ExactDeviceRequest and SetDefaults_DeviceSubRequest.
func defaultDeviceRequest(m map[string]any) {
	setIfUnset(m, "allocationMode", "ExactCount")
	if unstructured.Str(m, "allocationMode") == "ExactCount" && unset(m, "count") {
		m["count"] = int64(1)
	}
}
