// Package kube names the Kubernetes minors ssa-diff predicts. A [Minor] is one minor release
// of kube-apiserver, 1.<Minor>, whose schemas, served versions, defaulting, registry rules,
// validation, feature gates and field-manager rules a prediction follows. Patch releases of
// a minor answer writes alike (they fix bugs, they add no API), so a Minor names the minor
// only; [ParseMinor] reads what users and servers write ("1.35", "v1.35.4", a /version
// gitVersion such as "v1.35.4-gke.100").
//
// [Minors] is the one list of the minors predicted, oldest first, read from releases.txt,
// which names each minor's patch release ([Minor.Release]): the release the embedded tables
// are generated from and recorded cases are recorded against. The generators read the same
// file; a table that lacks one of the minors listed fails its package's tests, and a model
// asked for it refuses to be built. docs/minors.md says how to add a minor.
//
// Nothing in the library picks a minor for its caller: the zero Minor is no minor at all
// (not supported, refused wherever a model is built). Code that behaves differently across
// minors asks m.AtLeast(36) next to the rule, with a comment naming the release that
// changed it.
//
// The package is a leaf: it imports nothing of ssa-diff.
package kube
