package merge

import (
	"fmt"
	"maps"
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

// encodeManaged encodes m as the engine's objects hold it (encodeEntries) and writes the
// entries into obj, with the decoding fieldpath vouched for (nil when none). encErr is
// encoding's error, setErr writing's.
func (r *request) encodeManaged(obj map[string]any, m fieldpath.Managed) (entries []fieldpath.Entry, own *encodedEntries, encErr, setErr error) {
	w := r.fieldsWriter()
	known := r.prior.knownText(w)
	encode := func() ([]fieldpath.Entry, fieldpath.Managed, bool, error) {
		return m.EncodeDecodedAsKnowing(w.text, known)
	}
	if w.canonical {
		encode = func() ([]fieldpath.Entry, fieldpath.Managed, bool, error) {
			return m.EncodeDecodedTextAsKnowing(w.text, w.order, known)
		}
	}
	entries, decoded, vouched, err := encode()
	if err != nil {
		return nil, nil, err, nil
	}
	if err := r.holdManagedFields(obj, entries); err != nil {
		return nil, nil, nil, err
	}
	if vouched {
		// The object holds them now, as text when compact: readers take them back from it.
		own = newEncodedEntries(entries, decoded, obj)
		own.writer = w
	}
	return entries, own, nil, nil
}

// fieldsWriter is how encodeManaged writes a request's fieldsV1 (encodeEntries).
type fieldsWriter struct {
	// e is the engine: its minor and its WithCompactManagedFields decide the rest.
	e *Engine
	// canonical: fieldpath.SetToFieldsV1Text's text in order; otherwise
	// structured-merge-diff's JSON in text.
	canonical bool
	text      fieldpath.Text
	order     fieldpath.Order
}

func (r *request) fieldsWriter() fieldsWriter {
	t, o := r.fieldsText(), r.fieldsOrder()
	return fieldsWriter{e: r.e, canonical: r.e.compactManagedFields || o == fieldpath.OrderBytes, text: t, order: o}
}

// encodeEntries is m's entries with the fieldsV1 the server answers for the kind
// (rules.md encode.key-order): with WithCompactManagedFields the text of fieldsV1 in the
// kind's order (fieldpath.Managed.EncodeTextAs); otherwise a built-in kind's fieldsV1 as
// structured-merge-diff writes them (its typed storage keeps those bytes) and a custom
// resource's as encoding/json writes the tree it stores (the canonical text).
func (r *request) encodeEntries(m fieldpath.Managed) ([]fieldpath.Entry, error) {
	t, o := r.fieldsText(), r.fieldsOrder()
	if r.e.compactManagedFields || o == fieldpath.OrderBytes {
		return m.EncodeTextAs(t, o)
	}
	return m.EncodeAs(t)
}

// reencoded is entries with the fieldsV1 encodeEntries writes for their field sets; entries
// as they are when they do not decode.
func (r *request) reencoded(entries []fieldpath.Entry) []fieldpath.Entry {
	if len(entries) == 0 {
		return entries
	}
	m, err := fieldpath.Decode(entries)
	if err != nil {
		return entries
	}
	out, err := r.encodeEntries(m)
	if err != nil || len(out) != len(entries) {
		return entries
	}
	return out
}

// holdManagedFields writes entries, as encodeEntries writes them, onto obj: their fieldsV1
// kept as that text with WithCompactManagedFields, as trees otherwise; none removes the
// field.
func (r *request) holdManagedFields(obj map[string]any, entries []fieldpath.Entry) error {
	if !r.e.compactManagedFields || len(entries) == 0 {
		return setManagedFields(obj, entries, false)
	}
	v, err := fieldpath.EntriesToUnstructuredCanonical(entries)
	if err != nil {
		return err
	}
	ensureMetadata(obj)["managedFields"] = v
	return nil
}

// storedEntries are the managedFields the server answers for a write that changes nothing:
// those it stores, not the text they were read from (rules.md encode.key-order) — kubectl's
// -o json gives a built-in kind's fieldsV1 in byte order, the server holds them in element
// order. entries are the request's encoding of the same field sets (unchanged compared
// them); when their text differs from the live entries', they are written onto obj, the
// live object's copy, with the live times.
func (r *request) storedEntries(obj map[string]any, liveEntries, entries []fieldpath.Entry) []fieldpath.Entry {
	if len(entries) != len(liveEntries) {
		return liveEntries
	}
	differ := false
	for i := range entries {
		if string(entries[i].FieldsV1) != string(liveEntries[i].FieldsV1) {
			differ = true
			break
		}
	}
	if !differ {
		return liveEntries
	}
	out := make([]fieldpath.Entry, len(entries))
	for i := range entries {
		out[i] = liveEntries[i]
		out[i].FieldsV1 = entries[i].FieldsV1
	}
	if err := r.holdManagedFields(obj, out); err != nil {
		return liveEntries
	}
	return out
}

// AsStored is res, the answer to a request a client does not send (ActionUnchanged: its
// object the live object as read, a copy), with that object's managedFields as the server
// stores them (rules.md encode.key-order): a dump by kubectl's -o json gives a built-in
// kind's fieldsV1 in byte order, the server holds them in element order. ep is the object's
// endpoint (zero: the object's own). res.ManagedFields, when set, are those entries too.
// Any other result, or one whose entries do not decode, is returned as it is.
func (e *Engine) AsStored(ep Endpoint, res *Result) *Result {
	if res == nil || res.Action != ActionUnchanged || res.Object == nil {
		return res
	}
	entries, present, err := managedFieldsOf(res.Object)
	if !present || err != nil || len(entries) == 0 {
		return res
	}
	r, err := e.newRequest(admitted{Request: Request{Endpoint: ep, Live: res.Object, Object: res.Object}})
	if err != nil {
		return res
	}
	stored := r.storedEntries(res.Object, entries, r.reencoded(entries))
	if res.ManagedFields != nil {
		res.ManagedFields = stored
	}
	return res
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

// decodeLive is fieldpath.Decode(entries), the live object's managedFields: when they are,
// to the byte, entries the previous request of the sequence decoded or encoded
// (Result.ManagedFieldsDecoded), its sets, not decoded again — the same sets by identity,
// which lets encodeManaged take the text it wrote for those the request leaves as they
// are. The maps are the request's own.
func (r *request) decodeLive(entries []fieldpath.Entry) (fieldpath.Managed, error) {
	if len(entries) > 0 && !r.e.noShortcuts {
		if m, ok := r.prior.ManagedFieldsDecoded(entries); ok {
			return fieldpath.Managed{Fields: m.Fields.Copy(), Times: maps.Clone(m.Times)}, nil
		}
	}
	return fieldpath.Decode(entries)
}
