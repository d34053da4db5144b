package merge

import (
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// A Sequence is the requests one client sends for one object, predicted one after the
// other: `kubectl apply --server-side` sends up to four, a GitOps controller patches
// managedFields before it applies (package appliers models them). Each request's
// live object is the previous one's answer. A Sequence remembers what the first request
// found: the object as the server holds it, which a later request's live object at
// another version cannot always say (an autoscaling/v1 read of an HPA loses the order of
// its metrics), and the object before the first write, against which Summarize describes
// the sequence as one Result.
type Sequence struct {
	e     *Engine
	first admitted
	// given is the live object as the caller gave it, before it was read at the
	// request's version.
	given map[string]any
	// last is the answer to the sequence's last request (admitted.prior for the next).
	last *Result
}

// Begin starts the sequence client c sends for req's object. When the server refuses the
// request before any field management (a kind or version it does not serve: rules.md version.not-served;
// a kind it only reads), refused is the answer and there is no sequence. An error wraps
// ErrNotPredictable when the live object cannot be read at the request's version offline.
func (e *Engine) Begin(req Request, c Client) (seq *Sequence, refused *Result, err error) {
	return e.begin(req, c, nil)
}

// begin is Begin, given the object as the server holds it at the hub version (hubLive)
// when a sequence around this one knows it.
func (e *Engine) begin(req Request, c Client, hubLive map[string]any) (*Sequence, *Result, error) {
	given := req.Live
	a, refused, err := e.admit(req, c, hubLive)
	if refused != nil || err != nil {
		return nil, refused, err
	}
	return &Sequence{e: e, first: a, given: given}, nil, nil
}

// Request is the sequence's first request as the server takes it: Endpoint filled in and
// Live read at the request's version.
func (s *Sequence) Request() Request { return s.first.Request }

// Live is the object before the sequence's first request, read at the request's version,
// with numbers as the server decodes them; nil when the sequence creates it.
func (s *Sequence) Live() map[string]any { return unstructured.AsDecoded(s.first.Live) }

// Apply predicts one apply of the sequence. Its Result's Ownership, Deleted and Assigned
// are filled only by Finish: most steps are not the sequence's answer, and need not pay for
// them.
func (s *Sequence) Apply(req Request) (*Result, error) {
	a := admitted{Request: req, hubLive: hubLiveFor(req, s.first), prior: s.last}
	if endpointOf(req).GVK == s.first.Endpoint.GVK {
		a.kind = s.first.kind // the kind the first request resolved
	}
	return s.answered(s.e.applyStep(a))
}

// Update predicts one update of the sequence, as Engine.Update does.
func (s *Sequence) Update(req Request) (*Result, error) {
	return s.answered(s.e.update(req, hubLiveFor(req, s.first), s.last))
}

// Patch predicts one patch of the sequence, as Engine.Patch does.
func (s *Sequence) Patch(req Request) (*Result, error) {
	return s.answered(s.e.patch(req, hubLiveFor(req, s.first), s.last))
}

// answered records res as the sequence's last answer.
func (s *Sequence) answered(res *Result, err error) (*Result, error) {
	if res != nil {
		s.last = res
	}
	return res, err
}

// Create predicts one create of the sequence, as Engine.Create does.
func (s *Sequence) Create(req Request) (*Result, error) {
	return s.answered(s.e.createRequest(req, hubLiveFor(req, s.first)))
}

// Continue begins, as Begin does, a sequence of client c inside this one: a GitOps
// controller that runs kubectl's apply after patches of its own.
func (s *Sequence) Continue(req Request, c Client) (*Sequence, *Result, error) {
	return s.e.begin(req, c, hubLiveFor(req, s.first))
}

// WithManagedFields is a copy of obj whose metadata.managedFields are entries, written as
// the engine writes them: the body of a client's patch of managedFields. No entries
// remove the field.
func (s *Sequence) WithManagedFields(obj map[string]any, entries []fieldpath.Entry) (map[string]any, error) {
	next := unstructured.DeepCopyObject(obj)
	if err := setManagedFields(next, entries, s.e.compactManagedFields); err != nil {
		return nil, err
	}
	return next, nil
}

// Outcome is what a sequence came to, for Summarize.
type Outcome struct {
	// Manager is the applier: Ownership reports what it gains and what others lose.
	Manager string
	// Final is the object the last successful request left.
	Final map[string]any
	// First is the result of the request that decides the outcome (the apply): its
	// Endpoint and Conflicts are the sequence's, and its Action when Final cannot be
	// compared with the live object.
	First *Result
	// Steps and Warnings are the sequence's.
	Steps    []Step
	Warnings []string
	// Created says the sequence created the object.
	Created bool
}

// Summarize describes the sequence as one Result relative to the object before its first
// request (Live): whether the object changed at all, who lost which fields over the
// whole sequence (entries a client renamed or merged away included), what disappeared,
// and what the server assigns.
func (s *Sequence) Summarize(o Outcome) *Result {
	return s.e.summarize(s.first.Request, s.Live(), o, s.last)
}

// Finish is res as the sequence's answer: its Ownership, Deleted and Assigned filled in,
// the placeholder uid of Stored removed, and Live set when the object given was read at
// another version.
func (s *Sequence) Finish(res *Result) *Result {
	if res == nil {
		return nil
	}
	dropPlaceholderUID(res.Object)
	return readAs(res.complete(), s.given, s.first.Live)
}

// AsStored is Engine.AsStored for an answer of this sequence that sends nothing.
func (s *Sequence) AsStored(res *Result) *Result {
	return s.e.AsStored(s.first.Endpoint, res)
}

// placeholderUID stands for the uid the server gives an object it creates.
const placeholderUID = "ssa-diff-assigned-by-the-server"

// Stored is the object a later request of the sequence finds after res: res.Object
// itself, which on a create gets a uid, as the stored object has one (a placeholder, which
// Finish and Summarize remove).
func (s *Sequence) Stored(res *Result) map[string]any {
	if res.Action == ActionCreate && res.Object != nil {
		ensureMetadata(res.Object)["uid"] = placeholderUID
	}
	return res.Object
}

func dropPlaceholderUID(obj map[string]any) {
	if md := metadataOf(obj); md != nil && md["uid"] == placeholderUID {
		delete(md, "uid")
	}
}

// StatusCode is the HTTP status of the server's answer: the refusal's code, 201 for a
// create, 200 otherwise.
func (res *Result) StatusCode() int {
	switch {
	case res.Rejection != nil:
		return res.Rejection.Code
	case res.Action == ActionCreate:
		return 201
	default:
		return 200
	}
}

// summarize is Summarize for a sequence whose first request is req, on orig; last is the
// answer to its last request.
func (e *Engine) summarize(req Request, orig map[string]any, o Outcome, last *Result) *Result {
	obj, first := o.Final, o.First
	dropPlaceholderUID(obj)
	res := &Result{Endpoint: first.Endpoint, Object: obj, Conflicts: first.Conflicts, Steps: o.Steps, Warnings: o.Warnings, Assigned: first.Assigned}
	// What the server assigns is read from the sequence's outcome, as of one write.
	res.ManagedFields, _, _ = managedFieldsOf(obj)
	origEntries, _, _ := managedFieldsOf(orig)
	r, err := e.newRequest(admitted{Request: Request{Endpoint: first.Endpoint, Live: orig, Object: req.Object, Now: req.Now}})
	if err != nil {
		res.Action = first.Action
		return res
	}
	if !e.compactManagedFields {
		// The object holds trees, which have no order: the entries are written again
		// as the server answers them (rules.md encode.key-order).
		res.ManagedFields = r.reencoded(res.ManagedFields)
	}
	switch {
	case o.Created:
		res.Action = ActionCreate
	case r.unchanged(orig, origEntries, obj, res.ManagedFields):
		res.Action = ActionUnchanged
		res.Object = unstructured.DeepCopyObject(orig)
		res.ManagedFields = r.storedEntries(res.Object, origEntries, res.ManagedFields)
	default:
		res.Action = ActionUpdate
	}
	res.Assigned = r.assigned(res.Action, res.Object)
	before, after := fieldpath.NewManaged(), fieldpath.NewManaged()
	if origEntries != nil {
		// The first request decoded the same entries, most often.
		m, ok := first.ManagedFieldsDecoded(origEntries)
		if !ok {
			var err error
			m, err = fieldpath.Decode(origEntries)
			ok = err == nil
		}
		if ok {
			before = m
			res.decodedLive = &decodedEntries{entries: origEntries, managed: m}
		}
	}
	// The final object is most often the first request's (an applier of one request) or
	// the last request's.
	if m, ok := first.ManagedFieldsDecoded(res.ManagedFields); ok {
		after = m
	} else if m, ok := last.ManagedFieldsDecoded(res.ManagedFields); ok {
		after = m
	} else if m, err := fieldpath.Decode(res.ManagedFields); err == nil {
		after = m
	}
	res.Ownership = r.ownershipChanges(before, after, r.managerKey(o.Manager, fieldpath.OperationApply))
	if !o.Created {
		res.Deleted = r.deletedFields(orig, res.Object)
	}
	return res
}
