// Package blame answers "who owns this field, and since when?" for a live object: it walks
// the object together with the field sets of its metadata.managedFields entries and tags
// every line of the object's YAML with the managers that own it, like kubectl-blame.
//
// The walk needs no schema: a field set (fieldsV1) names list items by their keys
// ("k:{\"name\":\"app\"}"), their value ("v:\"x\"") or their position ("i:3"), and each of
// those is matched against the live items. An empty set under a field means the field is
// owned as a whole — a leaf, or an atomic map or list, whose every line is then owned. "."
// marks a map or list item owned as a node, besides its fields.
package blame
