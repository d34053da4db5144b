package merge

import (
	"fmt"
	"sort"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
)

func nsName(obj map[string]any) (string, string) {
	md, _ := obj["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	n, _ := md["name"].(string)
	return ns, n
}

func metadataOf(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	return md
}

// ensureMetadata returns obj's metadata map, creating it (or replacing a value that is not
// a map) when needed.
func ensureMetadata(obj map[string]any) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		obj["metadata"] = md
	}
	return md
}

// objectGVKNN names an object as the server does in its internal errors: "ns/name; gvk".
func objectGVKNN(obj map[string]any) string {
	ns, name := nsName(obj)
	return fmt.Sprintf("%s/%s; %s", ns, name, schema.GVKOf(obj))
}

// managedFieldsOf decodes an object's metadata.managedFields into entries. present is false
// when the field is absent or null.
func managedFieldsOf(obj map[string]any) (entries []fieldpath.Entry, present bool, err error) {
	return fieldpath.EntriesOf(obj)
}

// setManagedFields writes entries onto obj as the server encodes them; none removes the field.
func setManagedFields(obj map[string]any, entries []fieldpath.Entry, text bool) error {
	md := metadataOf(obj)
	if md == nil {
		if len(entries) == 0 {
			return nil
		}
		md = map[string]any{}
		obj["metadata"] = md
	}
	if len(entries) == 0 {
		delete(md, "managedFields")
		return nil
	}
	convert := fieldpath.EntriesToUnstructured
	if text {
		convert = fieldpath.EntriesToUnstructuredText
	}
	v, err := convert(entries)
	if err != nil {
		return err
	}
	md["managedFields"] = v
	return nil
}

// encodeManaged encodes m as the engine's objects hold it — canonical text with
// WithCompactManagedFields, the server's layout otherwise — and writes the entries into obj,
// with the decoding fieldpath vouched for (nil when none). encErr is encoding's error,
// setErr writing's.
func (r *request) encodeManaged(obj map[string]any, m fieldpath.Managed) (entries []fieldpath.Entry, own *encodedEntries, encErr, setErr error) {
	encode := m.EncodeDecodedAs
	if r.e.compactManagedFields {
		encode = m.EncodeDecodedTextAs
	}
	entries, decoded, vouched, err := encode(r.fieldsText())
	if err != nil {
		return nil, nil, err, nil
	}
	if r.e.compactManagedFields && len(entries) > 0 {
		// EncodeText's fieldsV1 are canonical already.
		v, err := fieldpath.EntriesToUnstructuredCanonical(entries)
		if err != nil {
			return nil, nil, nil, err
		}
		ensureMetadata(obj)["managedFields"] = v
	} else if err := setManagedFields(obj, entries, r.e.compactManagedFields); err != nil {
		return nil, nil, nil, err
	}
	if vouched {
		// The object holds them now, as text when compact: readers take them back from it.
		own = newEncodedEntries(entries, decoded, obj)
	}
	return entries, own, nil, nil
}

// copyWithoutManagedFields is a deep copy of obj without metadata.managedFields.
func copyWithoutManagedFields(obj map[string]any) map[string]any {
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		if md, ok := v.(map[string]any); ok && k == "metadata" {
			m := make(map[string]any, len(md))
			for mk, mv := range md {
				if mk != "managedFields" {
					m[mk] = unstructured.DeepCopy(mv)
				}
			}
			c[k] = m
			continue
		}
		c[k] = unstructured.DeepCopy(v)
	}
	return c
}

func removeManagedFields(obj map[string]any) {
	if md := metadataOf(obj); md != nil {
		delete(md, "managedFields")
	}
}

func sortByTimeThenKey(keys []string, times map[string]*time.Time) {
	sec := func(k string) int64 {
		if t := times[k]; t != nil {
			return t.Unix()
		}
		return 0
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := sec(keys[i]), sec(keys[j])
		if a != b {
			return a < b
		}
		return keys[i] < keys[j]
	})
}

func annotations(obj map[string]any) map[string]any {
	a, _ := metadataOf(obj)["annotations"].(map[string]any)
	return a
}

// readBackStored is obj, a custom resource a write stores, as the server answers it: read
// back from storage at the CRD's storage version, which prunes what that version's schema
// does not describe and defaults it with its defaults (rules.md read.stored), and converted
// to the request's version. With conversion
// None only apiVersion changes; a version whose schema defaults what the request's does
// not gets those defaults (a crossplane CompositeResourceDefinition created at v2 comes back
// with v1's spec.defaultCompositeDeletePolicy). Objects of other kinds are returned as
// they are.
func (r *request) readBackStored(obj map[string]any) map[string]any {
	sv := r.typ.StorageVersion
	if r.typ.Source != schema.SourceCRD || sv == "" || sv == r.ep.GVK.Version || r.typ.Conversion != schema.ConversionNone {
		return obj
	}
	st := r.kind.version(sv)
	if st == nil || st.Default == nil {
		return obj
	}
	stored := unstructured.DeepCopyObject(obj)
	stored["apiVersion"] = st.GVK.APIVersion()
	if st.PruneUnknown != nil {
		st.PruneUnknown(stored)
	}
	st.Default(stored)
	stored["apiVersion"] = r.ep.GVK.APIVersion()
	return stored
}
