// Package input reads Kubernetes objects the way kubectl does and remembers where each one
// came from.
//
// # What is read
//
// A path is a file, a directory (read recursively: files ending in .yaml, .yml or .json, in
// lexical order) or "-" for standard input. A file is a stream of documents: YAML documents
// separated by lines that start with "---", or — when the first character is '{' or '[' — a
// stream of JSON values. YAML is read as YAML 1.1 through sigs.k8s.io/yaml, like kubectl, so
// an unquoted yes, on or y is a boolean. Numbers become int64 when they are integers and
// float64 otherwise, as Kubernetes' own JSON decoding makes them.
//
// A document whose kind ends in "List" and that carries an items array (the output of
// `kubectl get -o json`) is read as its items.
//
// # Where things are
//
// Every [Object] carries a [Source]: the file, the 0-based index of the document in the file,
// for List items the index of the item, and the 1-based line where the object starts.
// [Object.Line] finds the line of any field of the object from a JSON Pointer; positions
// are indexed lazily, the first time a line is asked for, so reading thousands of objects
// stays cheap. Bad input is reported as an [*Error] that names the file, document, line and
// field path; one bad document never hides the others.
//
// # Matching
//
// [Match] pairs manifests with live objects by group, kind, namespace and name (the version
// does not count: the server converts). Whether a kind is namespaced comes from the caller
// (a schema registry); namespaced objects without a namespace get the default namespace.
// When exactly one manifest and one live object are given and they do not match, they are
// paired anyway: the user meant them for each other, and the server's answer to that request
// (say, a kind that does not match the URL) is what the user wants to see.
package input
