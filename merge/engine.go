package merge

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Names the API server gives to the managers it creates itself.
const (
	BeforeFirstApplyManager = "before-first-apply"
	AncientChangesManager   = "ancient-changes"
	// KubectlManager is the one apply manager the server treats specially (rules.md kubectl.relaxation, kubectl.no-relaxation, kubectl.annotation-sync, kubectl.annotation-too-large).
	KubectlManager = "kubectl"
	// LastAppliedAnnotation is client-side apply's record of the last applied configuration.
	LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

	currentOperation  = "current-operation"
	maxUpdateManagers = 10
	maxManagerLength  = 128
	// maxAnnotationsSize is the API's limit on the total size of an object's annotations.
	maxAnnotationsSize = 256 * 1024
)

// Engine predicts API server writes. It is safe for concurrent use once built.
type Engine struct {
	schemas *schema.Registry
	model   server.Model
	// noShortcuts turns off the shortcuts of applyFields (the prune) and deletedFields (the
	// typed comparison): tests compare both paths.
	noShortcuts bool
	// compactManagedFields: see WithCompactManagedFields.
	compactManagedFields bool
}

// Option configures an Engine.
type Option func(*Engine)

// WithCompactManagedFields makes the objects the engine predicts hold the fieldsV1 of their
// metadata.managedFields entries as JSON text — a json.RawMessage as the server answers it
// in JSON (fieldpath.SetToFieldsV1Text): keys in element order for a built-in kind, in byte
// order (the canonical form of fieldsjson.CanonicalFieldsV1) for a custom resource —
// instead of trees of maps, and Result.ManagedFields the same text (written from the field
// sets in one pass: fieldpath.Managed.EncodeTextAs). They cost less to make and to hold,
// print the server's bytes, and the engine and package fieldpath read them either way (a
// prediction can be the live object of the next).
func WithCompactManagedFields() Option { return func(e *Engine) { e.compactManagedFields = true } }

// New returns an engine that resolves kinds through schemas and asks model what the API
// server does around field management: kubeapiserver.New's model for kube-apiserver's own
// defaulting, conversion, registry rules and validation, server.FieldManagementOnly for
// none of them.
func New(schemas *schema.Registry, model server.Model, opts ...Option) *Engine {
	e := &Engine{schemas: schemas, model: model}
	for _, o := range opts {
		o(e)
	}
	return e
}

// ErrNotPredictable is wrapped by the errors of requests the engine cannot predict because
// of what they ask — no apiVersion or kind, a kind no schema describes, a live object at a
// version it cannot convert, a conversion only a webhook can make — as opposed to the
// server's refusals, which are results (Result.Rejection), not errors. Test with errors.Is.
var ErrNotPredictable = errors.New("cannot predict")

// request is the state of one request through the chain.
type request struct {
	e   *Engine
	ep  Endpoint
	typ *schema.Type
	// hub is the type of the version whose shape is the kind's internal version, when
	// the request's is another (autoscaling/v2 for an autoscaling/v1 request): the
	// registry's rules and validation run on the internal version (rules.md version.conversion). hubLive is
	// the live object at that version as the server holds it (admitted.hubLive), if known.
	hub     *schema.Type
	hubLive map[string]any
	// kind is what the registry says of the endpoint's kind (resolve).
	kind    *kindTypes
	version smdpath.APIVersion
	updater *stableUpdater
	// ignore are the fields the request's subresource resets, per version: the updater's
	// IgnoreFilter.
	ignore   map[smdpath.APIVersion]smdpath.Filter
	now      time.Time
	warnings []string
	// creating: the write creates the object (the live object is missing).
	creating bool
	// manager is the request's fieldManager, as the admission chain sees it.
	manager string
	// prior is the previous answer of the request's sequence (admitted.prior).
	prior *Result
	// unforced is the request's Unforced, on an apply with force.
	unforced *Result
	// pending is the last apply that met conflicts, which the same apply with force
	// finishes without walking the objects again (applyOnce).
	pending *pendingForce
	// typed is the last object typed without strictness (the live object, which every
	// step of an apply types again), by the identity of its map. Objects are not
	// changed once typed: merges build new values, and the result is a copy.
	typed struct {
		obj    reflect.Value
		stored bool
		tv     *typed.TypedValue
	}
}

// newRequest sets up the chain of one request: its kind resolved (once: a.kind when admit
// resolved it for the same endpoint), its reset fields and its updater.
func (e *Engine) newRequest(a admitted) (*request, error) {
	req := a.Request
	ep := endpointOf(req)
	if ep.GVK.Kind == "" || ep.GVK.Version == "" {
		return nil, fmt.Errorf("%w: the object has no apiVersion or kind", ErrNotPredictable)
	}
	k := a.kind
	if k == nil || k.gvk != ep.GVK {
		k = e.resolve(ep.GVK)
	}
	if k.typ == nil {
		return nil, fmt.Errorf("%w: no schema for %s", ErrNotPredictable, ep.GVK)
	}
	switch ep.Subresource {
	case "", "status", "scale":
	case "resize", "ephemeralcontainers":
		// A Pod's alone (admitVersion answers 404 for the others); their storage names no
		// reset fields (rules.md sub.resize, sub.ephemeralcontainers): no filter.
	default:
		// /binding and the others have strategies of their own the model does not know.
		return nil, fmt.Errorf("%w: a write to the %s subresource (status, scale and a Pod's resize and ephemeralcontainers are predicted)", ErrNotPredictable, ep.Subresource)
	}
	r := &request{e: e, ep: ep, kind: k, typ: k.typ, version: smdpath.APIVersion(ep.GVK.APIVersion()), now: req.Now.UTC().Truncate(time.Second),
		warnings: append([]string(nil), k.warnings...), manager: req.Manager, prior: a.prior}
	if req.Now.IsZero() {
		r.now = time.Now().UTC().Truncate(time.Second)
	}
	if k.hub != nil {
		r.hub, r.hubLive = k.hub, a.hubLive
	}
	r.ignore = resetFilters(e.model.Minor(), k, ep.Subresource)
	r.updater = newUpdater(&versionConverter{e: e, kind: k, warn: r.warn}, r.ignore)
	return r, nil
}

func (r *request) warn(s string) {
	for _, w := range r.warnings {
		if w == s {
			return
		}
	}
	r.warnings = append(r.warnings, s)
}

// parse converts an unstructured object to its typed value; strict refuses duplicates in
// keyed lists (apply bodies), otherwise they are allowed (live objects, update bodies).
func (r *request) parse(obj map[string]any, strict bool) (*typed.TypedValue, error) {
	if strict {
		tv, err := parseSorted(r.typ.Parseable, obj)
		return r.keysAsTyped(tv, err, obj)
	}
	return r.parseCached(obj, false)
}

// fieldsText is the text the minor's structured-merge-diff writes fieldsV1 in (rules.md
// encode.fields-v1): Kubernetes 1.38 links v7, which writes the key and value elements with
// encoding/json v2 (& < > U+2028 U+2029 as they are, 1e-7); 1.32 to 1.37 link v4 and v6
// (json-iterator: \u0026 …, 1e-07).
func (r *request) fieldsText() fieldpath.Text {
	if r.e.model.Minor().AtLeast(38) {
		return fieldpath.TextJSONv2
	}
	return fieldpath.TextJSONIter
}

// fieldsOrder is the order of the keys of the fieldsV1 the server answers for the kind
// (rules.md encode.key-order): a built-in kind is stored typed, its fieldsV1 the bytes
// structured-merge-diff wrote, in element order (port 9 before 80 before 443); a custom
// resource — any kind of a group that is not built in, or of a CRD — is stored as JSON
// maps, which encoding/json writes in byte order.
func (r *request) fieldsOrder() fieldpath.Order {
	if r.typ != nil && r.typ.Source == schema.SourceCRD || !r.e.schemas.BuiltinGroup(r.ep.GVK.Group) {
		return fieldpath.OrderBytes
	}
	return fieldpath.OrderElements
}

// keysAsTyped refuses, up to Kubernetes 1.33, an object whose associative lists have an
// element omitting a key field without a default (structured-merge-diff v4's typing; 1.34
// took v6, which types such an element by the keys it has): see omittedKeyFields.
func (r *request) keysAsTyped(tv *typed.TypedValue, err error, obj map[string]any) (*typed.TypedValue, error) {
	if r.e.model.Minor().AtLeast(34) {
		return tv, err
	}
	// Kubernetes 1.33 and older: the v4 typing's errors are v6's and the omitted keys'.
	if err != nil {
		return tv, withOmittedKeyFields(r.typ.Parseable, obj, err)
	}
	if kerr := omittedKeyFields(r.typ.Parseable, obj); kerr != nil {
		return nil, kerr
	}
	return tv, nil
}

// parseStored types a stored object for an apply: the live object, or the result to
// compare with it. Its managedFields are left out when they are well-formed entries: an
// apply never changes them through the merge (the body may not carry them, and the
// result's are written afterwards), and typing them is most of the work on a real object.
// Malformed entries stay, so that they fail the typing as they fail it on the server.
func (r *request) parseStored(obj map[string]any) (*typed.TypedValue, error) {
	return r.parseCached(obj, true)
}

func (r *request) parseCached(obj map[string]any, stored bool) (*typed.TypedValue, error) {
	id := reflect.ValueOf(obj)
	if c := r.typed; c.tv != nil && obj != nil && c.stored == stored && c.obj.UnsafePointer() == id.UnsafePointer() {
		return c.tv, nil
	}
	in := obj
	if stored {
		in = withoutCleanManagedFields(obj)
	}
	tv, err := parseSorted(r.typ.Parseable, in, typed.AllowDuplicates)
	tv, err = r.keysAsTyped(tv, err, in)
	if err == nil {
		r.typed.obj, r.typed.tv, r.typed.stored = id, tv, stored
	}
	return tv, err
}

// withoutCleanManagedFields is obj without metadata.managedFields (a shallow copy) when
// they are a list of entries with only the known fields, each of its type; otherwise obj.
func withoutCleanManagedFields(obj map[string]any) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj
	}
	list, ok := md["managedFields"].([]any)
	if !ok || len(list) == 0 {
		return obj
	}
	for _, item := range list {
		e, ok := item.(map[string]any)
		if !ok {
			return obj
		}
		for k, v := range e {
			switch k {
			case "manager", "operation", "apiVersion", "time", "fieldsType", "subresource":
				if _, ok := v.(string); !ok {
					return obj
				}
			case "fieldsV1":
				switch v.(type) {
				case map[string]any, json.RawMessage:
				default:
					return obj
				}
			default:
				return obj
			}
		}
	}
	return unstructured.WithoutManagedFields(obj)
}

// parseSorted types an unstructured object; when it does not fit the schema, the error is
// the one met walking maps in key order, not the one Go's random map order met first
// (sortedValue), so the same input always gets the same message.
//
// An object the engine's own walk vouches for (validates) is typed without
// structured-merge-diff's validation, which would find nothing either.
func parseSorted(p typed.ParseableType, obj map[string]any, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	obj = withFieldsV1Trees(obj)
	if validates(p.Schema, p.TypeRef, obj, slices.Contains(opts, typed.AllowDuplicates)) {
		//lint:ignore SA1019 the object is validated already (validates), the way structured-merge-diff validates it, without its value interfaces
		return typed.AsTypedUnvalidated(value.NewValueInterface(obj), p.Schema, p.TypeRef), nil
	}
	tv, err := p.FromUnstructured(obj, opts...)
	if err != nil {
		if _, sorted := typed.AsTyped(sorted(value.NewValueInterface(obj)), p.Schema, p.TypeRef, opts...); sorted != nil {
			err = sorted
		}
	}
	return tv, err
}

// managerKey builds the identity of the writing manager (rules.md owner.key, owner.name).
func (r *request) managerKey(name string, op fieldpath.Operation) string {
	if name == "" {
		name = "unknown"
	}
	return fieldpath.ManagerKey(fieldpath.Entry{Manager: name, Operation: op, APIVersion: string(r.version), Subresource: r.ep.Subresource})
}

// stripSet are the paths never tracked for the writing manager (rules.md track.never-tracked).
var stripPaths = []smdpath.Path{
	smdpath.MakePathOrDie("apiVersion"),
	smdpath.MakePathOrDie("kind"),
	smdpath.MakePathOrDie("metadata"),
	smdpath.MakePathOrDie("metadata", "name"),
	smdpath.MakePathOrDie("metadata", "namespace"),
	smdpath.MakePathOrDie("metadata", "creationTimestamp"),
	smdpath.MakePathOrDie("metadata", "selfLink"),
	smdpath.MakePathOrDie("metadata", "uid"),
	smdpath.MakePathOrDie("metadata", "clusterName"),
	smdpath.MakePathOrDie("metadata", "generation"),
	smdpath.MakePathOrDie("metadata", "managedFields"),
	smdpath.MakePathOrDie("metadata", "resourceVersion"),
}

func stripMeta(fields smdpath.ManagedFields, key string) {
	vs, ok := fields[key]
	if !ok {
		return
	}
	set := vs.Set().Difference(smdpath.NewSet(stripPaths...))
	if set.Empty() {
		delete(fields, key)
		return
	}
	fields[key] = smdpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
}

// update runs the Update chain below the manager-naming step: the diff between live and
// next is owned by the manager (rules.md update.set-grows, update.takes-over), system fields are stripped (rules.md track.never-tracked), the time is
// set when the manager gained anything (rules.md time.update) and Update entries are capped (rules.md cap.update-entries).
func (r *request) update(live, next map[string]any, managed fieldpath.Managed, manager string) (fieldpath.Managed, error) {
	key := r.managerKey(manager, fieldpath.OperationUpdate)
	liveTyped, err := r.parse(live, false)
	if err != nil {
		return managed, fmt.Errorf("failed to convert live object (%s) to smd typed: %w", objectGVKNN(live), err)
	}
	nextTyped, err := r.parse(next, false)
	if err != nil {
		return managed, fmt.Errorf("failed to convert new object (%s) to smd typed: %w", objectGVKNN(next), err)
	}
	_, fields, err := r.updater.Update(liveTyped, nextTyped, r.version, managed.Fields, currentOperation)
	if err != nil {
		return managed, fmt.Errorf("failed to update ManagedFields (%s): %w", objectGVKNN(next), err)
	}
	managed.Fields = fields
	stripMeta(managed.Fields, currentOperation)
	if vs, ok := managed.Fields[currentOperation]; ok {
		delete(managed.Fields, currentOperation)
		if prev, ok := managed.Fields[key]; ok {
			managed.Fields[key] = smdpath.NewVersionedSet(vs.Set().Union(prev.Set()), vs.APIVersion(), vs.Applied())
		} else {
			managed.Fields[key] = vs
		}
		now := r.now
		managed.Times[key] = &now
	}
	capUpdateManagers(managed)
	return managed, nil
}

// capUpdateManagers folds the oldest Update entries into ancient-changes buckets, one per
// apiVersion, until at most ten remain (rules.md cap.update-entries).
func capUpdateManagers(managed fieldpath.Managed) {
	var updaters []string
	for key, vs := range managed.Fields {
		if !vs.Applied() {
			updaters = append(updaters, key)
		}
	}
	if len(updaters) <= maxUpdateManagers {
		return
	}
	sortByTimeThenKey(updaters, managed.Times)
	firstOfVersion := map[smdpath.APIVersion]string{}
	remaining := len(updaters)
	for _, key := range updaters {
		if remaining <= maxUpdateManagers {
			break
		}
		vs := managed.Fields[key]
		version := vs.APIVersion()
		bucket := fieldpath.ManagerKey(fieldpath.Entry{Manager: AncientChangesManager, Operation: fieldpath.OperationUpdate, APIVersion: string(version)})
		first, seen := firstOfVersion[version]
		if !seen {
			firstOfVersion[version] = key
			continue
		}
		if _, ok := managed.Fields[bucket]; !ok {
			managed.Fields[bucket] = managed.Fields[first]
			delete(managed.Fields, first)
		}
		managed.Fields[bucket] = smdpath.NewVersionedSet(vs.Set().Union(managed.Fields[bucket].Set()), version, vs.Applied())
		delete(managed.Fields, key)
		managed.Times[bucket] = managed.Times[key]
		remaining--
	}
}

// serverWarningPrefix starts the warnings the server itself would send (Warning headers).
const serverWarningPrefix = "the server would warn: "

// sortedWarnings are the request's warnings in a stable order: ssa-diff's own are met in the
// order structured-merge-diff ranges over managers, which is Go's map order, so they are
// sorted; the server's keep the order it sends them in (kubectl prints them so), together
// where their common prefix sorts.
func (r *request) sortedWarnings() []string {
	out := append([]string(nil), r.warnings...)
	key := func(w string) string {
		if strings.HasPrefix(w, serverWarningPrefix) {
			return serverWarningPrefix
		}
		return w
	}
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

// withFieldsV1Trees is obj with the managedFields' fieldsV1 kept as JSON text (a
// json.RawMessage) decoded into trees, as structured-merge-diff types them; obj itself when
// there is none (a shallow copy of what changes otherwise).
func withFieldsV1Trees(obj map[string]any) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj
	}
	list, ok := md["managedFields"].([]any)
	if !ok {
		return obj
	}
	var out []any
	for i, item := range list {
		e, ok := item.(map[string]any)
		if !ok {
			continue
		}
		raw, ok := e["fieldsV1"].(json.RawMessage)
		if !ok {
			continue
		}
		tree, err := fieldsjson.DecodeJSON(raw)
		if err != nil {
			continue
		}
		if out == nil {
			out = append([]any(nil), list...)
		}
		c := make(map[string]any, len(e))
		for k, v := range e {
			c[k] = v
		}
		c["fieldsV1"] = tree
		out[i] = c
	}
	if out == nil {
		return obj
	}
	return unstructured.WithMetadata(obj, func(m map[string]any) { m["managedFields"] = out })
}
