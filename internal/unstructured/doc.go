// Package unstructured reads and compares decoded JSON values — the maps, slices, strings,
// booleans, numbers and nils that Kubernetes objects are made of once decoded — without
// reflection. It is the one home of the field accessors and equality variants the engine,
// its rules and the printers share.
//
// Accessors ([Str], [Object], [EnsureObject], [List], [Objects], [NestedObject], [Nested],
// [Int]) read one field and answer the zero value when it is absent, null or of another
// type; they never panic.
//
// The equality variants differ in what they treat as equal:
//
//   - [Equal]: as reflect.DeepEqual (int64 1 and float64 1 differ, an empty list is not a
//     missing one) — did a write change the stored object.
//   - [EqualIgnoringManagedFields]: Equal, metadata.managedFields aside — is a later request
//     of a client's sequence about the same object.
//   - [EqualNilAsEmpty]: a missing or null object or list equals an empty one, as
//     apimachinery's semantic equality answers for decoded objects (Flux's drift check).
//   - [EqualJSON]: equal JSON encodings (numbers of any Go type, json.RawMessage text).
//   - [Same]: one map, not merely equal ones.
//
// Objects are compared on every request (did the write change anything, did the spec
// change), and reflection costs several times a type switch.
package unstructured
