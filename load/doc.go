// Package load reads the inputs of a prediction — manifests and live objects — as the
// command does, and pairs each manifest with the live object it applies to, so that a Go
// program embedding the engine (package merge) need not decode YAML itself.
//
// # The model
//
// An [Object] is one Kubernetes object as decoded JSON (map[string]any: maps, slices,
// strings, bools, int64, float64 and nil — what merge.Request takes), with the place it was
// read from ([Source]: file, document, List item, line). [Files] reads paths the way kubectl
// reads -f: a file is a stream of YAML documents or JSON values, a directory is read
// recursively (its .yaml, .yml and .json files in lexical order), Lists — the output of
// `kubectl get -o json` — stand for their items. [Bytes] reads one stream held in memory.
// Input is bounded (128 MiB in all, nesting and aliases limited), and bad input is an
// error naming the file, document, line and field; the objects that could be read are
// returned beside it.
//
// [Match] pairs manifests with live objects by group, kind, namespace and name, as the
// server would address the apply: a namespaced kind whose manifest names no namespace goes
// to the namespace given, which kinds are namespaced is read from a schema.Registry (custom
// resources included once their CRDs are added). A [Pair] whose Live is nil creates its
// object.
package load
