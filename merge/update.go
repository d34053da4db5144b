package merge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
)

// Update predicts a PUT (rules.md write.paths, R0.3): Object is the whole new object, through /scale an
// autoscaling/v1 Scale. Updates are never refused for conflicts: they take what they change
// (rules.md update.takes-over). A PUT of a missing object creates it only for the kinds whose strategy
// allows it (server.Strategy.AllowCreateOnUpdate), and is answered 404 otherwise; a
// resourceVersion in the body is an optimistic lock, a uid a precondition.
func (e *Engine) Update(req Request) (*Result, error) {
	return e.update(req, nil, nil)
}

// update is Update, of a request of a sequence given the object as the server holds it
// at the hub version (hubLive) when known, and the sequence's previous answer (prior).
func (e *Engine) update(req Request, hubLive map[string]any, prior *Result) (*Result, error) {
	given := req.Live
	a, refused, err := e.admit(req, ClientRaw, hubLive)
	if refused != nil || err != nil {
		return refused, err
	}
	a.prior = prior
	req = a.Request
	req.Live = unstructured.AsDecoded(req.Live)
	req.Object = unstructured.CopyAsDecoded(req.Object)
	a.Request = req
	r, err := e.newRequest(a)
	if err != nil {
		return nil, err
	}
	var res *Result
	if r.ep.Subresource == "scale" {
		res = r.updateScale(req.Live, req.Object, req.Manager)
	} else {
		res = r.put(req.Live, req.Object, req.Manager)
	}
	res.Warnings = append(res.Warnings, r.sortedWarnings()...)
	return readAs(res, given, req.Live), nil
}

// Create predicts a POST (rules.md write.paths, R0.3): Object is the new object, which the
// writer owns whole (rules.md update.set-grows), its managedFields taken when it carries valid
// ones (rules.md supplied.taken-as-base). When Live is not nil the object exists: once the new object passes validation the
// server answers 409 AlreadyExists. A POST to a subresource is not predicted.
func (e *Engine) Create(req Request) (*Result, error) {
	return e.createRequest(req, nil)
}

// createRequest is Create, of a request of a sequence given the object as the server
// holds it at the hub version (hubLive) when known.
func (e *Engine) createRequest(req Request, hubLive map[string]any) (*Result, error) {
	if req.Endpoint.Subresource != "" {
		return nil, fmt.Errorf("%w: a POST to the %s subresource", ErrNotPredictable, req.Endpoint.Subresource)
	}
	live := req.Live
	req.Live = nil
	if req.Endpoint.GVK.Kind == "" {
		req.Endpoint = endpointOf(req)
	}
	a, refused, err := e.admit(req, ClientRaw, hubLive)
	if refused != nil || err != nil {
		return refused, err
	}
	req = a.Request
	req.Object = unstructured.CopyAsDecoded(req.Object)
	a.Request = req
	r, err := e.newRequest(a)
	if err != nil {
		return nil, err
	}
	res := r.create(req.Object, req.Manager, live != nil)
	res.Warnings = append(res.Warnings, r.sortedWarnings()...)
	return res, nil
}

// create is the POST handler's: the body's namespace is the URL's, its kind the
// endpoint's; field management as an update of the kind's empty object; a name taken
// is refused after validation.
func (r *request) create(body map[string]any, manager string, exists bool) *Result {
	res := &Result{Endpoint: r.ep}
	reject := func(s *StatusError) *Result {
		res.Action, res.Rejection = ActionRejected, s
		return res
	}
	if s := validateManager(manager, false); s != nil {
		return reject(s)
	}
	if got := schema.GVKOf(body); got != r.ep.GVK {
		return reject(badRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", got.APIVersion(), r.ep.GVK.APIVersion())))
	}
	if s := r.checkNames(body); s != nil {
		return reject(s)
	}
	out := r.updateObject(nil, body, manager)
	if exists && out.Rejection == nil {
		return reject(alreadyExists(r.typ, r.ep.Name))
	}
	return out
}

// put is the PUT handler's: the body's name and namespace are the URL's; a missing object
// is created only where the strategy allows it; the body's uid is a precondition and its
// resourceVersion an optimistic lock.
func (r *request) put(live, body map[string]any, manager string) *Result {
	res := &Result{Endpoint: r.ep}
	reject := func(s *StatusError) *Result {
		res.Action, res.Rejection = ActionRejected, s
		return res
	}
	if s := validateManager(manager, false); s != nil {
		return reject(s)
	}
	if s := r.checkNames(body); s != nil {
		return reject(s)
	}
	if live == nil {
		if r.ep.Subresource != "" || !r.e.model.AllowCreateOnUpdate(r.typ) {
			return reject(notFound(r.typ, r.ep.Name))
		}
		return r.updateObject(nil, body, manager)
	}
	md, lmd := metadataOf(body), metadataOf(live)
	if uid, _ := md["uid"].(string); uid != "" && uid != unstructured.Str(lmd, "uid") {
		return reject(conflictOn(r.typ, r.ep.Name, fmt.Sprintf("Precondition failed: UID in precondition: %s, UID in object meta: %s", uid, unstructured.Str(lmd, "uid"))))
	}
	return r.updateObject(live, body, manager)
}

// updateObject writes next, the request's own copy of the new object (update and create
// copy the body as they decode it, patch decodes the patched document), which it changes
// in place, over live (nil: a create).
func (r *request) updateObject(live, next map[string]any, manager string) *Result {
	res := &Result{Endpoint: r.ep}
	created := live == nil
	r.creating = created
	if created {
		if r.ep.Subresource != "" {
			res.Action, res.Rejection = ActionRejected, notFound(r.typ, r.ep.Name)
			return res
		}
		live = r.e.model.EmptyObject(r.typ)
	} else if rv, _ := metadataOf(next)["resourceVersion"].(string); rv != "" && rv != unstructured.Str(metadataOf(live), "resourceVersion") {
		// The store's optimistic lock (rules.md create.name-and-namespace).
		res.Action, res.Rejection = ActionRejected, modified(r.typ, r.ep.Name)
		return res
	}
	// Decoding keeps an empty managedFields list (a reset, rules.md untracked.reset) that re-encoding would drop.
	bodyManaged, hasBodyManaged := metadataOf(next)["managedFields"]
	if r.converts() {
		// The body is decoded into its Go type and converted to the internal version, and
		// field management reads it back at the request's.
		warnings, err := r.e.model.DecodeBody(next)
		if err != nil {
			res.Action, res.Rejection = ActionRejected, badRequest(err.Error())
			return res
		}
		for _, w := range warnings {
			r.warn(serverWarningPrefix + w)
		}
		rt, err := r.roundTrip(next)
		if err != nil {
			res.Action, res.Rejection = ActionRejected, badRequest(err.Error())
			return res
		}
		next = rt
	}
	decoded := r.keepDecoded(next)
	empties := emptyCollections(r.typ, next)
	if err := r.defaultObject(next); err != nil {
		if _, text, ok := refusalOf(err); ok {
			// The handler's decoding of the body (rules.md request.undecodable-value).
			gvk := r.ep.GVK
			res.Action, res.Rejection = ActionRejected, badRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", gvk.Kind, gvk.Version, gvk.Kind, text))
			return res
		}
		res.Action, res.Rejection = ActionRejected, badRequest(fmt.Sprintf("error decoding the object: %v", err))
		return res
	}

	if hasBodyManaged {
		if md := metadataOf(next); md != nil {
			md["managedFields"] = bodyManaged
		}
	}
	managed, liveEntries := r.decodeLiveOrNew(live, next, r.ep.Subresource != "")
	before := managed.Copy()
	removeManagedFields(next)

	tracked := true
	if len(managed.Fields) == 0 {
		// An existing object nobody tracks stays untracked under updates (rules.md untracked.updates-stay-untracked).
		if uid, _ := metadataOf(live)["uid"].(string); uid != "" {
			tracked = false
		}
	}
	after := managed
	if tracked {
		var err error
		after, err = r.update(live, next, managed.Copy(), manager)
		if err != nil {
			// The server lets the write through and keeps the live entries (rules.md
			// supplied.errors-keep-entries): so from Kubernetes 1.37 (k8s.io/apimachinery
			// v0.37's UpdateNoErrors). Up to 1.36 its field manager clears them instead: the
			// object is written untracked (found by the differential harness at 1.33 against
			// 1.33.13's field manager; 1.34–1.36 link the same code).
			if r.e.model.Minor().AtLeast(37) {
				r.warn("the update could not be tracked (" + err.Error() + "): the live managedFields are kept, as the server does")
				after, _ = fieldpath.Decode(liveEntries)
			} else {
				r.warn("the update could not be tracked (" + err.Error() + "): the managedFields are cleared, as the server does up to Kubernetes 1.36")
				after = fieldpath.NewManaged()
			}
		}
	}
	entries, ownEntries, encErr, setErr := r.encodeManaged(next, after)
	if err := errors.Join(encErr, setErr); err != nil {
		res.Action, res.Rejection = ActionRejected, internalError(err.Error())
		return res
	}
	if err := r.prepare(created, decoded, next, live, false); err != nil {
		res.Action, res.Rejection = ActionRejected, prepareError(err)
		return res
	}
	put := r.restoreEmpties(next, empties)
	if s := r.validate(next, liveIfUpdate(created, live)); s != nil {
		res.Action, res.Rejection = ActionRejected, s
		return res
	}
	dropEmpties(next, put)
	next = r.readBackStored(next)
	r.settle(res, live, liveEntries, next, entries, created)
	res.decodedOwn = ownEntries
	res.Assigned = r.assigned(res.Action, next)
	res.Ownership = r.ownershipChanges(before, after, r.managerKey(manager, fieldpath.OperationUpdate))
	return res
}

// decodeLiveOrNew picks the managedFields an update starts from (rules.md untracked.reset, untracked.subresource-keeps-entries, supplied.invalid-ignored, supplied.taken-as-base): on
// a main-resource write, [] or [{}] in the body resets them, valid non-empty entries in the
// body replace the live ones, anything else falls back to the live entries (invalid live
// entries count as none).
func (r *request) decodeLiveOrNew(live, next map[string]any, subresource bool) (fieldpath.Managed, []fieldpath.Entry) {
	liveEntries, _, _ := managedFieldsOf(live)
	fromLive := func() fieldpath.Managed {
		m, err := r.decodeLive(liveEntries)
		if err != nil {
			return fieldpath.NewManaged()
		}
		return m
	}
	if subresource {
		return fromLive(), liveEntries
	}
	entries, present, err := managedFieldsOf(next)
	if err == nil && present && (len(entries) == 0 || (len(entries) == 1 && entries[0].IsZero())) {
		return fieldpath.NewManaged(), liveEntries
	}
	if err == nil && present {
		m, err := fieldpath.Decode(entries)
		if err == nil && len(m.Fields) > 0 {
			return m, liveEntries
		}
		if err != nil && strings.Contains(err.Error(), "unexpected trailing data") && r.e.model.Minor().Before(37) {
			// structured-merge-diff v6.4 (1.37) refuses data after a field set or a path
			// element; the v6.3 of 1.34-1.36 read past it, and would take these entries.
			r.warn(fmt.Sprintf("the managedFields sent have data after a field set or key: Kubernetes %s reads past it and takes them, which is not predicted (the live entries are kept, as 1.37 does)", r.e.model.Minor()))
		}
	}
	return fromLive(), liveEntries
}

// settle records on res the object a write stores and its entries, and the action: a
// create, an update, or — when the write changes nothing the server compares — no change,
// the live object and its entries standing (entry times of a no-op kept: keepTimesOfNoop).
func (r *request) settle(res *Result, live map[string]any, liveEntries []fieldpath.Entry, obj map[string]any, entries []fieldpath.Entry, created bool) {
	if !created {
		keepResourceVersion(obj, live)
		entries = r.keepTimesOfNoop(live, liveEntries, obj, entries)
	}
	res.Object, res.ManagedFields = obj, entries
	switch {
	case created:
		res.Action = ActionCreate
	case r.unchanged(live, liveEntries, obj, entries):
		res.Action = ActionUnchanged
		res.Object = unstructured.DeepCopyObject(live)
		res.ManagedFields = r.storedEntries(res.Object, liveEntries, entries)
	default:
		res.Action = ActionUpdate
	}
}

// keepResourceVersion gives obj, the object an update stores, the live object's
// resourceVersion when it has none: a body without one (or with a null one, which decoding
// makes empty) is an unconditional write of the object the store read, and a write the
// store finds changing nothing leaves the stored version as it is.
func keepResourceVersion(obj, live map[string]any) {
	rv, _ := metadataOf(live)["resourceVersion"].(string)
	if rv == "" {
		return
	}
	md := ensureMetadata(obj)
	if cur, _ := md["resourceVersion"].(string); cur == "" {
		md["resourceVersion"] = rv
	}
}
