package validation_test

import "testing"

// A benchmark per kind of the networking, rbac, storage, scheduling, node, discovery and
// coordination groups: a create of the scenarios' base object, and an update over itself.

func BenchmarkValidateIngress(b *testing.B)            { benchmarkWrite(b, ingressWeb) }
func BenchmarkValidateIngressClass(b *testing.B)       { benchmarkWrite(b, ingressClassNginx) }
func BenchmarkValidateNetworkPolicy(b *testing.B)      { benchmarkWrite(b, networkPolicyAPI) }
func BenchmarkValidateIPAddress(b *testing.B)          { benchmarkWrite(b, ipAddressDNS) }
func BenchmarkValidateServiceCIDR(b *testing.B)        { benchmarkWrite(b, serviceCIDRExtra) }
func BenchmarkValidateRole(b *testing.B)               { benchmarkWrite(b, roleDeployer) }
func BenchmarkValidateClusterRole(b *testing.B)        { benchmarkWrite(b, clusterRoleMonitoring) }
func BenchmarkValidateRoleBinding(b *testing.B)        { benchmarkWrite(b, roleBindingDeployers) }
func BenchmarkValidateClusterRoleBinding(b *testing.B) { benchmarkWrite(b, clusterRoleBindingAdmins) }
func BenchmarkValidateStorageClass(b *testing.B)       { benchmarkWrite(b, storageClassGP3) }
func BenchmarkValidateCSIDriver(b *testing.B)          { benchmarkWrite(b, csiDriverEBS) }
func BenchmarkValidateCSINode(b *testing.B)            { benchmarkWrite(b, csiNodeWorker) }
func BenchmarkValidateVolumeAttachment(b *testing.B)   { benchmarkWrite(b, volumeAttachmentData) }
func BenchmarkValidateCSIStorageCapacity(b *testing.B) { benchmarkWrite(b, csiStorageCapacityZoneA) }
func BenchmarkValidateVolumeAttributesClass(b *testing.B) {
	benchmarkWrite(b, volumeAttributesClassGold)
}
func BenchmarkValidatePriorityClass(b *testing.B) { benchmarkWrite(b, priorityClassHigh) }
func BenchmarkValidateRuntimeClass(b *testing.B)  { benchmarkWrite(b, runtimeClassKata) }
func BenchmarkValidateEndpointSlice(b *testing.B) { benchmarkWrite(b, endpointSliceWeb) }
func BenchmarkValidateLease(b *testing.B)         { benchmarkWrite(b, leaseController) }
