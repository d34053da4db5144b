package merge

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"time"
	"unicode"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Apply predicts one server-side apply request (PATCH with application/apply-patch+yaml),
// as a controller sends it. A returned error means the prediction failed; the server's
// refusals are in Result.Rejection.
func (e *Engine) Apply(req Request) (*Result, error) {
	given := req.Live
	a, refused, err := e.admit(req, ClientRaw, nil)
	if refused != nil || err != nil {
		return refused, err
	}
	res, err := e.applyStep(a)
	if err != nil {
		return nil, err
	}
	return readAs(res.complete(), given, a.Live), nil
}

// applyStep is Apply as one step of a client sequence: Ownership and Deleted are left
// for [Result.complete].
func (e *Engine) applyStep(a admitted) (*Result, error) {
	req := &a.Request
	req.Live = unstructured.AsDecoded(req.Live)
	req.Object = unstructured.AsDecoded(req.Object)
	r, err := e.newRequest(a)
	if err != nil {
		return nil, err
	}
	if req.Force {
		r.unforced = req.Unforced
	}
	var res *Result
	if r.ep.Subresource == "scale" {
		res = r.applyScale(req.Live, req.Object, req.Manager, req.Force)
	} else {
		res = r.apply(req.Live, req.Object, req.Manager, req.Force)
	}
	res.Warnings = append(res.Warnings, r.sortedWarnings()...)
	return res, nil
}

// applyOutcome is the inner result of the apply chain.
type applyOutcome struct {
	object    map[string]any // nil: no change (the live object stands)
	decoded   map[string]any // object before defaulting, when the hooks keep it
	empties   []emptyAt      // the empty lists and maps of the object before defaulting (empties.go)
	managed   fieldpath.Managed
	conflicts smdmerge.Conflicts
}

func (r *request) apply(live, cfg map[string]any, manager string, force bool) *Result {
	res := &Result{Endpoint: r.ep}
	reject := func(s *StatusError) *Result {
		res.Action, res.Rejection, res.Object = ActionRejected, s, nil
		return res
	}
	if s := validateManager(manager, true); s != nil {
		return reject(s)
	}
	created := live == nil
	r.creating = created
	if created {
		if uid, _ := metadataOf(cfg)["uid"].(string); uid != "" { // rules.md create.uid
			return reject(uidMismatch(r.typ, r.ep.Name, uid))
		}
		if r.ep.Subresource != "" { // rules.md sub.status-needs-object
			return reject(notFound(r.typ, r.ep.Name))
		}
		live = r.e.model.EmptyObject(r.typ)
		setNsName(live, r.ep.Namespace, r.ep.Name)
	}
	liveEntries, _, err := managedFieldsOf(live)
	if err != nil {
		return reject(internalError(fmt.Sprintf("failed to decode managed fields: %v", err)))
	}
	// The same apply without force, refused with conflicts, has decoded the entries and
	// made every walk (Request.Unforced).
	u := r.unforcedFor(force, live, cfg, liveEntries, manager)
	var managed fieldpath.Managed
	if u != nil {
		managed = u.managed
	} else if managed, err = r.decodeLive(liveEntries); err != nil { // rules.md request.corrupt-entries
		return reject(internalError(fmt.Sprintf("failed to decode managed fields: %v", err)))
	}
	if got := schema.GVKOf(cfg); got != r.ep.GVK { // rules.md request.kind-mismatch
		return reject(badRequest(fmt.Sprintf("invalid object type: %s", got)))
	}
	before := managed.Copy()
	res.decodedLive = &decodedEntries{entries: liveEntries, managed: before}

	// Which fields would force take? The same apply without force answers that. Force
	// changes nothing but the conflicts' outcome, so when that apply meets none, it is
	// also the forced apply's outcome.
	var out *applyOutcome
	var s *StatusError
	if u != nil {
		out, s = u.out, u.status
		p := *u.pending
		p.live, p.cfg, p.src, p.srcTimes = reflect.ValueOf(live), reflect.ValueOf(cfg), reflect.ValueOf(managed.Fields), reflect.ValueOf(managed.Times)
		r.pending = &p
	} else {
		out, s = r.applyWithLastApplied(live, cfg, managed, manager, false)
	}
	if !force && s != nil && s.Code == 409 && r.pending != nil && out != nil && len(out.conflicts) > 0 {
		res.unforced = &unforcedApply{e: r.e, ep: r.ep, typ: r.typ, now: r.now, manager: manager, live: live, cfg: cfg,
			liveEntries: liveEntries, managed: managed, out: out, status: s, pending: r.pending}
	}
	if force && s != nil {
		var taken smdmerge.Conflicts
		if out != nil {
			taken = out.conflicts
		}
		out, s = r.applyWithLastApplied(live, cfg, managed, manager, true)
		if s == nil && len(taken) > 0 {
			res.Conflicts = r.describeConflicts(taken, before, live, cfg)
		}
	}
	if s != nil {
		if out != nil && len(out.conflicts) > 0 {
			res.Conflicts = r.describeConflicts(out.conflicts, before, live, cfg)
		}
		return reject(s)
	}

	var obj map[string]any
	if out.object != nil {
		obj = out.object
	} else {
		// Its managedFields are not copied: encodeManaged writes them over below, and
		// nothing before reads them.
		obj = copyWithoutManagedFields(live)
	}
	if manager == KubectlManager && hasLastApplied(obj) { // rules.md kubectl.annotation-sync, kubectl.annotation-too-large
		setLastApplied(obj, cfg)
	}
	entries, ownEntries, encErr, setErr := r.encodeManaged(obj, out.managed)
	if encErr != nil {
		return reject(internalError(fmt.Sprintf("failed to encode managed fields: %v", encErr)))
	}
	if setErr != nil {
		return reject(internalError(setErr.Error()))
	}
	if s := r.checkIdentity(live, obj, cfg, created); s != nil {
		return reject(s)
	}
	// Field management that changed nothing leaves the object the server holds (rules.md
	// version.no-op-keeps-stored): out.object is nil.
	if err := r.prepare(created, out.decoded, obj, live, out.object == nil); err != nil {
		return reject(prepareError(err))
	}
	put := r.restoreEmpties(obj, out.empties)
	if s := r.validate(obj, liveIfUpdate(created, live)); s != nil {
		return reject(s)
	}
	dropEmpties(obj, put)
	if r.typ.Source != schema.SourceBuiltin {
		// What the store answers is the object decoded again: a custom resource without
		// the nulls decoding drops (those its schema allows stay).
		obj = r.readBackStored(r.e.model.ReadStored(r.typ, obj))
	}
	r.settle(res, live, liveEntries, obj, entries, created)
	res.decodedOwn = ownEntries
	res.describe = func() {
		res.Assigned = r.assigned(res.Action, res.Object)
		res.Ownership = r.ownershipChanges(before, out.managed, r.managerKey(manager, fieldpath.OperationApply))
		if !created {
			res.Deleted = r.deletedFields(live, res.Object)
		}
	}
	return res
}

// applyWithLastApplied is the apply with the kubectl relaxation (rules.md kubectl.relaxation, kubectl.no-relaxation): when the
// manager is "kubectl" and every conflict is on a field whose last-applied value still
// matches the live object, the apply is forced; otherwise only the other conflicts count.
// managed is not changed.
func (r *request) applyWithLastApplied(live, cfg map[string]any, managed fieldpath.Managed, manager string, force bool) (*applyOutcome, *StatusError) {
	out, s := r.applyOnce(live, cfg, managed, manager, force)
	if manager != KubectlManager || s == nil || out == nil || len(out.conflicts) == 0 {
		return out, s
	}
	allowed, ok := r.allowedConflictsFromLastApplied(live)
	if !ok {
		return out, s
	}
	var rest smdmerge.Conflicts
	for _, c := range out.conflicts {
		if !allowed.Has(c.Path) {
			rest = append(rest, c)
		}
	}
	if len(rest) > 0 {
		return &applyOutcome{conflicts: rest}, conflictError(rest)
	}
	return r.applyOnce(live, cfg, managed, manager, true)
}

// unforcedApply is what an apply refused with conflicts leaves for the same apply with
// force (Request.Unforced): its inputs as the engine took them, the entries it decoded,
// its answer, and its walks. None of it is changed by the forced apply.
type unforcedApply struct {
	e           *Engine
	ep          Endpoint
	typ         *schema.Type
	now         time.Time
	manager     string
	live, cfg   map[string]any
	liveEntries []fieldpath.Entry
	managed     fieldpath.Managed
	out         *applyOutcome
	status      *StatusError
	pending     *pendingForce
}

// unforcedFor is the Request.Unforced of a forced apply of cfg to live by manager when it
// answered the same apply without force: the same engine, endpoint, time and manager, and
// objects and entries equal to the value; nil otherwise.
func (r *request) unforcedFor(force bool, live, cfg map[string]any, liveEntries []fieldpath.Entry, manager string) *unforcedApply {
	if !force || r.unforced == nil || r.unforced.unforced == nil {
		return nil
	}
	u := r.unforced.unforced
	if u.e != r.e || u.ep != r.ep || u.typ != r.typ || !u.now.Equal(r.now) || u.manager != manager ||
		!sameEntries(u.liveEntries, liveEntries) || !unstructured.Equal(u.live, live) || !unstructured.Equal(u.cfg, cfg) {
		return nil
	}
	return u
}

// pendingForce is an apply of r that met conflicts, kept so that the same apply with force
// (the relaxation's, or the forced request's after it learnt which fields force takes)
// runs only the ownership step (forcedFields) instead of every walk again.
type pendingForce struct {
	// live, cfg, src and srcTimes are the identities of the apply's inputs: its objects and
	// the maps of the managedFields it was given (which applyOnce copies, never changes).
	live, cfg, src, srcTimes reflect.Value
	key                      string
	// managed is the copy the apply worked on, before-first-apply's entry in it when it
	// made one; fields its walks.
	managed fieldpath.Managed
	fields  *forcedFields
}

// applyOnce is the chain from the before-first-apply step inwards; src, the live object's
// entries decoded, is not changed.
func (r *request) applyOnce(live, cfg map[string]any, src fieldpath.Managed, manager string, force bool) (*applyOutcome, *StatusError) {
	key := r.managerKey(manager, fieldpath.OperationApply)
	id := pendingForce{live: reflect.ValueOf(live), cfg: reflect.ValueOf(cfg), src: reflect.ValueOf(src.Fields), srcTimes: reflect.ValueOf(src.Times), key: key}
	if p := r.pending; force && p != nil && p.sameApply(&id) {
		// The same apply met conflicts: force takes them. (Its entries are copied: an
		// earlier request's answer may hold them, Request.Unforced.)
		r.pending = nil
		merged, fields := p.fields.take()
		return r.applied(cfg, p.managed.Copy(), key, merged, fields)
	}
	managed := src.Copy()
	if len(managed.Fields) == 0 { // rules.md untracked.first-apply
		empty := r.e.model.EmptyObject(r.typ)
		var err error
		managed, err = r.update(empty, live, managed, BeforeFirstApplyManager)
		if err != nil {
			return nil, internalError(fmt.Sprintf("failed to create manager for existing fields: %v", err))
		}
	}
	if mf, ok := metadataOf(cfg)["managedFields"]; ok && mf != nil { // rules.md request.managedfields-in-body
		return nil, badRequest("metadata.managedFields must be nil")
	}
	// The body is typed before the live object, as the server does.
	cfgTyped, err := r.parse(cfg, true)
	if err != nil { // rules.md request.schema-mismatch
		return nil, internalError(fmt.Sprintf("failed to create typed patch object (%s): %v", objectGVKNN(cfg), err))
	}
	liveTyped, err := r.parseStored(live)
	if err != nil {
		return nil, internalError(fmt.Sprintf("failed to create typed live object (%s): %v", objectGVKNN(live), err))
	}
	merged, fields, forced, err := r.applyFields(liveTyped, cfgTyped, cfg, managed.Fields, key, force)
	if err != nil {
		var conflicts smdmerge.Conflicts
		if errors.As(err, &conflicts) {
			sortConflicts(conflicts)
			if forced != nil {
				id.managed, id.fields = managed, forced
				r.pending = &id
			}
			return &applyOutcome{conflicts: conflicts}, conflictError(conflicts)
		}
		return nil, internalError(err.Error())
	}
	return r.applied(cfg, managed, key, merged, fields)
}

// applied is the outcome of an apply whose field management gave merged (nil: nothing
// changes) and fields, the entries of managed after it.
func (r *request) applied(cfg map[string]any, managed fieldpath.Managed, key string, merged *typed.TypedValue, fields smdpath.ManagedFields) (*applyOutcome, *StatusError) {
	managed.Fields = fields
	stripMeta(managed.Fields, key)
	out := &applyOutcome{managed: managed}
	if merged != nil {
		now := r.now
		managed.Times[key] = &now
		obj, ok := merged.AsValue().Unstructured().(map[string]any)
		if !ok {
			return nil, internalError("merged object is not an object")
		}
		obj = unstructured.CopyAsDecoded(obj)
		// The server decodes the merged object into the Go type of the request's version,
		// defaults it and goes on with it in the internal version.
		var err error
		if obj, err = r.roundTrip(obj); err != nil {
			return nil, internalError(fmt.Sprintf("failed to convert new object (%s) to proper version: %v", objectGVKNN(cfg), err))
		}
		out.decoded = r.keepDecoded(obj)
		out.empties = emptyCollections(r.typ, obj)
		// Not decoded: a custom resource keeps the nulls its schema refuses (validation
		// then answers 422), which a decoded body would lose. obj is this request's own
		// (copied above, or converted anew): the model may rewrite it in place.
		if err := r.e.model.DefaultApplied(r.typ, obj); err != nil {
			if text, _, ok := refusalOf(err); ok {
				// The server's scheme decodes the merged object into the version's Go type
				// before it defaults it (rules.md request.undecodable-value).
				return nil, internalError(fmt.Sprintf("failed to convert new object (%s) to proper version: unable to convert unstructured object to %s: %s", objectGVKNN(cfg), r.ep.GVK, text))
			}
			return nil, internalError(fmt.Sprintf("failed to convert new object (%s) to proper version (%s): %v", objectGVKNN(obj), r.version, err))
		}
		out.object = obj
	}
	return out, nil
}

// sameApply reports whether p and q are applies of the same objects and entries by the
// same manager.
func (p *pendingForce) sameApply(q *pendingForce) bool {
	same := func(a, b reflect.Value) bool { return a.UnsafePointer() == b.UnsafePointer() }
	return same(p.live, q.live) && same(p.cfg, q.cfg) && same(p.src, q.src) && same(p.srcTimes, q.srcTimes) && p.key == q.key
}

func (r *request) defaultObject(obj map[string]any) error {
	return r.e.model.Default(r.typ, obj)
}

// validateManager checks the fieldManager parameter (rules.md request.options, owner.name).
func validateManager(m string, apply bool) *StatusError {
	invalid := func(field, detail string, typ string, bad string) *StatusError {
		msg := fmt.Sprintf(`PatchOptions.meta.k8s.io "" is invalid: %s: %s`, field, detail)
		return &StatusError{Code: 422, Reason: "Invalid", Message: msg,
			Details: &StatusDetails{Group: "meta.k8s.io", Kind: "PatchOptions", Causes: []StatusCause{{Reason: typ, Message: bad, Field: field}}}}
	}
	if m == "" {
		if apply {
			return invalid("fieldManager", "Required value: is required for apply patch", "FieldValueRequired", "Required value: is required for apply patch")
		}
		return nil
	}
	if len(m) > maxManagerLength {
		return invalid("fieldManager", fmt.Sprintf("Too long: may not be more than %d bytes", maxManagerLength), "FieldValueTooLong", fmt.Sprintf("Too long: may not be more than %d bytes", maxManagerLength))
	}
	for i, c := range m {
		if !unicode.IsPrint(c) {
			d := fmt.Sprintf("Invalid value: %q: invalid character %U (at position %d)", m, c, i)
			return invalid("fieldManager", d, "FieldValueInvalid", d)
		}
	}
	return nil
}

func setNsName(obj map[string]any, ns, name string) {
	md := metadataOf(obj)
	if md == nil {
		md = map[string]any{}
		obj["metadata"] = md
	}
	if ns != "" {
		md["namespace"] = ns
	}
	if name != "" {
		md["name"] = name
	}
}

// describeConflicts turns SMD conflicts into data with both values. A conflict with an
// entry recorded at another version names a path of that version: its values are read
// from the live object and the configuration converted to it (rules.md version.conversion).
func (r *request) describeConflicts(cs smdmerge.Conflicts, managed fieldpath.Managed, live, cfg map[string]any) []Conflict {
	out := make([]Conflict, 0, len(cs))
	at := map[string][2]map[string]any{}
	for _, c := range cs {
		ref := managed.Ref(c.Manager)
		live, cfg := live, cfg
		if v := ref.APIVersion; v != "" && v != string(r.version) {
			pair, ok := at[v]
			if !ok {
				pair = [2]map[string]any{live, cfg}
				target := schema.GVKFromAPIVersionKind(v, r.ep.GVK.Kind)
				if r.hub != nil && target == r.hub.GVK && r.hubLive != nil {
					pair[0] = r.hubLive
				} else if conv, _, err := r.e.convertObject(r.kind, live, target); conv != nil && err == nil {
					pair[0] = conv
				}
				if conv, _, err := r.e.convertObject(r.kind, cfg, target); conv != nil && err == nil {
					pair[1] = conv
				}
				at[v] = pair
			}
			live, cfg = pair[0], pair[1]
		}
		lv, _ := fieldpath.ValueAt(live, c.Path)
		av, _ := fieldpath.ValueAt(cfg, c.Path)
		ptr, _ := fieldpath.JSONPointer(c.Path, live)
		out = append(out, Conflict{Manager: ref, Path: fieldpath.PathString(c.Path), Pointer: ptr, Live: lv, Applied: av, FieldPath: c.Path})
	}
	return out
}

// ownershipChanges compares the entries before and after a write.
func (r *request) ownershipChanges(before, after fieldpath.Managed, writer string) []OwnershipChange {
	var out []OwnershipChange
	keys := map[string]bool{}
	for k := range before.Fields {
		keys[k] = true
	}
	for k := range after.Fields {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		b, a := setOf(before, k), setOf(after, k)
		ch := OwnershipChange{}
		if k == writer {
			ch.Manager = after.Ref(k)
			ch.Gained = pathsOfDifference(a, b)
			ch.Released = pathsOfDifference(b, a)
			if vb, ok := before.Fields[k]; ok {
				if va, ok := after.Fields[k]; ok && vb.APIVersion() != va.APIVersion() {
					// Paths of two versions do not compare.
					ch.MovedFrom = string(vb.APIVersion())
					ch.Gained, ch.Released = paths(a), nil
				}
			}
		} else {
			ch.Manager = before.Ref(k)
			if _, ok := before.Fields[k]; !ok {
				ch.Manager = after.Ref(k)
				ch.Gained = paths(a)
			}
			ch.Taken = pathsOfDifference(b, a)
		}
		_, had := before.Fields[k]
		_, has := after.Fields[k]
		ch.Removed = had && !has
		if len(ch.Gained)+len(ch.Released)+len(ch.Taken) > 0 || ch.Removed || ch.MovedFrom != "" {
			out = append(out, ch)
		}
	}
	return out
}

func setOf(m fieldpath.Managed, k string) *smdpath.Set {
	if vs, ok := m.Fields[k]; ok {
		return vs.Set()
	}
	return smdpath.NewSet()
}

// pathsOfDifference is paths(a.Difference(b)), without a walk when a is b: a manager's set
// that a write leaves as it was is most often the very set it had.
func pathsOfDifference(a, b *smdpath.Set) []string {
	if a == b {
		return nil
	}
	return paths(a.Difference(b))
}

func paths(s *smdpath.Set) []string {
	var out []string
	fieldpath.IterateLeaves(s, func(p smdpath.Path) { out = append(out, fieldpath.PathString(p)) })
	return out
}

// deletedFields lists what the write removed from the live object, system metadata aside.
func (r *request) deletedFields(live, obj map[string]any) []string {
	if obj == nil || (!r.e.noShortcuts && keepsEveryField(withoutCleanManagedFields(live), withoutCleanManagedFields(obj))) {
		return nil
	}
	lt, err1 := r.parseStored(live)
	nt, err2 := r.parseStored(obj)
	if err1 != nil || err2 != nil {
		return nil
	}
	var cmp *typed.Comparison
	ok := false
	if !r.e.noShortcuts {
		cmp, ok = compareValues(lt, nt)
	}
	if !ok {
		var err error
		if cmp, err = lt.Compare(nt); err != nil {
			return nil
		}
	}
	var out []string
	cmp.Removed.Difference(systemMetadata).Iterate(func(p smdpath.Path) { out = append(out, fieldpath.PathString(p)) })
	return out
}

// keepsEveryField reports, without typing either object, that obj has every field of live
// so that their comparison would remove nothing: every object keeps its keys, every list is
// equal, every scalar stays a scalar; the metadata the server maintains (systemMetadata) is
// left out. Otherwise the typed comparison decides.
func keepsEveryField(live, obj map[string]any) bool {
	for k, v := range live {
		w, ok := obj[k]
		if !ok {
			return false
		}
		if k == "metadata" {
			lm, lok := v.(map[string]any)
			om, ook := w.(map[string]any)
			if !lok || !ook {
				return false
			}
			for mk, mv := range lm {
				switch mk {
				case "resourceVersion", "generation", "uid", "creationTimestamp":
					continue
				}
				if mw, ok := om[mk]; !ok || !keepsFields(mv, mw) {
					return false
				}
			}
			continue
		}
		if !keepsFields(v, w) {
			return false
		}
	}
	return true
}

func keepsFields(a, b any) bool {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, x := range av {
			if y, ok := bv[k]; !ok || !keepsFields(x, y) {
				return false
			}
		}
		return true
	case []any:
		return unstructured.Equal(a, b)
	case nil:
		return b == nil
	default:
		switch b.(type) {
		case map[string]any, []any, nil:
			return false
		}
		return true
	}
}

// systemMetadata are the fields the server maintains itself.
var systemMetadata = smdpath.NewSet(
	smdpath.MakePathOrDie("metadata", "managedFields"),
	smdpath.MakePathOrDie("metadata", "resourceVersion"),
	smdpath.MakePathOrDie("metadata", "generation"),
	smdpath.MakePathOrDie("metadata", "uid"),
	smdpath.MakePathOrDie("metadata", "creationTimestamp"),
)

// sortConflicts orders conflicts by manager identity, keeping each manager's paths in set
// order. The server's cause order across managers is map order (rules.md conflict.cause-order); ours is stable.
func sortConflicts(cs smdmerge.Conflicts) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Manager < cs[j].Manager })
}

// checkIdentity is what the handlers and the store check after field management (rules.md
// create.uid, create.name-and-namespace): the name and namespace must be the URL's, and a resourceVersion in the body is an
// optimistic lock. (That the uid of an existing object cannot change is validation's.)
func (r *request) checkIdentity(live, obj, cfg map[string]any, created bool) *StatusError {
	ns, name := nsName(obj)
	if s := r.checkURLName(name); s != nil {
		return s
	}
	if r.ep.Namespace != "" && ns != "" && ns != r.ep.Namespace {
		return badRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if created {
		return nil
	}
	if rv, _ := metadataOf(cfg)["resourceVersion"].(string); rv != "" {
		if liveRV, _ := metadataOf(live)["resourceVersion"].(string); rv != liveRV {
			return modified(r.typ, r.ep.Name)
		}
	}
	return nil
}

// liveIfUpdate is live on an update, nil on a create (whose "live" object is the kind's
// empty object).
func liveIfUpdate(created bool, live map[string]any) map[string]any {
	if created {
		return nil
	}
	return live
}

// prepare runs the registry's rules for a create or an update, on the internal version's
// shape (see atHub); decoded is the object before defaulting when keepDecoded kept it.
// obj is the request's own (server.Strategy: the model rewrites it in place): the merge's
// copy, a copy of the live object, the decoded body or a conversion's output, with the
// entries encodeManaged made. kept says obj is the live object itself, field management
// having changed nothing (atHub).
func (r *request) prepare(created bool, decoded, obj, live map[string]any, kept bool) error {
	if created {
		live = nil
	}
	return r.atHub(obj, live, kept, func(t *schema.Type, obj, live map[string]any) error {
		if decoded != nil && t != r.typ {
			hd, err := r.e.model.Convert(decoded, t.GVK.APIVersion())
			if err != nil {
				return err
			}
			decoded = hd
		}
		// Mutating admission runs on the object field management made, before the
		// registry's rules (rules.md admission).
		if s := r.admitted(r.e.model.Admit(r.admissionRequest(t, obj, live))); s != nil {
			return s
		}
		if created {
			return r.e.model.PrepareForCreate(t, decoded, obj)
		}
		return r.e.model.PrepareForUpdate(t, r.ep.Subresource, decoded, obj, live)
	})
}

// prepareError is the answer for an error of prepare: the server's own refusal (an
// admission plugin's 403), or an internal error.
func prepareError(err error) *StatusError {
	var s *StatusError
	if errors.As(err, &s) {
		return s
	}
	return internalError(err.Error())
}

// keepDecoded copies obj, the object of a write before defaulting, when the model's rules
// look at it (server.Strategy.KeepDecoded); otherwise it returns nil.
func (r *request) keepDecoded(obj map[string]any) map[string]any {
	if r.e.model.KeepDecoded(r.typ, r.ep.Subresource, r.creating) {
		return unstructured.DeepCopyObject(obj)
	}
	return nil
}

// assigned lists what the server assigns in obj, the object a write of the given action
// stores (none when nothing is stored), as the model knows it.
func (r *request) assigned(action Action, obj map[string]any) []string {
	if action != ActionCreate && action != ActionUpdate {
		return nil
	}
	return r.e.model.Assigned(r.typ, action == ActionCreate, obj)
}
