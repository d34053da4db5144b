// Package apiregistration is the validation of the aggregator's APIService
// (apiregistration.k8s.io) as the aggregator registry of kube-apiserver 1.32 to 1.38 runs it (Strategy):
// the name must be the service's version and group joined by a dot, the group a DNS
// subdomain (empty only for the legacy v1), the version a DNS label, both priorities in
// range, and a local service (no spec.service) neither a CA bundle nor
// insecureSkipTLSVerify; a remote one needs its service's namespace, name and a valid port.
// Writes of /status check the conditions' statuses.
//
// The aggregator validates object metadata through apimachinery's declarative wrapper
// (imperative checks and ObjectMeta's declarative rules joined); the strategy itself runs
// no declarative validation. Messages are the server's, byte for byte; rules cited are
// docs/rules.md's valid.builtin, valid.update and valid.metadata.
package apiregistration
