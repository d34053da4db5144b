package crdvalidation

import (
	"errors"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Ours is ssa-diff's validation of one CRD version's custom resources, through the
// engine's server hooks.
type Ours struct {
	t *schema.Type
}

// linkedMinor is the minor of the apiextensions-apiserver this module links (go.mod): ours
// answers at it, not at the newest listed (a pre-release may be listed ahead of it).
const linkedMinor = kube.Minor(37)

// NewOurs loads crd as ssa-diff loads a CRD and finds the type of version.
func NewOurs(crd map[string]any, version string) (*Ours, error) {
	r := schema.MustNewRegistry(linkedMinor)
	if err := r.AddCRDObject("generated", runtime.DeepCopyJSON(crd)); err != nil {
		return nil, err
	}
	spec := crd["spec"].(map[string]any)
	names := spec["names"].(map[string]any)
	t, ok := r.Lookup(schema.GVK{Group: spec["group"].(string), Version: version, Kind: names["kind"].(string)})
	if !ok {
		return nil, errors.New("no type for the CRD version")
	}
	return &Ours{t: t}, nil
}

// Validate is ssa-diff's answer for the same write.
func (o *Ours) Validate(subresource string, obj, old map[string]any) (errs field.ErrorList, warnings []string, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	var oldCopy map[string]any
	if old != nil {
		oldCopy = runtime.DeepCopyJSON(old)
	}
	v := model().Validate(o.t, subresource, runtime.DeepCopyJSON(obj), oldCopy)
	return v.Errors, v.Warnings, nil
}
