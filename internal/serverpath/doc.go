// Package serverpath reads the syntax in which the API server prints field paths — in
// conflict messages, validation causes and warnings — and which ssa-diff prints back:
//
//	.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"].hostPort
//	.spec.finalizers[="kubernetes"]   .spec.args[3]   .metadata.labels[app]
//
// The model: a path is a sequence of [Element]s. A field element is '.' and a name that
// runs to the next '.' or '['; a selector element is '[' … ']' (brackets inside quoted
// strings do not count), holding an index, a set item's value (="v"), keyed item's keys
// (k1=v1,k2="v2": strings quoted as Go quotes them, other values as JSON), or — as
// validation prints map keys — a bare key.
// [Parse] and [String] are inverses: String(Parse(p)) is p for every p Parse accepts
// (FuzzRoundTrip holds them to it); [ParseItem] reads what a selector holds.
//
// The syntax is ambiguous where names hold dots (.metadata.labels.app.kubernetes.io/name):
// Parse splits at every dot, and a reader that knows the object or the schema joins
// consecutive field elements back into one name (see internal/input's field lines).
// The printer of paths from their structured form is structured-merge-diff's
// Path.String, which package fieldpath exposes as PathString.
package serverpath
