// Package smpmeta is the strategic-merge-patch metadata of the built-in kinds: what a
// client that computes a strategic merge patch (Helm's client-side upgrade, kubectl's
// client-side apply) and the server that applies one both read from k8s.io/api's Go types —
// for each field, its patch strategies (merge, replace, retainKeys) and, for a list
// merged by key, its merge key.
//
// The model. Upstream, the metadata comes from reflection on the Go structs (apimachinery's
// strategicpatch.PatchMetaFromStruct): a field is looked up by its JSON name (exactly, else
// case-insensitively), a map-valued or list-valued field that the struct does not have is
// an error, and the struct tags patchStrategy and patchMergeKey say how to merge it.
// ssa-diff links no Go types of k8s.io/api: the structure comes from the schema registry's
// structured-merge-diff types (which are generated from the same structs, field for
// field), and the tags from a table generated from k8s.io/api (gen/, zz_generated.go).
// [For] answers strategicpatch.LookupPatchMeta over both, so that apimachinery's own
// strategicpatch package computes and applies patches exactly as the client and the
// server do.
//
// Which kinds get a strategic merge patch at all is the client's choice: Helm sends one to
// the kinds its Go scheme knows (client-go's, and apiextensions.k8s.io), and a JSON merge
// patch to every other kind ([Native]).
package smpmeta
