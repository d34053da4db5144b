// Package clusterstate is what a cluster holds that kube-apiserver's admission chain reads
// beside the object a write is about, and who sends the write.
//
// # The model
//
// A write the server admits depends on more than its object. NamespaceLifecycle refuses a
// create into a namespace that does not exist or is being deleted; PodSecurity reads the
// namespace's pod-security.kubernetes.io labels; LimitRanger fills container resources
// from the namespace's LimitRanges; ResourceQuota counts against its quotas; a claim
// without a class gets the default StorageClass, an Ingress the default IngressClass;
// RuntimeClass adds the class's overhead and scheduling; ServiceAccount gives a Pod its
// account and token volume; ValidatingAdmissionPolicies and MutatingAdmissionPolicies
// decide through their bindings, param objects and the namespace's labels. A [State] holds
// those objects as the cluster stores them (a dump of `kubectl get … -o json`, files, or a
// read of the cluster), indexed by group, kind, namespace and name.
//
// What a State does not hold is not invented: a kind of which it holds no object is
// unknown ([State.Knows] is false), and the plugins that would read it say that their part
// of the answer is not predicted, rather than assuming an empty cluster. A State is
// immutable once made ([New]) and safe for concurrent use.
//
// A [User] is who sends the writes (kubectl's --as and --as-group): the policies'
// request.userInfo and the subject of their authorizer checks. [Authorization] answers those
// checks from what is declared; a check nothing declares has no known answer.
package clusterstate
