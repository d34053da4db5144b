package merge

import (
	"github.com/ssa-diff/ssa-diff/schema"
)

// kindTypes is what the registry says of the kind a request's endpoint names, asked once per
// request (resolve) and read by every step after: whether the server serves it, its type (or
// the deduced one), the type of its hub version, and the types of its other versions, which
// the reset fields and the conversion of other managers' entries need.
type kindTypes struct {
	gvk schema.GVK
	// known is the registry's type of gvk; nil when it has none.
	known   *schema.Type
	serving schema.Serving
	// typ is known, or the deduced type with warnings saying what that means.
	typ      *schema.Type
	warnings []string
	// hubVersion is the version whose shape is the kind's internal one (server.Converter's
	// Hub), "" when the server's scheme does not convert the kind; hub is its type when it
	// is not gvk's own version.
	hubVersion string
	hub        *schema.Type
	// versions are the registry's types of every version of the kind, the server's
	// preferred first.
	versions []*schema.Type
}

// resolve asks the registry about the kind of gvk: the one place the engine does for a
// request's endpoint.
func (e *Engine) resolve(gvk schema.GVK) *kindTypes {
	k := &kindTypes{gvk: gvk, serving: e.schemas.Serving(gvk)}
	k.known, _ = e.schemas.Lookup(gvk)
	k.typ = k.known
	if k.typ == nil {
		k.typ, k.warnings = e.schemas.Resolve(gvk)
	}
	for _, g := range e.schemas.Versions(gvk.Group, gvk.Kind) {
		if t, ok := e.schemas.Lookup(g); ok {
			k.versions = append(k.versions, t)
		}
	}
	if k.known != nil {
		k.hubVersion = e.model.Hub(k.known)
	}
	if v := e.model.Hub(k.typ); v != "" && v != gvk.Version {
		k.hub = k.version(v)
	}
	return k
}

// version is the type of the kind at version v; nil when the registry has none.
func (k *kindTypes) version(v string) *schema.Type {
	for _, t := range k.versions {
		if t.GVK.Version == v {
			return t
		}
	}
	return nil
}

// typeOf is the registry's type of gvk, a version of k's kind (or, for a managedFields
// entry recorded at another group, of that group's); nil when it has none.
func (e *Engine) typeOf(k *kindTypes, gvk schema.GVK) *schema.Type {
	if gvk.Group == k.gvk.Group && gvk.Kind == k.gvk.Kind {
		return k.version(gvk.Version)
	}
	t, _ := e.schemas.Lookup(gvk)
	return t
}
