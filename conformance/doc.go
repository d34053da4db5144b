// Package conformance measures ssa-diff against Kubernetes itself.
//
// A recorded case (the layout of testdata/recorded, see its README) is a live object, one
// request and exactly what a real kube-apiserver answered. [LoadCase] reads one, [Replay]
// sends its request through the engine (the apply and update verbs, the status and scale
// subresources, the raw API or the kubectl applier) and [Compare] checks the prediction
// against the recording with the recording's own rules: managedFields exactly (times of
// changed entries are the case's "now"), the object exactly except values only the server
// assigns (and, unless strict, server defaults nobody owns), refusals byte for byte with the
// causes of a 409 compared as a multiset.
//
// The differential test against the server's own field manager lives in a separate module
// (conformance/differential) so that the product never links it.
package conformance
