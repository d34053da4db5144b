package merge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/ssa-diff/ssa-diff/schema"
	smd "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// versionConverter gives structured-merge-diff the object at the apiVersion another
// manager's entry was recorded at (catalog O10). Kubernetes converts through the internal
// version; offline, the object is re-typed with the other version's schema, which is exact
// when the versions share a structure (the common case) and approximate otherwise — a
// warning says so. Versions without a schema are missing, and their entries are dropped, as
// the server drops entries at versions it no longer serves.
type versionConverter struct {
	schemas *schema.Registry
	kind    schema.GVK
	warn    func(string)
}

var errMissingVersion = errors.New("no such version")

func (c *versionConverter) Convert(obj *typed.TypedValue, version smd.APIVersion) (*typed.TypedValue, error) {
	target := schema.GVKFromAPIVersionKind(string(version), c.kind.Kind)
	if target == c.kind {
		return obj, nil
	}
	t, ok := c.schemas.Lookup(target)
	if !ok {
		c.warn(fmt.Sprintf("managedFields entries recorded at %s are dropped: that version of %s is not served (as the server drops them)", version, c.kind.Kind))
		// The input comes back with the error, as the server's converter returns it:
		// structured-merge-diff goes on with what Convert returned.
		return obj, fmt.Errorf("%w: %s", errMissingVersion, target)
	}
	raw := obj.AsValue().Unstructured()
	u, ok := raw.(map[string]interface{})
	if !ok {
		// The server cannot turn a value that is not an object into a Kubernetes object
		// to convert: an error that fails the request, not a missing version.
		return obj, fmt.Errorf("failed to convert value to unstructured for type %T", raw)
	}
	u = copyObject(u)
	u["apiVersion"] = string(version)
	tv, err := parseSorted(t.Parseable, u, typed.AllowDuplicates)
	if err != nil {
		c.warn(fmt.Sprintf("managedFields entries recorded at %s are dropped: the object does not convert to that version offline (%v)", version, err))
		return obj, fmt.Errorf("%w: %v", errMissingVersion, err)
	}
	c.warn(fmt.Sprintf("managedFields entries recorded at %s were compared after converting the object from %s by structure; the server converts through the internal version, so ownership of renamed fields may differ", version, c.kind.APIVersion()))
	return tv, nil
}

func (c *versionConverter) IsMissingVersionError(err error) bool {
	return errors.Is(err, errMissingVersion)
}

// normalizedInput is obj when its numbers are already what Kubernetes' JSON decoding makes
// them (what decoders of this module give), a normalized copy otherwise. The engine never
// changes its inputs (FuzzEngine checks it), so it need not copy them.
func normalizedInput(obj map[string]interface{}) map[string]interface{} {
	if obj == nil || isNormalized(obj) {
		return obj
	}
	return normalizeObject(obj)
}

func isNormalized(v interface{}) bool {
	switch t := v.(type) {
	case map[string]interface{}:
		for _, x := range t {
			if !isNormalized(x) {
				return false
			}
		}
	case []interface{}:
		for _, x := range t {
			if !isNormalized(x) {
				return false
			}
		}
	case float64:
		return !(t == math.Trunc(t) && math.Abs(t) < 1<<53)
	case string, bool, int64, nil, json.RawMessage:
	default:
		return false
	}
	return true
}

// normalizeObject makes numbers what Kubernetes' JSON decoding makes them: integers as
// int64, other numbers as float64. It returns a copy.
func normalizeObject(obj map[string]interface{}) map[string]interface{} {
	if obj == nil {
		return nil
	}
	return normalizeValue(obj).(map[string]interface{})
}

func normalizeValue(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		c := make(map[string]interface{}, len(t))
		for k, x := range t {
			c[k] = normalizeValue(x)
		}
		return c
	case []interface{}:
		c := make([]interface{}, len(t))
		for i, x := range t {
			c[i] = normalizeValue(x)
		}
		return c
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
		return t
	case float32:
		return normalizeValue(float64(t))
	case int:
		return int64(t)
	case int32:
		return int64(t)
	case uint64:
		return int64(t)
	default:
		return v
	}
}
