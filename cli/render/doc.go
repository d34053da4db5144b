// Package render turns what a GitOps repository holds into the objects an applier sends,
// the way the applier renders them, and remembers where a person wrote each object and
// each of its fields.
//
// # Kustomize
//
// [Kustomize] builds a kustomization as `kubectl apply -k` does: with
// sigs.k8s.io/kustomize/api at the version kubectl 1.37 embeds (v0.21.1), kubectl's
// options (resources in kustomize's legacy order, files loaded from the kustomization's
// root only, no plugins, no Helm). The objects are the ones kubectl would send, byte for
// byte.
//
// Each object is attributed to the file it came from: the build runs with kustomize's
// origin annotations (config.kubernetes.io/origin, the buildMetadata option
// originAnnotations) switched on, whether or not the kustomization asks for them, and
// removes them afterwards unless it does. An object read from a resource file is reported
// at that file and at the document that holds it; an object a generator made
// (configMapGenerator, secretGenerator) at the generator's entry in its kustomization.
//
// A field is reported where its value was written: in the last patch that sets it
// (patches, patchesStrategicMerge, patchesJson6902, in files or inline in the
// kustomization, of the kustomization that holds the object's file and of every one above
// it), else in the resource file, at the field or the closest enclosing field it has. A
// patch is taken to apply to an object when its target, or the patch's own kind and name,
// names the object as written in its resource file or as built (name prefixes and suffixes
// included); kustomize's own matching decides what is built, this only finds lines.
//
// # Hostile input
//
// A kustomization may name remote bases and URLs (git repositories, http resources),
// which kustomize would fetch: a pull request must not make the gate fetch what it names,
// so every path a kustomization names is checked before the build, and one that is not a
// local file or directory is an error that says how to render it instead (kubectl
// kustomize, piped to standard input). The files the build reads count toward the
// loader's input limit, and the build never writes.
package render
