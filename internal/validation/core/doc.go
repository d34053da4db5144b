// Package core is the validation of the core group's kinds (ConfigMap, Secret, Service,
// the pod template …) as kube-apiserver 1.37's registry runs it: each kind's strategy
// (Strategy), the group's validators over the internal types of package internal/api/core,
// and the declarative validation 1.37 enforces for the group. Error messages and the values
// they print are the server's, byte for byte; rule ids in tests refer to SEMANTICS.md (V1,
// V2, V6).
//
// A kind's files are named after it (service.go, secret.go, node.go …). A strategy
// validates the object its PrepareForCreate/PrepareForUpdate left; the engine applies those
// rules to the object it predicts (package merge/strategy), so the validators here only
// read. A Service is the exception that shows the line: its REST storage, before the
// strategy, keeps clusterIP and clusterIPs in step, defaults the IP family policy, checks
// the cluster-IP fields on their own (a 422 with those errors alone) and allocates node
// ports and a health-check port (service_storage.go, run by
// internal/validation.ValidateWrite). What depends on the cluster — the service CIDR, the
// IP families it serves, the node-port range, ports other Services hold — is not predicted.
//
// An events.k8s.io/v1 Event is the core group's internal Event: EventsStrategy validates it
// with the strict rules of that version, and the server names it "Event" in its message.
package core
