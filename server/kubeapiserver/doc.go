// Package kubeapiserver is the model of kube-apiserver at one Kubernetes minor: what the
// server does to a write around field management, for the engine (package merge) to
// predict an apply exactly as the real server answers it. It is the package an embedder
// imports first, beside package merge:
//
//	reg := schema.MustNewRegistry(minor)
//	model := kubeapiserver.MustNew(kubeapiserver.Config{Minor: minor})
//	engine := merge.New(reg, model)
//
// # The model
//
// A [Model] implements server.Model, the contract the engine asks through, for the cluster
// a [Config] describes: the minor its kube-apiserver runs (no default: every minor is
// named, one of kube.Minors) and the flags of it that change what a write stores or
// whether it is refused (--allow-privileged, the service IP ranges' families, the
// admission plugins that fill in a write). For each write it answers, at that minor:
//
//   - decoding and defaulting of the built-in kinds, and their conversion between served
//     versions through the kind's internal version (the hub);
//   - the registry's rules (the strategies: what a create and an update prepare, which
//     fields a subresource resets, what the server assigns) and the admission plugins run
//     by default;
//   - validation of the built-in kinds, and of custom resources and CRDs as
//     apiextensions-apiserver validates them (structural schema, CEL rules, ratcheting).
//
// The rules live in the ports under internal/ (defaults, conversion, strategy, validation,
// crdvalidation), each restating the Kubernetes source of its minor; only this package
// reaches them (a fence in internal/testkit holds it). What the packages above the model
// ask of those rules without predicting a write — whether a refusal rests on the cluster's
// flags, which versions convert exactly, an object's round trip through its Go type — is
// asked here too (refusals.go).
//
// A Model is immutable and safe for concurrent use; [New] refuses a minor ssa-diff does
// not predict, and a minor listed without its generated tables fails loudly.
package kubeapiserver
