// Package networking is the validation of the networking.k8s.io kinds (Ingress,
// IngressClass, NetworkPolicy, IPAddress, ServiceCIDR) as the registry of kube-apiserver 1.32 to 1.38
// runs it: each kind's strategy (Strategy), the group's validators over the internal types
// of package internal/api/networking, the declarative rules each minor enforces for the group
// (beta required and immutable fields) and the strategies' warnings.
//
// The rules keep the server's tolerance for what is already stored: an update may keep an
// invalid TLS secret name, an invalid rule under a wildcard host, a pod selector with an
// invalid label value or an invalid CIDR that the stored object already had. Messages and
// the values they print are the server's, byte for byte (rules.md valid.builtin, valid.update, valid.metadata).
package networking
