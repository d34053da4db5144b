// Package correlate pairs the values of an updated custom resource with the values they
// replace, node by node along the CRD's schema, as the API server does for ratcheting.
//
// Ratcheting (CRDValidationRatcheting, on and locked in Kubernetes 1.33+): an update may keep
// a value that today's schema or rules reject, as long as the update leaves that value
// unchanged. To know what "unchanged" means below the root, a new value is paired with its
// old counterpart: a property with the property of the same name (the old map must have it
// too), a map value with the value of the same key, a list item with the old item of the
// same key when the list is x-kubernetes-list-type: map (the first old item with those key
// values). Items of other lists (atomic, set, untyped) have no counterpart: they are always
// validated as new.
//
// A Node answers Equal — is the new value deeply equal to the old one, where lists of maps
// compare item by correlated item — and caches the answer, because schema validation and
// CEL validation both ask it of the same nodes.
package correlate
