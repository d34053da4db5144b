// Package defaults predicts what kube-apiserver (1.34 to 1.37) does to a built-in
// object between field management and storage, apart from the registry's
// rules (package internal/strategy): the decode → default → encode round trip.
//
// # The model
//
// After server-side apply merges the configuration into the live object, the
// server decodes the unstructured result into the kind's Go struct
// (k8s.io/api), runs the generated defaulters of its group-version, converts
// it to the internal version and back, stores it as protobuf and returns the
// JSON encoding of the struct read back (defaulted once more). Each step
// changes the object in ways field management never sees:
//
//   - decoding: unknown fields vanish, null becomes the Go zero value (a null
//     value in a string map becomes "", a null struct becomes {});
//   - defaulting: SetDefaults_<Type> functions and `+default=` markers fill
//     in imagePullPolicy, protocol: TCP, strategy, …, also after an atomic
//     struct was replaced or a defaulted field was pruned (rules.md prune.defaults-return);
//   - conversion: a Secret's stringData lands in data, a StatefulSet's
//     volumeClaimTemplates gain apiVersion and kind, a DaemonSet carries its
//     template generation annotation;
//   - encoding: omitempty zero values disappear, struct fields that are not
//     pointers appear as {}, empty lists without omitempty come back null
//     (protobuf keeps no empty collections), quantities are canonical
//     ("0.5" → "500m").
//
// Default does all of that to a map[string]any in place; Normalize does
// only the decode/encode part. Default's first decode/encode pass reads the
// caller's maps and lists without changing them and builds the object anew (only
// obj's own top level is rewritten); the defaulters then change that new tree,
// and the last pass rewrites it in place (roundTripInPlace), since nobody else
// holds it. DefaultOwned, for an object only the caller holds (a copy it made), runs
// the first pass in place too: no second tree at all. Both work from generated encoding facts
// (zz_generated_types.go: every Go type's JSON fields with omitempty and
// omitzero, pointer/slice/map structure, and the types with their own JSON
// form), written by the generator in ./gen from the k8s.io/api types, so the
// round trip is generic and exact. The tables are records without pointers (a string
// is its position in generatedStrings, a struct's fields a run of generatedFields, a
// release's kinds a run of generatedKinds): data the runtime builds no pointer mask of
// at start-up and the collector never scans. The defaulters are hand-ported, one file
// per API group, each naming the upstream function it follows; they run in
// the order defaulter-gen's generated code runs them (a struct's own
// defaulter, then each field in declaration order), and only for the
// group-versions whose generated defaulters include them (apps, batch and
// storage run the core defaulters for pod templates; node.k8s.io runs none).
//
// Each Kubernetes minor is a Release (For, Latest; the package's functions are
// Latest's): the Go types of its release (generated per release, a type that is the
// same in several releases stored once) and the defaults of its feature gates that
// the defaulters consult (featureGates, generated from each release's
// k8s.io/kubernetes pkg/features; a defaulter that consults one is a
// gatedDefaulterFunc). The hand-written defaulters are those of 1.37; where an older
// minor's defaulting differs beyond its types and gates, the port is the
// defaulter's, next to the rule. Only group-versions served by default are known
// (every GA version the release has, plus apiextensions.k8s.io/v1 and
// apiregistration.k8s.io/v1); Known tells.
//
// Proof: conformance/defaulting compares Default with the real defaulting,
// conversion and protobuf round trip of k8s.io/kubernetes v1.37.2 on random
// objects of every known kind; the tests here check every object the
// recorded server returned is a fixed point of Default.
//
// Regenerate the table with `go run .` in ./gen (its own module; go.mod pins the newest
// release, go.1.<minor>.mod each older one).
package defaults
