// Package discovery is the validation of the discovery.k8s.io kinds (EndpointSlice) as
// kube-apiserver 1.37's registry runs it: the address type (immutable: rules.md valid.update), ports
// (unique names, protocols, application protocols), endpoints (addresses of the slice's
// type, node names, host names, topology hints), with the beta declarative rules 1.37
// enforces and the warnings on deprecated FQDN slices and non-canonical addresses.
//
// An update that leaves the endpoints as they were keeps them even when they break
// today's rules (older servers accepted them).
package discovery
