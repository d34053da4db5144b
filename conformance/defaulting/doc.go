// Package defaulting is the differential test of merge/defaults against the
// real defaulting code of k8s.io/kubernetes v1.37.2.
//
// It lives in its own module because linking kube-apiserver's API machinery
// (k8s.io/kubernetes with replace directives for its staging modules) must
// never reach the product's module. For every built-in kind that
// merge/defaults knows, it fills Go objects with random but plausible values,
// runs them through the server's own steps (scheme defaulting, conversion to
// the internal version and back, the protobuf storage round trip, defaulting
// again on read) and through defaults.Default on their JSON, and requires the
// two results to be equal.
//
// TestGenerationMatchesKubeAPIServer does the same for the registry rule that
// moves metadata.generation: for every kind whose strategy moves it, random
// stored objects are updated with new objects that differ by a label only, by
// the units of their quantities, by empty lists and maps, or entirely; the
// generation the server's own strategy (pkg/registry/**/strategy.go, and the
// CustomResourceDefinition strategy of apiextensions-apiserver) gives must be
// the one merge/strategy predicts.
package defaulting
