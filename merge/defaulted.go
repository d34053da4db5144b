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
