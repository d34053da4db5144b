package defaults

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ssa-diff/ssa-diff/kube"
)

// typeKind says how a Go API type is represented in JSON.
type typeKind uint8

const (
	kindString typeKind = iota
	kindBool
	kindInt
	kindUint
	kindFloat
	kindBytes   // []byte: base64 in JSON
	kindStruct  // a Go struct: a JSON object with known fields
	kindPointer // *elem: absent or null when nil
	kindSlice   // []elem
	kindMap     // map[string]elem
	// Types with their own JSON form.
	kindQuantity    // resource.Quantity: canonical string
	kindIntOrString // intstr.IntOrString: an integer or a string, as given
	kindTime        // metav1.Time: RFC 3339 in UTC, whole seconds; null when zero
	kindMicroTime   // metav1.MicroTime: RFC 3339 in UTC with microseconds
	kindDuration    // metav1.Duration: Go duration string
	kindRaw         // RawExtension, apiextensions JSON, FieldsV1, any: kept verbatim
	// apiextensions.k8s.io/v1 schema unions.
	kindSchemaOrArray       // a schema or a list of schemas
	kindSchemaOrBool        // a schema or a boolean
	kindSchemaOrStringArray // a schema or a list of strings
)

// fieldFlags are the JSON tag options that matter for encoding.
type fieldFlags uint8

const (
	omitEmpty fieldFlags = 1 << iota // `json:",omitempty"`
	omitZero                         // `json:",omitzero"`
	inline                           // an embedded struct whose fields are promoted
)

// text is a string of the generated tables: its position in generatedStrings. The
// tables hold positions, not strings, so that they hold no pointers at all: the linker
// puts them in .noptrdata, of which the runtime builds no pointer mask at start-up and
// which the collector never scans (TestGeneratedTablesHoldNoPointers).
type text uint16

func (t text) String() string { return generatedStrings[t] }

// typeDef describes one Go API type. Types refer to each other by their index
// in generatedTypes.
type typeDef struct {
	nameAt text // OpenAPI-style name, e.g. io.k8s.api.apps.v1.Deployment; "*X", "[]X", "map[string]X" for composites
	// pkgAt is the name's package part, up to its last dot (io.k8s.api.apps.v1): whose
	// defaulters and markers apply.
	pkgAt text
	kind  typeKind
	elem  int // element type of pointers, slices, maps and schema unions
	// fieldsAt and fieldsEnd are the struct's fields in generatedFields, in declaration
	// order.
	fieldsAt, fieldsEnd int32
}

// name is the type's OpenAPI-style name.
func (td *typeDef) name() string { return generatedStrings[td.nameAt] }

// pkg is the package part of the type's name, up to its last dot ("" for a name without
// one): the defaulters of that package, and its `+default=` markers, apply to the type.
func (td *typeDef) pkg() string { return generatedStrings[td.pkgAt] }

// fields are the struct's fields in declaration order; none for other kinds.
func (td *typeDef) fields() []fieldDef { return generatedFields[td.fieldsAt:td.fieldsEnd] }

// fieldDef describes one struct field.
type fieldDef struct {
	typ      int
	nameAt   text // JSON name; empty for inline fields
	markerAt text // the `+default=` marker value as JSON, if any
	// patchStrategyAt and patchMergeKeyAt are the field's struct tags of those names (a
	// strategic merge patch's "merge", "replace", "retainKeys" … and the key of merged
	// lists).
	patchStrategyAt text
	patchMergeKeyAt text
	flags           fieldFlags
}

// name is the field's JSON name; empty for inline fields.
func (f *fieldDef) name() string { return generatedStrings[f.nameAt] }

// marker is the field's `+default=` marker value as JSON; empty for none.
func (f *fieldDef) marker() string { return generatedStrings[f.markerAt] }

// patchStrategy is the field's patchStrategy struct tag ("merge", "retainKeys,merge" …).
func (f *fieldDef) patchStrategy() string { return generatedStrings[f.patchStrategyAt] }

// patchMergeKey is the field's patchMergeKey struct tag: the key of a merged list.
func (f *fieldDef) patchMergeKey() string { return generatedStrings[f.patchMergeKeyAt] }

// release is one Kubernetes minor's part of the generated tables.
type release struct {
	minor        int
	kubernetesAt text // "1.34.4"
	// gates are the defaults, at this minor, of the feature gates the defaulters consult.
	gates featureGates
	// kindsAt and kindsEnd are its kinds in generatedKinds: "apiVersion/Kind" of every
	// built-in kind the minor serves to its root type in generatedTypes, sorted by key
	// (data the linker lays out, where a map literal would be built at every start of the
	// program for all seven minors).
	kindsAt, kindsEnd int32
}

// kinds are the release's kinds, sorted by "apiVersion/Kind".
func (r *release) kinds() []kindType { return generatedKinds[r.kindsAt:r.kindsEnd] }

// kindType is one entry of a release's kinds: "apiVersion/Kind" and its root type.
type kindType struct {
	typ   int
	keyAt text
}

// key is the kind's "apiVersion/Kind".
func (k *kindType) key() string { return generatedStrings[k.keyAt] }

// featureGates are the defaults of the feature gates the hand-written defaulters consult,
// at one minor (generated from k8s.io/kubernetes pkg/features of its release; a gate the
// release does not have is false). A defaulter that consults a gate is a
// gatedDefaulterFunc and reads it here.
type featureGates struct {
	imageVolume                  bool // core/v1 SetDefaults_Volume: image.pullPolicy
	h2cContainerProbe            bool // core/v1 SetDefaults_Pod: httpGet.protocol
	maxUnavailableStatefulSet    bool // apps/v1 SetDefaults_StatefulSet: rollingUpdate.maxUnavailable
	seLinuxMountReadWriteOncePod bool // storage/v1 SetDefaults_CSIDriver: seLinuxMount
	volumeLimitScaling           bool // storage/v1 SetDefaults_CSIDriver: preventPodSchedulingIfMissing
}

// Release is the decoding and defaulting of the built-in kinds of one Kubernetes minor:
// the Go types of its release (their encoding facts, `+default=` markers and kinds) and
// its feature gates' defaults. For gives the release of a minor; no function of the
// package picks one.
type Release struct {
	r *release
}

// For returns the defaulting of the minor v; false when the table has no release of it.
func For(v kube.Minor) (Release, bool) {
	for i := range generatedReleases {
		if generatedReleases[i].minor == int(v) {
			return Release{&generatedReleases[i]}, true
		}
	}
	return Release{}, false
}

// MustFor is For for a minor known to have its release (one of kube.Minors(), which the
// tests hold to the table): it panics where For finds none.
func MustFor(v kube.Minor) Release {
	r, ok := For(v)
	if !ok {
		panic(fmt.Sprintf("defaults: no decoding and defaulting of Kubernetes %s is generated", v))
	}
	return r
}

// Minor is the release's minor.
func (r Release) Minor() kube.Minor { return kube.Minor(r.r.minor) }

// Kubernetes is the release, "1.34.4".
func (r Release) Kubernetes() string { return generatedStrings[r.r.kubernetesAt] }

// rootType returns the index of the Go type that kube-apiserver decodes an
// object of the given apiVersion and kind into.
func (r Release) rootType(apiVersion, kind string) (int, bool) {
	key := apiVersion + "/" + kind
	kinds := r.r.kinds()
	i, ok := slices.BinarySearchFunc(kinds, key, func(e kindType, key string) int { return strings.Compare(e.key(), key) })
	if !ok {
		return 0, false
	}
	return kinds[i].typ, true
}

// Known reports whether apiVersion and kind name a built-in kind of the release that this
// package can default.
func (r Release) Known(apiVersion, kind string) bool {
	_, ok := r.rootType(apiVersion, kind)
	return ok
}

// TypeName returns the OpenAPI name of the Go type behind a built-in kind
// (e.g. "io.k8s.api.apps.v1.Deployment"), or "" when the kind is not built in.
func (r Release) TypeName(apiVersion, kind string) string {
	i, ok := r.rootType(apiVersion, kind)
	if !ok {
		return ""
	}
	return generatedTypes[i].name()
}
