package schema

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ssa-diff/ssa-diff/kube"
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
	// Served reports that the API server serves the kind at this version: for the
	// built-in kinds, the versions the default API configuration of the embedded release
	// enables (every GA group-version, no alpha or beta one; see ServedByDefault); for a
	// CRD, its version's served; for an OpenAPI document, always (a cluster documents
	// what it serves). A deduced type is not served as far as anyone knows.
	Served bool
	// Conversion says how the server converts the kind between its versions: for a CRD,
	// its spec.conversion.strategy (ConversionNone or ConversionWebhook); "" for the
	// built-in kinds, which the server's Go code converts (package internal/conversion).
	Conversion Conversion
	// StorageVersion is, for a CRD, the version its objects are stored at (spec.versions'
	// storage one): the server reads an object back from storage at that version, with its
	// schema's defaults, whatever version it was written at. "" for other types.
	StorageVersion string
	// Origin names the input the schema came from: "crds.yaml:
	// backups.ops.example.com" for a CRD, the file for an OpenAPI document,
	// "" for built-in and deduced types.
	Origin string
	// Default applies the structural-schema defaults the API server applies
	// to custom resources (CRD `default` values, on decoding and on create
	// and update); see the package documentation for the rules. It mutates
	// obj. nil for built-in kinds, whose defaulting is Go code in the API
	// server, for deduced types, and for types from OpenAPI v2 documents.
	Default func(obj map[string]any)
	// DefaultKeepingNulls is Default without dropping nulls: apiextensions-apiserver's
	// defaulting of an object it did not decode, the one an apply's merge made
	// (structuraldefaulting.Default alone), so that a null its schema does not allow
	// stays for validation to refuse. nil where Default is.
	DefaultKeepingNulls func(obj map[string]any)
	// PruneNulls drops the nulls a custom resource's structural schema neither allows
	// (nullable) nor defaults, as apiextensions-apiserver's decoding does to a request body
	// and to the stored object it reads (PruneNonNullableNullsWithoutDefaults, unless the
	// CRD sets spec.preserveUnknownFields); nil when decoding drops none.
	PruneNulls func(obj map[string]any)
	// PruneUnknown drops the fields a custom resource's structural schema does not
	// describe, as apiextensions-apiserver's decoding prunes an object it reads (and a
	// request body); nil when the CRD keeps unknown fields (spec.preserveUnknownFields) or
	// the version has no schema.
	PruneUnknown func(obj map[string]any)
	// Validation is what the API server validates a custom resource of a CRD with: the
	// version's schema as the CRD wrote it (nil Schema for a version without one) and the
	// CRD's preserveUnknownFields. nil for every type that does not come from a CRD.
	Validation *crdschema.Validation
}

// kindSchema is the schema of one built-in kind in all its versions: the types of the
// release they reach (builtin.Release.Closure), made once when first asked for. One schema
// for all versions, since the engine looks every version of a kind up (a managedFields
// entry may be at any of them), and their types are mostly the same (a Deployment's
// apps/v1 reaches 123 types, with apps/v1beta1 and v1beta2 136). A registry holds every
// built-in kind of its release in every version (153 at 1.37), and a run uses a few, each of
// which reaches an eighth of the release's types or less (a ConfigMap 8): copying every
// type at the start of each run cost more than a small run's whole prediction.
type kindSchema struct {
	once    sync.Once
	release builtin.Release
	names   []string // the kind's types, one per version
	schema  *smdschema.Schema
}

func (k *kindSchema) get() *smdschema.Schema {
	k.once.Do(func() { k.schema = &smdschema.Schema{Types: k.release.Closure(k.names...)} })
	return k.schema
}

// builtinSlot is what a registry made of the built-in kind at one position of the kind
// table (builtin.KindAt): its Type, and, at the position of a kind's first version, the
// schema the kind's versions share. Both are made when first asked for.
type builtinSlot struct {
	typ    atomic.Pointer[Type]
	schema atomic.Pointer[kindSchema]
	// versions, at the position of a kind's first version, are the release's versions of
	// the kind in the server's order of preference (versionsOf).
	versions atomic.Pointer[[]GVK]
}

// Conversion is a CustomResourceDefinition's conversion strategy.
type Conversion string

// The conversion strategies of CRDs.
const (
	// ConversionNone: the server changes apiVersion and keeps every other field.
	ConversionNone Conversion = "None"
	// ConversionWebhook: the server calls the CRD's conversion webhook.
	ConversionWebhook Conversion = "Webhook"
)

// ServedByDefault reports whether kube-apiserver serves a built-in group-version with its
// default API configuration (k8s.io/kubernetes pkg/controlplane.DefaultAPIResourceConfigSource,
// and the same rule in the apiextensions and aggregator servers): every stable version is
// enabled, every alpha and beta version is disabled, and no beta resource is enabled on its
// own. The rule holds at every embedded minor (1.34 to 1.37); what differs is which kinds
// each release has. TestServedMatchesRelease holds it, per minor, to the facts schema/gen
// reads from each release's sources (testdata/served), conformance/defaulting to the
// server's configuration of the newest.
func ServedByDefault(version string) bool {
	_, level, _, ok := parseKubeVersion(version)
	return ok && level == 2
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
//
// The built-in kinds are not indexed: the registry answers for them from the release's
// kind table, data the linker lays out, by bisection (builtin.KindRange), and makes a
// kind's Type when it is first handed out. Only what is added (CRDs, OpenAPI documents)
// and what ServeBuiltin changes is held in maps, in front of the table.
type Registry struct {
	version kube.Minor
	// release holds the built-in types: each kind's schema is made from it when the kind
	// is first looked up, and CRDs and the Scale take the types they refer to from it.
	release builtin.Release
	// builtins are the built-in Types made, by position in the kind table.
	builtins []builtinSlot
	// making is held while a built-in kind's schema holder is made.
	making sync.Mutex
	// searched remembers the kind table's answers (search), replaced whole under
	// searching when one is added: read for every object without a lock.
	searched  atomic.Pointer[map[searchKey]int32]
	searching sync.Mutex
	// served are the built-in kinds ServeBuiltin serves otherwise than the default API
	// configuration (ServedByDefault), by position in the kind table.
	served map[int]bool
	// servedGroups are the built-in groups served at some version once ServeBuiltin
	// decided it; nil: by the default configuration.
	servedGroups map[string]bool
	// crdGroups are the groups of the CRDs added.
	crdGroups map[string]bool
	// types are the Types added (CRDs, OpenAPI documents): they take the place of the
	// built-in kind of their GVK.
	types map[GVK]*Type
	// versions are the GVKs of each kind that has an added type (and its built-in
	// versions), in the server's order of preference (Versions), kept as types change; the
	// other kinds' are the release's.
	versions map[groupKind][]GVK
	// scale is ScaleType's, made once when first asked for (shared by copies: it depends
	// on the built-in schema only).
	scale *lazyType
}

// lazyType is a Type made when first asked for.
type lazyType struct {
	once sync.Once
	t    *Type
}

// groupKind is a kind of a group, at any version.
type groupKind struct{ group, kind string }

// NewRegistry returns a registry with every built-in kind of the Kubernetes minor v
// (CustomResourceDefinition and APIService among them), in every version its release has:
// the schemas, kinds and served versions of kube-apiserver of that minor. It fails for a
// minor ssa-diff embeds no release of (every minor of kube.Minors has one).
func NewRegistry(v kube.Minor) (*Registry, error) {
	rel, ok := builtin.For(v)
	if !ok {
		var have []string
		for _, r := range builtin.Releases() {
			have = append(have, r.Minor().String())
		}
		return nil, fmt.Errorf("no embedded schema of Kubernetes %s (embedded: %s): make generate writes the schemas of every minor kube/releases.txt lists", v, strings.Join(have, ", "))
	}
	return newRegistry(rel), nil
}

// MustNewRegistry is NewRegistry for a minor known to be embedded (one of kube.Minors()):
// it panics where NewRegistry fails.
func MustNewRegistry(v kube.Minor) *Registry {
	r, err := NewRegistry(v)
	if err != nil {
		panic(err)
	}
	return r
}

func newRegistry(rel builtin.Release) *Registry {
	// The slots are not written until a kind is made: their memory, fresh from the
	// system, is not touched for the kinds a run never asks for.
	return &Registry{version: rel.Minor(), release: rel, builtins: make([]builtinSlot, builtin.KindPositions()),
		crdGroups: map[string]bool{}, types: map[GVK]*Type{}, versions: map[groupKind][]GVK{}, scale: &lazyType{}}
}

// added is the Type added of gvk (a CRD's, an OpenAPI document's), if any.
func (r *Registry) added(gvk GVK) (*Type, bool) {
	if len(r.types) == 0 {
		return nil, false
	}
	t, ok := r.types[gvk]
	return t, ok
}

// builtinPosition is the position in the kind table of the release's kind gvk.
func (r *Registry) builtinPosition(gvk GVK) (int, bool) {
	i := r.search(searchKey{gvk, searchKind}, func() int {
		if i, ok := r.release.FindKind(gvk.Group, gvk.Version, gvk.Kind); ok {
			return i
		}
		return -1
	})
	return i, i >= 0
}

// searchKey is a question to the kind table: the position of a GVK (searchKind), the first
// position of a group and kind (searchVersions: gvk without its version), whether a group
// is built-in (searchGroup: gvk with its group only).
type searchKey struct {
	gvk  GVK
	what uint8
}

// The questions of a searchKey.
const (
	searchKind = iota
	searchVersions
	searchGroup
)

// maxSearched bounds what search remembers (input may name any number of kinds).
const maxSearched = 512

// search returns find's answer to k, remembered: a run asks about the same few kinds for
// every object, and a bisection of the table compares strings some ten times where a map
// hashes once.
func (r *Registry) search(k searchKey, find func() int) int {
	m := r.searched.Load()
	if m != nil {
		if v, ok := (*m)[k]; ok {
			return int(v)
		}
	}
	v := find()
	r.searching.Lock()
	defer r.searching.Unlock()
	var known map[searchKey]int32
	if m := r.searched.Load(); m != nil {
		known = *m
	}
	if len(known) < maxSearched {
		next := make(map[searchKey]int32, len(known)+1)
		maps.Copy(next, known)
		next[k] = int32(v)
		r.searched.Store(&next)
	}
	return v
}

// builtinServed says whether the server serves the built-in kind at position i.
func (r *Registry) builtinServed(i int, k *builtin.Kind) bool {
	if s, ok := r.served[i]; ok {
		return s
	}
	// Kinds without a resource are only the body of a subresource request (Eviction):
	// nobody can apply them.
	return k.Resource != "" && ServedByDefault(k.Version)
}

// builtinType returns the Type of the release's kind at position i, with its schema, made
// when first asked for (safe for concurrent use).
func (r *Registry) builtinType(i int) *Type {
	slot := &r.builtins[i]
	if t := slot.typ.Load(); t != nil {
		return t
	}
	k, _ := r.release.KindAt(i)
	t := r.builtinInfo(i, &k)
	t.Parseable = typed.ParseableType{Schema: r.kindSchema(&k).get(), TypeRef: smdschema.TypeRef{NamedType: &k.TypeName}}
	if !slot.typ.CompareAndSwap(nil, t) {
		return slot.typ.Load()
	}
	return t
}

// builtinInfo is the Type of the kind k at position i without its schema.
func (r *Registry) builtinInfo(i int, k *builtin.Kind) *Type {
	t := &Type{
		GVK:        GVK{Group: k.Group, Version: k.Version, Kind: k.Kind},
		Resource:   k.Resource,
		Namespaced: k.Namespaced,
		Status:     k.Status,
		Source:     SourceBuiltin,
		Served:     r.builtinServed(i, k),
	}
	if k.Scale {
		sc := builtinScale
		t.Scale = &sc
	}
	return t
}

// kindSchema is the schema holder of the built-in kind k, shared by its versions, made on
// the first call for the kind.
func (r *Registry) kindSchema(k *builtin.Kind) *kindSchema {
	lo, hi := builtin.KindRange(k.Group, k.Kind)
	slot := &r.builtins[lo]
	if ks := slot.schema.Load(); ks != nil {
		return ks
	}
	r.making.Lock()
	defer r.making.Unlock()
	if ks := slot.schema.Load(); ks != nil {
		return ks
	}
	ks := &kindSchema{release: r.release}
	for i := lo; i < hi; i++ {
		if v, ok := r.release.KindAt(i); ok {
			ks.names = append(ks.names, v.TypeName)
		}
	}
	slot.schema.Store(ks)
	return ks
}

// current is the Type of gvk the registry holds, without making a built-in kind's schema
// when it has not been made: for what a Type says besides its schema.
func (r *Registry) current(gvk GVK) (*Type, bool) {
	if t, ok := r.added(gvk); ok {
		return t, true
	}
	i, ok := r.builtinPosition(gvk)
	if !ok {
		return nil, false
	}
	if t := r.builtins[i].typ.Load(); t != nil {
		return t, true
	}
	k, _ := r.release.KindAt(i)
	return r.builtinInfo(i, &k), true
}

// builtinVersions are the release's GVKs of group and kind, in the table's order.
func (r *Registry) builtinVersions(group, kind string) []GVK {
	lo, hi := builtin.KindRange(group, kind)
	var out []GVK
	for i := lo; i < hi; i++ {
		if k, ok := r.release.KindAt(i); ok {
			out = append(out, GVK{Group: k.Group, Version: k.Version, Kind: k.Kind})
		}
	}
	return out
}

// versionsOf are the versions of group and kind in the server's order of preference; the
// caller may keep but not change them.
func (r *Registry) versionsOf(group, kind string) []GVK {
	if len(r.versions) > 0 {
		if vs, ok := r.versions[groupKind{group, kind}]; ok {
			return vs
		}
	}
	lo := r.search(searchKey{GVK{Group: group, Kind: kind}, searchVersions}, func() int {
		if lo, hi := builtin.KindRange(group, kind); lo < hi {
			return lo
		}
		return -1
	})
	if lo < 0 {
		return nil
	}
	slot := &r.builtins[lo]
	if vs := slot.versions.Load(); vs != nil {
		return *vs
	}
	vs := r.builtinVersions(group, kind)
	sortByPreference(vs)
	slot.versions.Store(&vs)
	return vs
}

// sortByPreference sorts one kind's GVKs in the server's order of preference.
func sortByPreference(vs []GVK) {
	if len(vs) > 1 {
		slices.SortFunc(vs, func(a, b GVK) int { return compareVersions(a.Version, b.Version) })
	}
}

// indexVersions sorts the versions of the kinds given, built-in and added, into
// r.versions.
func (r *Registry) indexVersions(kinds map[groupKind]bool) {
	for gk := range kinds {
		vs := r.builtinVersions(gk.group, gk.kind)
		for gvk := range r.types {
			if gvk.Group == gk.group && gvk.Kind == gk.kind && !slices.Contains(vs, gvk) {
				vs = append(vs, gvk)
			}
		}
		sortByPreference(vs)
		r.versions[gk] = vs
	}
}

// Minor is the Kubernetes minor whose built-in kinds the registry holds.
func (r *Registry) Minor() kube.Minor { return r.version }

// Lookup returns the Type of exactly this GVK.
func (r *Registry) Lookup(gvk GVK) (*Type, bool) {
	if t, ok := r.added(gvk); ok {
		return t, true
	}
	if i, ok := r.builtinPosition(gvk); ok {
		return r.builtinType(i), true
	}
	return nil, false
}

// Resolve returns the Type of the GVK, or, when the registry has none,
// SMD's deduced type together with a warning that says what that means.
// Resolve does not say whether the server serves the kind: see Serving.
func (r *Registry) Resolve(gvk GVK) (*Type, []string) {
	if t, ok := r.Lookup(gvk); ok {
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
		msg += "; give its CustomResourceDefinition (--crd, or among the inputs) or an OpenAPI document (--schema) to fix this"
	}
	return &Type{
		GVK:       gvk,
		Parseable: typed.DeducedParseableType,
		Deduced:   true,
		Source:    SourceDeduced,
	}, []string{msg}
}

// Serving says whether the API server serves a group, version and kind, as far as a
// registry knows.
type Serving int

// What a registry knows of a GVK.
const (
	// ServingUnknown: nobody told the registry about the kind's group (it is no built-in
	// group and no CRD added has it), nor about the kind: whether the server serves it is
	// not known, and Resolve falls back to the deduced type.
	ServingUnknown Serving = iota
	// Served: the server serves the kind at this version.
	Served
	// NotServed: the server does not serve the kind at this version although its group is
	// known — a kind the group does not have (a typo), a built-in version the server no
	// longer serves (apps/v1beta1), a CRD version that is not served. A request for it is
	// answered 404, and kubectl refuses it before sending anything.
	NotServed
)

// Serving tells whether the server serves gvk: Served for a type it knows as served,
// NotServed for an unserved version or an unknown kind of a built-in group or of a group
// one of its CRDs defines, or a built-in kind's name in a group nobody told the registry
// of (apiVersion: app/v1, kind: Deployment), ServingUnknown otherwise (a group known only through an
// OpenAPI document, or not at all).
func (r *Registry) Serving(gvk GVK) Serving {
	if t, ok := r.current(gvk); ok {
		if t.Served {
			return Served
		}
		return NotServed
	}
	if r.BuiltinGroup(gvk.Group) || r.crdGroups[gvk.Group] {
		return NotServed
	}
	if r.builtinKind(gvk.Kind) && len(r.versionsOf(gvk.Group, gvk.Kind)) == 0 {
		// A built-in kind in a group nobody told of (apiVersion: app/v1 for a
		// Deployment): a typo of the group, which a server without that group refuses.
		return NotServed
	}
	return ServingUnknown
}

// builtinKind reports a kind of the release with a resource, in any group.
func (r *Registry) builtinKind(kind string) bool {
	for i := range builtin.KindPositions() {
		if k, ok := r.release.KindAt(i); ok && k.Kind == kind && k.Resource != "" {
			return true
		}
	}
	return false
}

// ServeBuiltin decides again which built-in kinds the server serves: a kind with a
// resource is served exactly when served(group, version, resource) says so, in place of
// the default API configuration's answer (ServedByDefault). kube-apiserver's
// --runtime-config decides it (package server/kubeapiserver); the kinds of CRDs and OpenAPI
// documents are left as they are.
func (r *Registry) ServeBuiltin(served func(group, version, resource string) bool) {
	r.servedGroups = map[string]bool{}
	for i := range builtin.KindPositions() {
		k, ok := r.release.KindAt(i)
		if !ok || k.Resource == "" {
			continue
		}
		gvk := GVK{Group: k.Group, Version: k.Version, Kind: k.Kind}
		if _, added := r.types[gvk]; added {
			continue
		}
		s := served(k.Group, k.Version, k.Resource)
		if s != r.builtinServed(i, &k) {
			if r.served == nil {
				r.served = map[int]bool{}
			}
			r.served[i] = s
			// A Type handed out already stays as it was; the registry hands out a copy.
			if t := r.builtins[i].typ.Load(); t != nil {
				c := *t
				c.Served = s
				r.builtins[i].typ.Store(&c)
			}
		}
		if s {
			r.servedGroups[k.Group] = true
		}
	}
}

// BuiltinGroup reports whether group is one of the built-in kinds' (served or not).
func (r *Registry) BuiltinGroup(group string) bool {
	return r.search(searchKey{GVK{Group: group}, searchGroup}, func() int {
		lo, hi := builtin.KindRange(group, "")
		for i := lo; i < hi; i++ {
			if _, ok := r.release.KindAt(i); ok {
				return 1
			}
		}
		return 0
	}) == 1
}

// DefinesGroup reports whether a CustomResourceDefinition added defines kinds of group.
func (r *Registry) DefinesGroup(group string) bool { return r.crdGroups[group] }

// BuiltinGroupServed reports whether the server serves the built-in group at some version.
// Its API handler then answers requests for versions and resources it does not serve with
// a Status (404 NotFound); for any other group the server has no handler and answers with
// plain text.
func (r *Registry) BuiltinGroupServed(group string) bool {
	if r.servedGroups != nil {
		return r.servedGroups[group]
	}
	lo, hi := builtin.KindRange(group, "")
	for i := lo; i < hi; i++ {
		if k, ok := r.release.KindAt(i); ok && k.Resource != "" && ServedByDefault(k.Version) {
			return true
		}
	}
	return false
}

// Versions returns every known version of one kind, in the order the API
// server prefers them (v1, v1beta1, v1alpha1, ...). The engine needs them
// for managedFields entries recorded at another apiVersion.
func (r *Registry) Versions(group, kind string) []GVK {
	vs := r.versionsOf(group, kind)
	if len(vs) == 0 {
		return nil
	}
	return append([]GVK(nil), vs...)
}

// GVKs returns every GVK the registry knows, sorted by group, kind and
// version preference.
func (r *Registry) GVKs() []GVK {
	var out []GVK
	for i := range builtin.KindPositions() {
		if k, ok := r.release.KindAt(i); ok {
			if gvk := (GVK{Group: k.Group, Version: k.Version, Kind: k.Kind}); r.types[gvk] == nil {
				out = append(out, gvk)
			}
		}
	}
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
	kinds := map[groupKind]bool{}
	for _, t := range types {
		r.types[t.GVK] = t
		kinds[groupKind{t.GVK.Group, t.GVK.Kind}] = true
	}
	r.indexVersions(kinds)
}

// putCRD adds the types of CRDs: the versions of a kind replace every version an earlier
// CRD of the same group and kind defined (a version it no longer lists is no longer served).
func (r *Registry) putCRD(types []*Type) {
	kinds := map[groupKind]bool{}
	for _, t := range types {
		kinds[groupKind{t.GVK.Group, t.GVK.Kind}] = true
	}
	for gvk, old := range r.types {
		if old.Source == SourceCRD && kinds[groupKind{gvk.Group, gvk.Kind}] {
			delete(r.types, gvk)
		}
	}
	for _, t := range types {
		r.types[t.GVK] = t
		r.crdGroups[t.GVK.Group] = true
	}
	r.indexVersions(kinds)
}
