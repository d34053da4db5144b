// Package discovery is the validation of the discovery.k8s.io kinds (EndpointSlice) as
// the registry of kube-apiserver 1.32 to 1.38 runs it: the address type (immutable: rules.md valid.update), ports
// (unique names, protocols, application protocols), endpoints (addresses of the slice's
// type, node names, host names, topology hints), with the beta declarative rules each minor
// enforces and the warnings on deprecated FQDN slices and non-canonical addresses.
//
// An update that leaves the endpoints as they were keeps them even when they break
// today's rules (older servers accepted them).
package discovery
