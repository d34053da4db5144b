// Package fieldpath is the vocabulary of field ownership: who owns which fields of an
// object, as Kubernetes records it in metadata.managedFields.
//
// # The model
//
// Every write to an object is made by a manager. The API server records, per manager, the
// set of fields that manager last wrote, as one ManagedFieldsEntry. An entry is identified by
// its manager name, its operation (Apply or Update), its subresource and — for Update entries
// only — the apiVersion it was written through. So one name can own fields several times: a
// controller that both applies and updates has two entries, and an updater that writes through
// apps/v1 and apps/v1beta2 has two more. Identity is the compact JSON of those fields
// (see [ManagerKey]); it never contains the time.
//
// The field set of an entry (fieldsV1) is a trie of path elements:
//
//	f:<name>           a field of a struct or a key of a map
//	k:<json object>    an item of a list keyed by the object's fields
//	v:<json value>     an item of a set (a list keyed by its own value)
//	i:<index>          an item of an atomic list addressed by position (rare)
//	.                  the node itself is owned, not only its children
//
// [Managed] is the decoded form: the structured-merge-diff field sets keyed by identity, plus
// the time of each entry. [Decode] reads it from the API's entries and enforces the server's
// validity rules; [Managed.Encode] writes it back in the server's order (Apply entries first,
// then by time, manager, apiVersion and subresource), byte for byte as the server would.
//
// Decoded objects hold entries as lists of maps ([EntriesOf], [EntriesToUnstructured]); a
// reader that keeps many of them may hold each fieldsV1 as JSON text instead, which every
// function here reads as it reads the tree.
//
// # The bytes of fieldsV1
//
// One field set has several texts, and which one a user sees depends on the kind's
// storage ([Order]) and the server's release ([Text]). A built-in kind is stored typed: its
// fieldsV1 are the bytes structured-merge-diff wrote ([SetToFieldsV1As]), keys in element
// order (f: before k:, v:, i:; numbers by value: port 9 before 80 before 443), and the
// server's JSON answers print them as encoding/json prints a json.RawMessage. A custom
// resource is stored as JSON maps: its answers print the keys in byte order (443 before
// 80), the canonical form, which is also what kubectl's -o json prints for every kind
// ([EntriesToUnstructuredText] makes any text canonical).
// [SetToFieldsV1Text] writes either in one pass from the set; [Managed.EncodeTextAs]
// encodes every entry so. YAML answers sort the keys again (yaml.v2's order) whatever the
// kind.
//
// Paths print as the server prints them in conflict messages ([PathString]) —
// .spec.containers[name="app"].ports[containerPort=80,protocol="TCP"] — or as JSON Pointers
// for tools that want them ([JSONPointer]).
package fieldpath
