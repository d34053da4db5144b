// Package input reads Kubernetes objects the way kubectl does and remembers where each one
// came from. Its input is untrusted (ssa-diff runs on pull requests) and often pasted from a
// terminal, so it never crashes, never hangs, and bounds every resource it uses.
//
// # What is read
//
// A path is a file, a directory (read recursively: files ending in .yaml, .yml or .json, in
// lexical order) or "-" for standard input. A file is a stream of documents: YAML documents
// separated by lines that start with "---", or — when the first character is '{' or '[' — a
// stream of JSON values. YAML is read as YAML 1.1 through sigs.k8s.io/yaml, like kubectl, so
// an unquoted yes, on or y is a boolean. A document written in block style, as manifests
// are, is converted to JSON from its lines, to the bytes that parse gives, without running
// it; any shape that converter is not sure of (flow mappings, anchors, tags, multi-line
// scalars, duplicate keys, …) takes the parse. Numbers become int64 when they are integers and
// float64 otherwise, as Kubernetes' own JSON decoding makes them. A UTF-8 byte-order mark is
// skipped and UTF-16 with a byte-order mark (what Windows PowerShell's > writes) is decoded,
// as kubectl's YAML reader does; CRLF line ends are fine. Of duplicate keys the last value
// is used, as kubectl and the API server use it, with a warning naming the line; keys that
// differ in YAML but become the same JSON string (on and "true", 0 and .0) are an error,
// since kubectl's decoder keeps one of them at random.
//
// A document whose kind ends in "List" and that carries an items array (the output of
// `kubectl get -o json`) is read as its items; Lists inside Lists are flattened in kubectl's
// order (breadth first). Empty documents are skipped; a path that holds no document at all
// (an empty file, only "---") is an error, while an empty List is not: it says nothing
// exists.
//
// A JSON List at the top of a stream (and a top-level JSON array) is read item by item,
// since a cluster dump is thousands of objects: the scanner that splits the stream keeps
// each item's bytes apart and hands the item to a pool of GOMAXPROCS goroutines that
// decode items while it reads on; the entries come out in input order, the same whatever
// the pool did. Whether a value is a List is known only at its end (kubectl prints "kind"
// after "items"); a value that turns out not to be one, or that is not valid JSON, is read
// whole as one document, as any other, so its entries and errors are those a whole read
// gives. A List in YAML is one document, read whole (dumps are JSON).
//
// # Rendered objects
//
// Some objects are not read as written but rendered: [Loader.Renderer] claims directories
// (the command builds kustomizations) and stands their objects in their place; with
// [Loader.SourceComments], the documents of standard input that start with Helm's
// `# Source: PATH` comment are attributed to PATH (Via "helm template", lines counted from
// the template's first). A renderer attributes what it read ([Object.Attribute]): the
// Source becomes the file a person edits, and [Object.LocateFieldPath] asks the
// renderer's [FieldLocator] where each field is — possibly in another file.
//
// # Where things are
//
// Every [Object] carries a [Source]: the file, the 0-based index of the document in the file,
// for List items the index of the item, and the 1-based line where the object starts.
// [Object.Line] finds the line of any field of the object from a JSON Pointer; positions
// are indexed lazily, the first time a line is asked for, so reading thousands of objects
// stays cheap (a YAML document written in block style, as manifests are, from its lines;
// any other by parsing it again with a position-keeping parser). Bad input is reported as an [*Error] that names the file, document, line and
// field path; one bad document never hides the others (a JSON stream, which cannot be
// resynchronised, ends at its first value that is not an object or array).
//
// # Objects kept as text
//
// Decoded, an object is a tree of maps that takes three to four times the memory of its
// compact JSON text, and a run that predicts a repository against a cluster dump uses each
// object once, some never. With [Loader.DeferDecoding] an object is kept as that text
// ([Object.Deferred]) and [Object.Decode] makes a new tree each time it is asked; its
// identity ([Object.Meta], [Object.GVK]), whether it has managedFields, and [Match] need
// no tree. Only what needs nothing of the tree while reading is deferred: a valid object,
// identified by plain ASCII strings, that is neither a List nor a
// CustomResourceDefinition; anything else is decoded at once. Checking and compacting a
// List item costs less than decoding it (and compact text decodes faster than indented),
// and a YAML document is converted to compact JSON anyway, so deferring costs no time. One
// pass does the checking and the compacting (jsontext.Compactor): it finds whether the
// item warns (bytes that are not UTF-8, keys set twice; only then is it scanned for the
// warnings' words and lines) and where the values its identity is read past end.
// What is read — trees, errors, warnings, lines, pairs — is the same either way.
//
// # Bounds
//
// A stream is read one document at a time, never whole, and [Limits] bound the rest; each
// bound reached is an [*Error] wrapping a [*LimitError] (and [ErrLimit]) that names the flag
// raising it. The defaults:
//
//	MaxInputBytes     128 MiB   all files and standard input together; reading stops there
//	MaxDocumentBytes   32 MiB   one YAML document or JSON value, or one item of a JSON
//	                            List; a larger one is skipped without being kept (only the
//	                            limit is ever held in memory for it)
//	MaxDepth             1000   nesting of maps and lists, checked before anything recurses
//	                            (the engine, structured-merge-diff, the outputs); at most
//	                            HardMaxDepth, 10000, the decoders' and the API server's limit
//	MaxAliasNodes      100000   nodes YAML aliases add when expanded, counted before the
//	                            decoder expands them ("billion laughs")
//	MaxFiles           100000   entries visited by directory walks
//	MaxObjects          50000   objects read, manifests and live objects together
//
// A JSON List is not one document for MaxDocumentBytes: each of its items is, on its own,
// and so are the List's own fields (apiVersion, kind, metadata) together. An item over the
// limit is an error naming its item index and line, and the other items are read. The
// List as a whole is bounded by MaxInputBytes and its objects by MaxObjects; past the
// document limit a List keeps at most MaxObjects+1 items (the rest are reported as not
// read). A JSON value larger than the document limit that turns out not to be a List, or
// not valid JSON, cannot be read whole: it is one error (the first invalid spot in its
// items, or the document limit); until its end such a value is held up to
// MaxInputBytes, not MaxDocumentBytes.
//
// Directory walks follow symbolic links (the path given too) but read each directory once,
// so links that loop end; unreadable files and dangling links are errors, the walk goes on;
// pipes, devices and sockets met in a walk are reported, not opened (opening one could
// block forever), while a pipe named explicitly (process substitution) is read.
//
// # Matching
//
// [Match] pairs manifests with live objects by group, kind, namespace and name (the version
// does not count: the server converts). Whether a kind is namespaced comes from the caller
// (a schema registry); namespaced objects without a namespace get the default namespace.
// kubectl sends each manifest to its own endpoint, so by default a manifest without a live
// object is a create — unless some live document could not be read ([LiveIncomplete]): its
// live state may be among those, and it is an error instead. When exactly one manifest and
// one live object (not a List item) are given and they do not match, kubectl would apply to
// an object whose live state was not given: an error, except when only the namespace the
// manifest leaves to kubectl's context differs. For raw API requests ([RawRequests]) they
// are paired anyway: the user meant them for each other, and the server's answer to that
// request (say, a kind that does not match the URL) is what the user wants to see.
package input
