// Package admission is kube-apiserver's admission chain as it changes or refuses a write,
// fed by what the cluster holds (a clusterstate.State): the plugins compiled into the
// server, ported, and the admission that runs through Kubernetes' own libraries, asked of
// a helper program (package wire).
//
// # The model
//
// kube-apiserver (1.34 to 1.37 alike) runs a fixed set of admission plugins unless its
// flags say otherwise, in a fixed order, in two phases: the mutating phase between field
// management and the registry's rules, the validating phase after the registry's
// validation. The first refusal ends a write; what the mutating plugins add is stored
// without an owner in managedFields (the field manager has already run). [Chain] runs,
// in the server's order:
//
//   - NamespaceLifecycle: a create into a namespace the state does not hold (404) or one
//     being deleted (403);
//   - LimitRanger: a Pod's containers get the namespace's LimitRange defaults, and
//     containers, Pods and claims must be within their bounds;
//   - ServiceAccount: a Pod gets its account and the account's token as a projected
//     volume, whose random name is a stand-in ([TokenVolumeStandIn]);
//   - TaintNodesByCondition, Priority (the cluster's PriorityClasses, or the system ones),
//     DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection,
//     RuntimeClass (overhead, node selector, tolerations), DefaultIngressClass;
//   - MutatingAdmissionPolicy in the mutating phase; PodSecurity and
//     ValidatingAdmissionPolicy in the validating phase — through the library (package
//     internal/admission/library, run by the helper program cmd/ssa-diff-admission),
//     started on the first write that needs it, only when the state holds a policy
//     binding or a namespace labelled for Pod Security;
//   - ResourceQuota, last: a write counted by a quota of its namespace (a create of any
//     resource, a Pod's compute resources, a Service's load balancer and node ports, a
//     claim's storage) is refused when it would take the usage the quota's status says
//     above its hard limits, or when the quota's status has no usage yet.
//
// What the state does not hold is not invented: a plugin that reads a kind the state holds
// no object of assumes nothing and says so where it matters (Result warnings: a Pod's
// ServiceAccount taken to exist, a RuntimeClass not known; a quota with scopes, or one
// limiting hugepages or extended resources). Each write is counted against the usage its
// quotas' status says, as read (what changes between the read and the write cannot be
// known): a second write of the run counted by the same quota says so. Without a state the chain is the
// recording server's: a bare cluster, ServiceAccount off.
package admission
