// Package admission is the part of kube-apiserver's default admission chain that changes
// or refuses a write of a built-in object by what the object itself says: the mutating
// plugins that run after field management has built the object and before the registry's
// rules and validation (k8s.io/kubernetes plugin/pkg/admission).
//
// # The model
//
// kube-apiserver (1.34 to 1.37 alike) enables a fixed set of admission plugins unless its
// --enable-admission-plugins or --disable-admission-plugins flags say otherwise. Four of
// them fill in fields of a create from the object alone, and their changes are stored
// without an owner in managedFields (the field manager has already run):
//
//   - Priority: a Pod gets spec.priority and spec.preemptionPolicy from its
//     priorityClassName — the built-in system-node-critical and system-cluster-critical
//     classes, or, with no class named, the cluster's global default class (none on a
//     bare server: priority 0, PreemptLowerPriority). A priority or policy in the body
//     that differs is refused (403); an update keeps the stored values;
//   - DefaultTolerationSeconds: a Pod created without a toleration of the
//     node.kubernetes.io/not-ready and node.kubernetes.io/unreachable NoExecute taints
//     gets one for each, for 300 seconds;
//   - StorageObjectInUseProtection: a PersistentVolumeClaim or PersistentVolume created
//     gets the kubernetes.io/pvc-protection or kubernetes.io/pv-protection finalizer;
//   - TaintNodesByCondition: a Node created gets the node.kubernetes.io/not-ready
//     NoSchedule taint.
//
// Subresource writes pass untouched. What depends on objects the prediction cannot see
// is not invented: the priority of a Pod naming another PriorityClass is that class's
// ([Assigned] lists it). Not modelled: DefaultStorageClass and DefaultIngressClass (a
// PersistentVolumeClaim's or Ingress's class, when the cluster has a default one),
// LimitRanger and ResourceQuota (objects of the namespace), NamespaceLifecycle, RuntimeClass,
// the admission webhooks and policies, and the ServiceAccount plugin (a Pod's service
// account and its token volume, which kube-apiserver enables and the recording server
// runs without).
package admission
