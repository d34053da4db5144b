package validation_test

import "testing"

const storageClassGP3 = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: oracle-gp3, uid: 2c0e5c1a-0000-4000-8000-000000000021, resourceVersion: "7"}
provisioner: ebs.csi.aws.com
parameters: {type: gp3, encrypted: "true"}
reclaimPolicy: Delete
volumeBindingMode: WaitForFirstConsumer
allowVolumeExpansion: true
allowedTopologies:
- matchLabelExpressions:
  - key: topology.ebs.csi.aws.com/zone
    values: [us-east-1a]
`

const csiDriverEBS = `apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: oracle.csi.example.com, uid: 2c0e5c1a-0000-4000-8000-000000000022, resourceVersion: "7"}
spec:
  attachRequired: true
  podInfoOnMount: false
  fsGroupPolicy: File
  tokenRequests: [{audience: vault, expirationSeconds: 3600}]
  serviceAccountTokenInSecrets: true
`

const csiNodeWorker = `apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: oracle-worker-1, uid: 2c0e5c1a-0000-4000-8000-000000000023, resourceVersion: "7"}
spec:
  drivers:
  - name: ebs.csi.aws.com
    nodeID: i-0123456789abcdef0
    topologyKeys: [topology.ebs.csi.aws.com/zone]
    allocatable: {count: 25}
`

const volumeAttachmentData = `apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: oracle-csi-3f2a9c0b, uid: 2c0e5c1a-0000-4000-8000-000000000024, resourceVersion: "7"}
spec:
  attacher: ebs.csi.aws.com
  nodeName: worker-1
  source: {persistentVolumeName: pvc-0b9f2c1e}
`

const csiStorageCapacityZoneA = `apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: csisc-zone-a, namespace: storage, uid: 2c0e5c1a-0000-4000-8000-000000000025, resourceVersion: "7"}
storageClassName: fast
capacity: 100Gi
nodeTopology:
  matchLabels: {topology.kubernetes.io/zone: zone-a}
`

const volumeAttributesClassGold = `apiVersion: storage.k8s.io/v1
kind: VolumeAttributesClass
metadata: {name: oracle-gold, uid: 2c0e5c1a-0000-4000-8000-000000000026, resourceVersion: "7"}
driverName: ebs.csi.aws.com
parameters: {iops: "8000"}
`

// rules.md valid.builtin, valid.update: a StorageClass's provisioner, parameters, reclaim policy, binding mode
// and topologies; the first four are immutable.
func storageClassCases(t *testing.T) []workloadCase {
	sc := storageClassGP3
	return []workloadCase{
		{name: "valid create", new: sc},
		{name: "V1 provisioner not a qualified name", new: edit(t, sc, "provisioner: ebs.csi.aws.com", "provisioner: EBS_CSI/aws/com")},
		{name: "V1 provisioner missing", new: edit(t, sc, "provisioner: ebs.csi.aws.com\n", "")},
		{name: "V1 reclaim policy Recycle", new: edit(t, sc, "reclaimPolicy: Delete", "reclaimPolicy: Recycle")},
		{name: "V1 binding mode unknown", new: edit(t, sc, "volumeBindingMode: WaitForFirstConsumer", "volumeBindingMode: Later")},
		{name: "V1 empty parameter key", new: edit(t, sc, "{type: gp3,", `{"": x, type: gp3,`)},
		{name: "V1 topology key repeated and values missing", new: edit(t, sc, "    values: [us-east-1a]\n", "    values: [us-east-1a]\n  - key: topology.ebs.csi.aws.com/zone\n")},
		{name: "V1 topology terms repeated", new: sc + "- matchLabelExpressions:\n  - key: topology.ebs.csi.aws.com/zone\n    values: [us-east-1a]\n"},
		{name: "V1 topology term without expressions", new: sc + "- matchLabelExpressions: []\n"},
		{name: "V2 provisioner is immutable", old: sc, new: edit(t, sc, "provisioner: ebs.csi.aws.com", "provisioner: pd.csi.storage.gke.io")},
		{name: "V2 parameters, reclaim policy and binding mode are immutable", old: sc,
			new: edit(t, edit(t, edit(t, sc, "type: gp3", "type: io2"), "reclaimPolicy: Delete", "reclaimPolicy: Retain"), "volumeBindingMode: WaitForFirstConsumer", "volumeBindingMode: Immediate")},
		{name: "V2 expansion and topologies may change", old: sc, new: edit(t, edit(t, sc, "allowVolumeExpansion: true", "allowVolumeExpansion: false"), "us-east-1a", "us-east-1b")},
	}
}

// rules.md valid.builtin, valid.update: a CSIDriver's spec; attachRequired and lifecycle modes are immutable.
func csiDriverCases(t *testing.T) []workloadCase {
	d := csiDriverEBS
	return []workloadCase{
		{name: "valid create", new: d},
		{name: "V1 fsGroupPolicy unknown", new: edit(t, d, "fsGroupPolicy: File", "fsGroupPolicy: Always")},
		{name: "V1 token audiences repeated and expiration short", new: edit(t, d, "tokenRequests: [{audience: vault, expirationSeconds: 3600}]", "tokenRequests: [{audience: vault, expirationSeconds: 60}, {audience: vault}]")},
		{name: "V1 token expiration above 2^32 seconds", new: edit(t, d, "expirationSeconds: 3600", "expirationSeconds: 4294967297")},
		{name: "V1 secrets flag without token requests", new: edit(t, d, "  tokenRequests: [{audience: vault, expirationSeconds: 3600}]\n", "")},
		{name: "V1 lifecycle mode unknown", new: d + "  volumeLifecycleModes: [Persistent, Shared]\n"},
		{name: "V1 allocatable update period too short", new: d + "  nodeAllocatableUpdatePeriodSeconds: 5\n"},
		{name: "V6 name not a DNS subdomain", new: edit(t, d, "name: oracle.csi.example.com", "name: Oracle_CSI")},
		{name: "V2 attachRequired is immutable", old: d, new: edit(t, d, "attachRequired: true", "attachRequired: false")},
		{name: "V2 lifecycle modes are immutable", old: d, new: d + "  volumeLifecycleModes: [Persistent, Ephemeral]\n"},
	}
}

// rules.md valid.builtin, valid.update: a CSINode's drivers; a driver that stays keeps its node ID and keys.
func csiNodeCases(t *testing.T) []workloadCase {
	n := csiNodeWorker
	return []workloadCase{
		{name: "valid create", new: n},
		{name: "V1 driver repeated, node ID missing, negative count", new: n + "  - name: ebs.csi.aws.com\n    allocatable: {count: -1}\n"},
		{name: "V1 topology keys repeated and invalid", new: edit(t, n, "topologyKeys: [topology.ebs.csi.aws.com/zone]", "topologyKeys: [zone, zone, 'bad key']")},
		{name: "V1 node ID too long", new: edit(t, n, "nodeID: i-0123456789abcdef0", "nodeID: "+longName(257))},
		{name: "V1 driver name too long", new: edit(t, n, "name: ebs.csi.aws.com", "name: "+longName(64))},
		{name: "V2 node ID is immutable", old: n, new: edit(t, n, "nodeID: i-0123456789abcdef0", "nodeID: i-0fedcba9876543210")},
		{name: "V2 allocatable count may change", old: n, new: edit(t, n, "count: 25", "count: 30")},
	}
}

// rules.md valid.builtin, valid.update: a VolumeAttachment's attacher, source and node; its spec is immutable.
func volumeAttachmentCases(t *testing.T) []workloadCase {
	va := volumeAttachmentData
	return []workloadCase{
		{name: "valid create", new: va},
		{name: "V1 attacher not a driver name", new: edit(t, va, "attacher: ebs.csi.aws.com", "attacher: EBS_CSI")},
		{name: "V1 attacher too long", new: edit(t, va, "attacher: ebs.csi.aws.com", "attacher: "+longName(64))},
		{name: "V1 attacher missing", new: edit(t, va, "  attacher: ebs.csi.aws.com\n", "")},
		{name: "V1 no source", new: edit(t, va, "source: {persistentVolumeName: pvc-0b9f2c1e}", "source: {}")},
		{name: "V1 PV name invalid", new: edit(t, va, "persistentVolumeName: pvc-0b9f2c1e", "persistentVolumeName: PVC_1")},
		{name: "V1 inline spec without CSI", new: edit(t, va, "source: {persistentVolumeName: pvc-0b9f2c1e}", "source: {inlineVolumeSpec: {accessModes: [ReadWriteOnce], hostPath: {path: /data}}}")},
		{name: "V1 node name invalid", new: edit(t, va, "nodeName: worker-1", "nodeName: Worker_1")},
		{name: "V2 spec is immutable", old: va, new: edit(t, va, "nodeName: worker-1", "nodeName: worker-2")},
		{name: "status: negative error code", subresource: "status", old: va,
			new: va + "status:\n  attached: false\n  attachError: {message: failed, errorCode: -1}\n"},
		{name: "status: attached", subresource: "status", old: va,
			new: va + "status:\n  attached: true\n  attachmentMetadata: {devicePath: /dev/xvdba}\n"},
	}
}

// rules.md valid.builtin, valid.update: a CSIStorageCapacity's topology and class (immutable) and capacity.
func csiStorageCapacityCases(t *testing.T) []workloadCase {
	c := csiStorageCapacityZoneA
	return []workloadCase{
		{name: "valid create", new: c},
		{name: "V1 negative capacity", new: edit(t, c, "capacity: 100Gi", "capacity: -1Gi")},
		{name: "V1 class name invalid", new: edit(t, c, "storageClassName: fast", "storageClassName: Fast_SSD")},
		{name: "V1 topology selector invalid", new: edit(t, c, "matchLabels: {topology.kubernetes.io/zone: zone-a}", "matchExpressions: [{key: zone, operator: In}]")},
		{name: "V2 topology and class are immutable", old: c, new: edit(t, edit(t, c, "zone-a}", "zone-b}"), "storageClassName: fast", "storageClassName: slow")},
		{name: "V2 capacity may change", old: c, new: edit(t, c, "capacity: 100Gi", "capacity: 80Gi")},
	}
}

// rules.md valid.builtin, valid.update: a VolumeAttributesClass's driver and parameters (both immutable).
func volumeAttributesClassCases(t *testing.T) []workloadCase {
	v := volumeAttributesClassGold
	return []workloadCase{
		{name: "valid create", new: v},
		{name: "V1 no parameters", new: edit(t, v, `parameters: {iops: "8000"}`, "parameters: {}")},
		{name: "V1 driver missing", new: edit(t, v, "driverName: ebs.csi.aws.com\n", "")},
		{name: "V2 driver and parameters are immutable", old: v, new: edit(t, edit(t, v, "driverName: ebs.csi.aws.com", "driverName: pd.csi.storage.gke.io"), `"8000"`, `"9000"`)},
	}
}
