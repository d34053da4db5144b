package merge

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
)

// Defaulted is obj, an object of kind gvk, as the server decodes and defaults a body it
// receives (server.Defaulter's Default), on a copy: obj is not changed. It reports false
// when the registry has no type for gvk or the server could not decode obj.
func (e *Engine) Defaulted(gvk schema.GVK, obj map[string]any) (map[string]any, bool) {
	t := e.resolve(gvk).known
	if t == nil || obj == nil {
		return nil, false
	}
	c := unstructured.DeepCopyObject(obj)
	// The copy is this call's alone: the model may rewrite it in place.
	if err := e.model.DefaultOwned(t, c); err != nil {
		return nil, false
	}
	return c, true
}

// CreateAddsToDefaults reports whether a create of an object of kind gvk may store, outside
// status and the metadata only the server writes (uid, resourceVersion, generation,
// creationTimestamp, managedFields, deletion fields) and the object's name and namespace,
// a value Defaulted does not give the object sent (the fields the create drops aside), or
// have values assigned there: what the model says (a model that cannot say, and a kind the
// registry has no type for, may).
func (e *Engine) CreateAddsToDefaults(gvk schema.GVK) bool {
	t := e.resolve(gvk).known
	m, ok := e.model.(interface{ CreateAddsToDefaults(*schema.Type) bool })
	return t == nil || !ok || m.CreateAddsToDefaults(t)
}
