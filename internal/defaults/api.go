package defaults

import (
	"fmt"
)

// ErrUnknownKind is wrapped by the errors of Normalize and Default for kinds
// that are not built into Kubernetes 1.37 (custom resources, or group-versions
// not served by default).
var ErrUnknownKind = fmt.Errorf("not a built-in kind of Kubernetes 1.37")

// Normalize rewrites obj, a built-in object in its unstructured form
// (map[string]any, []any, string, int64, float64, bool, nil), into what
// kube-apiserver stores and returns for it without defaulting: the effect of
// decoding it into its Go type, storing it and encoding it as JSON.
//
//   - Fields unknown to the Go type are dropped.
//   - null becomes the Go zero value: a nil pointer, list or map disappears
//     (or stays null when the field has no omitempty), a null string in a
//     string map becomes "", a null struct becomes {}.
//   - Zero values of omitempty/omitzero fields disappear; struct fields that
//     are not pointers always appear ("resources": {}, "status": {}).
//   - Empty lists and maps of fields without omitempty become null (storage
//     is protobuf, which keeps no empty collections).
//   - Quantities become canonical ("0.5" → "500m"), times are written in UTC
//     with whole seconds (microseconds for MicroTime), base64 is re-encoded.
//   - Int-or-string values and raw extensions stay as given.
//
// obj is changed in place. Errors name the field (*PathError) and wrap
// ErrUnknownKind for kinds that are not built in.
func (r Release) Normalize(apiVersion, kind string, obj map[string]any) error {
	t, ok := r.rootType(apiVersion, kind)
	if !ok {
		return fmt.Errorf("%s %s: %w", apiVersion, kind, ErrUnknownKind)
	}
	return normalize(t, obj)
}

func normalize(t int, obj map[string]any) error {
	e, err := roundTrip(t, obj)
	if err != nil {
		return withBodyFirst(err, t, obj)
	}
	out := e.value.(map[string]any)
	clear(obj)
	for k, v := range out {
		obj[k] = v
	}
	return nil
}

// normalizeOwned is normalize of an object whose maps and lists only the caller holds
// (normalize made them, the defaulters changed them since): it rewrites them in place.
func normalizeOwned(t int, obj map[string]any) error {
	_, err := roundTripInPlace(t, obj)
	if err != nil {
		// obj is partly rewritten: into encodings of good values, which decode again.
		return withBodyFirst(err, t, obj)
	}
	return nil
}

// Default rewrites obj into the object kube-apiserver 1.37 stores after
// decoding it and running the built-in defaulters of its group-version (with
// the default feature gates): Normalize, then every SetDefaults_<Type>
// function and `+default=` marker in the order the generated defaulters run
// them, then Normalize again. It is what the server does to the result of
// field management (rules.md write.paths.1, D4) and again when it reads the object
// back. It also applies the few conversion effects of the round trip through
// the internal version: a Secret's stringData is merged into data (base64) and
// dropped, a StatefulSet's volumeClaimTemplates get apiVersion and kind, a
// Node's podCIDR and podCIDRs agree. Registry rules (generation, status reset, Secret stringData) are not
// part of it: see package internal/strategy. Values the server assigns rather
// than defaults (a Service's clusterIP, …) are left out: see Assigned.
func (r Release) Default(apiVersion, kind string, obj map[string]any) error {
	return r.defaultAs(apiVersion, kind, obj, false)
}

// DefaultOwned is Default of an object whose maps and lists only the caller holds, none of
// them twice (a copy the caller made: unstructured.DeepCopyObject, CopyAsDecoded, a
// decoder's output): its first decode/encode pass too rewrites them in place
// (roundTripInPlace) instead of building the object anew, which saves a copy of the whole
// tree. The result is Default's. On an error obj is left partly rewritten: the caller
// drops it.
func (r Release) DefaultOwned(apiVersion, kind string, obj map[string]any) error {
	return r.defaultAs(apiVersion, kind, obj, true)
}

// defaultAs is Default; owned says obj's maps and lists are the caller's alone (DefaultOwned).
func (r Release) defaultAs(apiVersion, kind string, obj map[string]any, owned bool) error {
	t, ok := r.rootType(apiVersion, kind)
	if !ok {
		return fmt.Errorf("%s %s: %w", apiVersion, kind, ErrUnknownKind)
	}
	first := normalize
	if owned {
		first = normalizeOwned
	}
	if err := first(t, obj); err != nil {
		return fmt.Errorf("decoding %s %s: %w", apiVersion, kind, err)
	}
	if conv := converters[generatedTypes[t].name()]; conv != nil {
		conv(obj)
	}
	w := walker{packages: defaulterPackages(t), gates: &r.r.gates}
	w.walk(t, obj)
	// The first pass made every map and list of obj anew (raw extensions aside, which
	// both passes keep as they are), or rewrote the caller's own: the second rewrites
	// them in place.
	if err := normalizeOwned(t, obj); err != nil {
		return fmt.Errorf("encoding defaulted %s %s: %w", apiVersion, kind, err)
	}
	return nil
}

// defaulterPackages returns the packages whose defaulters run for a root
// type: its own and the peers its generated defaulters call into.
func defaulterPackages(t int) packageSet {
	own := generatedTypes[t].pkg()
	return packageSet{own: own, peers: peerPackages[own]}
}

// packageSet is a root type's package and its defaulter-gen peers (defaulterPackages),
// without a map made at each Default.
type packageSet struct {
	own   string
	peers []string
}

// has reports whether p is one of the set's packages.
func (s packageSet) has(p string) bool {
	if p == s.own {
		return true
	}
	for _, q := range s.peers {
		if q == p {
			return true
		}
	}
	return false
}

// peerPackages lists, per package, the other packages whose defaulters its
// generated defaulting code calls (defaulter-gen's peer packages).
var peerPackages = map[string][]string{
	"io.k8s.api.apps.v1":    {"io.k8s.api.core.v1"},
	"io.k8s.api.batch.v1":   {"io.k8s.api.core.v1"},
	"io.k8s.api.storage.v1": {"io.k8s.api.core.v1"},
}
