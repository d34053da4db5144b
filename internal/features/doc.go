// Package features is kube-apiserver's feature gates per supported minor: which gates a
// release has, and which are on by default there, as generated from each release's own
// versioned gate tables (k8s.io/kubernetes pkg/features, k8s.io/apiserver and
// k8s.io/apiextensions-apiserver pkg/features) by ./gen (`make generate`).
//
// A gate's default at a minor is the last of its versioned specs introduced at or before
// that minor, as the server's feature gate reads it for its own version. A [Set] is the
// gates of one server: [Defaults] gives a minor's, and the ports of the server's code
// (defaulting, registry strategies, validation) ask it where the server asks its global
// feature gate. The table is data the linker lays out; nothing is computed at start-up.
package features
