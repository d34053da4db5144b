// Package storage is the validation of the storage.k8s.io kinds (StorageClass, CSIDriver,
// CSINode, VolumeAttachment, CSIStorageCapacity, VolumeAttributesClass) as the registry of kube-apiserver
// 1.32 to 1.38 runs it: each kind's strategy (Strategy), the group's validators over the
// internal types of package internal/api/storage, the declarative rules each minor enforces (beta:
// a StorageClass's provisioner, parameters, reclaim policy and binding mode are immutable,
// a VolumeAttachment's spec too, and its attacher is a driver name) and the strategies'
// warnings.
//
// When a beta declarative rule covers a handwritten one, the server reports the
// declarative error, after the others: an immutable field is then printed as
// "Invalid value: null: field is immutable" (rules.md valid.builtin, valid.update).
package storage
