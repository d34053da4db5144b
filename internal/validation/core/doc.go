// Package core is the validation of the core group's kinds (ConfigMap, Secret, Service,
// the pod template …) as kube-apiserver 1.37's registry runs it: each kind's strategy
// (Strategy), the group's validators over the internal types of package internal/api/core,
// and the declarative validation 1.37 enforces for the group. Error messages and the values
// they print are the server's, byte for byte; rule ids in tests refer to SEMANTICS.md (V1,
// V2, V6).
package core
