package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema/builtin"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Source says where a Type's schema came from.
type Source string

// The sources of a Type.
const (
	// SourceBuiltin is the schema embedded for the built-in kinds.
	SourceBuiltin Source = "builtin"
	// SourceCRD is a CustomResourceDefinition.
	SourceCRD Source = "crd"
	// SourceOpenAPIV3 is an OpenAPI v3 document (/openapi/v3/...).
	SourceOpenAPIV3 Source = "openapi-v3"
	// SourceOpenAPIV2 is an OpenAPI v2 document (/openapi/v2).
	SourceOpenAPIV2 Source = "openapi-v2"
	// SourceDeduced is SMD's deduced type, used for a kind with no schema.
	SourceDeduced Source = "deduced"
)

// Type is everything the engine needs to know about one GVK.
type Type struct {
	GVK GVK
	// Resource is the lowercase plural of the REST resource, e.g.
	// "deployments". Empty when unknown (a deduced type, or an OpenAPI
	// document without paths for a kind not otherwise known) and for kinds
	// that are only the body of a subresource request (policy Eviction).
	Resource string
	// Namespaced is false for cluster-scoped kinds. It is false, and
	// meaningless, when Resource is empty.
	Namespaced bool
	// Status reports a /status subresource.
	Status bool
	// Scale is the /scale subresource, nil if there is none.
	Scale *ScaleSubresource
	// Parseable is the SMD type of the kind's objects.
	Parseable typed.ParseableType
	// Deduced reports that Parseable is SMD's deduced type (every map
	// granular, every list atomic): for a kind without a schema, or a CRD
	// version without one, as the API server does for the latter.
	Deduced bool
	// Source says where the schema came from.
	Source Source
	// Origin names the input the schema came from: "crds.yaml:
	// backups.ops.example.com" for a CRD, the file for an OpenAPI document,
	// "" for built-in and deduced types.
	Origin string
	// Default applies the structural-schema defaults the API server applies
	// to custom resources (CRD `default` values, on decoding and on create
	// and update); see the package documentation for the rules. It mutates
	// obj. nil for built-in kinds, whose defaulting is Go code in the API
	// server, for deduced types, and for types from OpenAPI v2 documents.
	Default func(obj map[string]interface{})
	// Validation is what the API server validates a custom resource of a CRD with: the
	// version's schema as the CRD wrote it (nil Schema for a version without one) and the
	// CRD's preserveUnknownFields. nil for every type that does not come from a CRD.
	Validation *crdschema.Validation
}

// ScaleSubresource describes a /scale subresource: where in the object the
// replica counts and the label selector live, as JSON paths
// (".spec.replicas").
type ScaleSubresource struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	// LabelSelectorPath is the path of the serialized label selector that
	// /scale reports in status.selector. Empty for the built-in kinds: the
	// API server formats it from the structured spec.selector.
	LabelSelectorPath string
}

// builtinScale is the /scale subresource of the built-in kinds that have
// one (Deployment, ReplicaSet, StatefulSet, ReplicationController).
var builtinScale = ScaleSubresource{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"}

// Registry knows the Type of every GVK it was given. It is not safe for
// concurrent mutation; once loaded, Lookup, Resolve and Versions are safe
// for concurrent use (SMD's schema lookups are).
type Registry struct {
	builtin       *smdschema.Schema
	builtinGroups map[string]bool
	types         map[GVK]*Type
}

// NewRegistry returns a registry with every built-in kind of the embedded
// Kubernetes release (builtin.KubernetesVersion), including
// CustomResourceDefinition and APIService, in every version.
func NewRegistry() *Registry {
	s := builtin.NewSchema()
	kinds := builtin.Kinds()
	r := &Registry{builtin: s, builtinGroups: map[string]bool{}, types: make(map[GVK]*Type, len(kinds))}
	for _, k := range kinds {
		r.builtinGroups[k.Group] = true
		name := k.TypeName
		t := &Type{
			GVK:        GVK{Group: k.Group, Version: k.Version, Kind: k.Kind},
			Resource:   k.Resource,
			Namespaced: k.Namespaced,
			Status:     k.Status,
			Parseable:  typed.ParseableType{Schema: s, TypeRef: smdschema.TypeRef{NamedType: &name}},
			Source:     SourceBuiltin,
		}
		if k.Scale {
			sc := builtinScale
			t.Scale = &sc
		}
		r.types[t.GVK] = t
	}
	return r
}

// Lookup returns the Type of exactly this GVK.
func (r *Registry) Lookup(gvk GVK) (*Type, bool) {
	t, ok := r.types[gvk]
	return t, ok
}

// Resolve returns the Type of the GVK, or, when the registry has none,
// SMD's deduced type together with a warning that says what that means.
func (r *Registry) Resolve(gvk GVK) (*Type, []string) {
	if t, ok := r.types[gvk]; ok {
		return t, nil
	}
	msg := fmt.Sprintf("no schema for %s: using the deduced type, under which every list is atomic "+
		"(owned, replaced and conflicting as a whole) and every map granular, so ownership is coarser "+
		"than on a cluster that knows the kind's schema", gvk)
	if others := r.Versions(gvk.Group, gvk.Kind); len(others) > 0 {
		vs := make([]string, len(others))
		for i, o := range others {
			vs[i] = o.Version
		}
		msg += fmt.Sprintf(" (known versions of %s: %s)", gvk.Kind, strings.Join(vs, ", "))
	} else {
		msg += "; load its CustomResourceDefinition or an OpenAPI document to fix this"
	}
	return &Type{
		GVK:       gvk,
		Parseable: typed.DeducedParseableType,
		Deduced:   true,
		Source:    SourceDeduced,
	}, []string{msg}
}

// Versions returns every known version of one kind, in the order the API
// server prefers them (v1, v1beta1, v1alpha1, ...). The engine needs them
// for managedFields entries recorded at another apiVersion.
func (r *Registry) Versions(group, kind string) []GVK {
	var out []GVK
	for gvk := range r.types {
		if gvk.Group == group && gvk.Kind == kind {
			out = append(out, gvk)
		}
	}
	sort.Slice(out, func(i, j int) bool { return compareVersions(out[i].Version, out[j].Version) < 0 })
	return out
}

// GVKs returns every GVK the registry knows, sorted by group, kind and
// version preference.
func (r *Registry) GVKs() []GVK {
	out := make([]GVK, 0, len(r.types))
	for gvk := range r.types {
		out = append(out, gvk)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return compareVersions(a.Version, b.Version) < 0
	})
	return out
}

// put adds or replaces types.
func (r *Registry) put(types []*Type) {
	for _, t := range types {
		r.types[t.GVK] = t
	}
}
