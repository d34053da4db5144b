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
// reader that keeps many of them may hold each fieldsV1 as JSON text instead
// ([EntriesToUnstructuredText], a json.RawMessage in canonical form: what encoding/json
// writes for the tree), which every function here
// reads as it reads the tree.
//
// Paths print as the server prints them in conflict messages ([PathString]) —
// .spec.containers[name="app"].ports[containerPort=80,protocol="TCP"] — or as JSON Pointers
// for tools that want them ([JSONPointer]).
package fieldpath
