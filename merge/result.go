package merge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Endpoint is the URL a request goes to: a resource of one group, version and kind, one
// object in it, and optionally a subresource ("status" or "scale").
type Endpoint struct {
	GVK         schema.GVK
	Namespace   string
	Name        string
	Subresource string
}

// Request is one write to the API server. The engine never changes Live or Object, and
// no result shares maps or lists with them: callers may reuse both.
type Request struct {
	// Live is the object as the server stores it, with metadata.managedFields, or nil when
	// the object does not exist (the request creates it).
	Live map[string]any
	// Object is the request body: the apply configuration for Apply, the whole new object
	// for Update and Create. Through /scale it is an autoscaling/v1 Scale.
	Object map[string]any
	// Patch is the body of a PATCH that is not an apply (Patch); the other verbs ignore it.
	Patch Patch
	// Endpoint is where the request goes. Left zero, it is taken from Live, or from Object
	// on a create; when Object is the live object's group and kind at another version, the
	// request goes to Object's version, as clients send a body to its apiVersion's URL.
	Endpoint Endpoint
	// Manager is the fieldManager query parameter (for updates: the manager name used).
	Manager string
	// Force is force=true (apply only): conflicts are overridden, fields taken.
	Force bool
	// Now is the time the server stamps into changed managedFields entries.
	Now time.Time
	// Source names where the body came from, as kubectl names it in its messages (the
	// file given to -f, STDIN for standard input); only kubectl's own refusals print it.
	Source string
	// Unforced, on an apply with Force, is the engine's answer to the same apply without
	// force when that was refused with conflicts (the forced request a client sends
	// next): the apply then takes those conflicts from the walks that answer made
	// instead of making them again. An answer to any other request is ignored (the
	// objects, entries, endpoint, manager and time must be the same), and none is
	// changed.
	Unforced *Result
}

// Action is what the server does with a request.
type Action string

// The actions.
const (
	ActionCreate    Action = "create"
	ActionUpdate    Action = "update"
	ActionUnchanged Action = "unchanged"
	ActionRejected  Action = "rejected"
)

// Result is the prediction for one request.
type Result struct {
	Endpoint Endpoint `json:"-"`
	Action   Action   `json:"action"`
	// Object is the object as the server would store and return it, metadata.managedFields
	// included; nil when the request is rejected.
	Object map[string]any `json:"object,omitempty"`
	// ManagedFields are the entries of Object's metadata.managedFields.
	ManagedFields []fieldpath.Entry `json:"-"`
	// Live is the live object as the request's version reads it, when the one given was
	// at another version of the kind (the server converts the stored object to the
	// request's version: rules.md version.conversion); nil otherwise. Object is at the request's version:
	// compare it with Live, not with the object given.
	Live map[string]any `json:"-"`
	// Conflicts are the conflicts of the apply: the reason for a 409, or, with force, the
	// fields that force took.
	Conflicts []Conflict `json:"conflicts,omitempty"`
	// Ownership says, per manager, which fields change hands.
	Ownership []OwnershipChange `json:"ownership,omitempty"`
	// Deleted are fields present in the live object that the request removes because the
	// applier stopped applying them and nobody else owns them (rules.md prune.when).
	Deleted []string `json:"deleted,omitempty"`
	// Rejection is the server's refusal (409 conflicts, 400, 422, 500 …) or nil.
	Rejection *StatusError `json:"error,omitempty"`
	// Warnings say where the prediction rests on assumptions (deduced schemas, versions
	// converted, values only the server can assign …).
	Warnings []string `json:"warnings,omitempty"`
	// Assigned lists paths whose values the server assigns (uid, a Service's clusterIP …):
	// the prediction shows them as in live, or leaves them out on a create.
	Assigned []string `json:"assigned,omitempty"`
	// Steps are the requests a client sequence made (the kubectl applier), in order.
	Steps []Step `json:"steps,omitempty"`

	// describe fills Ownership, Deleted and Assigned. A step of a client sequence leaves
	// it for later: only the step whose result is the sequence's answer pays for it.
	describe func()
	// decodedLive is the live object's managedFields as the request decoded them, which
	// readers of the result need again (ManagedFieldsDecoded).
	decodedLive *decodedEntries
	// decodedOwn is the decoding of the entries the request encoded, which readers of
	// the result decode again (ManagedFieldsDecoded); nil when it was not vouched for.
	decodedOwn *encodedEntries
	// unforced, on an apply refused with conflicts, is what the same apply with force
	// takes from it (Request.Unforced).
	unforced *unforcedApply
}

// decodedEntries are managedFields entries and their decoding (fieldpath.Decode), never
// changed.
type decodedEntries struct {
	entries []fieldpath.Entry
	managed fieldpath.Managed
}

// ManagedFieldsDecoded is fieldpath.Decode(entries) without decoding them again when they
// are entries the prediction decoded — the live object's managedFields (which are also
// the result's when nothing changes) — and false otherwise: decoding a live object's
// field sets is as costly as a good part of its prediction. The field sets returned are
// shared: read them, never change them.
func (res *Result) ManagedFieldsDecoded(entries []fieldpath.Entry) (fieldpath.Managed, bool) {
	if res == nil {
		return fieldpath.Managed{}, false
	}
	if res.decodedLive != nil && sameEntries(res.decodedLive.entries, entries) {
		return res.decodedLive.managed, true
	}
	if res.decodedOwn != nil {
		return res.decodedOwn.match(entries)
	}
	return fieldpath.Managed{}, false
}

// encodedEntries are the entries a request encoded from its field sets, with what
// fieldpath.Managed.EncodeDecoded vouched is their decoding: the entries as encoded, each
// one's fieldsV1 also as the object holds it (canonical text, which decodes to the same
// set; nil when the object holds a tree), and its identity.
type encodedEntries struct {
	entries []fieldpath.Entry
	text    [][]byte
	keys    []string
	fields  smdpath.ManagedFields
	// writer wrote the entries' fieldsV1 from the sets in fields.
	writer fieldsWriter
}

// knownText is the fieldsV1 the entries res encoded hold for a set, by the identity of the
// set, when w is the writer that wrote them (fieldpath.KnownText); nil when there are none.
// The next request of a sequence, which takes the sets of those entries as its live ones
// (decodeLive), leaves most of them as they are.
func (res *Result) knownText(w fieldsWriter) fieldpath.KnownText {
	if res == nil || res.decodedOwn == nil || res.decodedOwn.writer != w || w.e.noShortcuts {
		return nil
	}
	e := res.decodedOwn
	return func(s *smdpath.Set) ([]byte, bool) {
		for i, key := range e.keys {
			if vs, ok := e.fields[key]; ok && vs.Set() == s {
				return e.entries[i].FieldsV1, true
			}
		}
		return nil, false
	}
}

// newEncodedEntries records entries and their decoding d (as EncodeDecoded gave them), and
// the fieldsV1 text of obj's managedFields when they are these entries written by
// setManagedFields.
func newEncodedEntries(entries []fieldpath.Entry, d fieldpath.Managed, obj map[string]any) *encodedEntries {
	e := &encodedEntries{entries: entries, keys: make([]string, len(entries)), fields: d.Fields}
	for i := range entries {
		e.keys[i] = fieldpath.ManagerKey(entries[i])
	}
	if list, ok := metadataOf(obj)["managedFields"].([]any); ok && len(list) == len(entries) {
		e.text = make([][]byte, len(entries))
		for i, item := range list {
			m, _ := item.(map[string]any)
			if raw, ok := m["fieldsV1"].(json.RawMessage); ok {
				e.text[i] = raw
			}
		}
	}
	return e
}

// match is fieldpath.Decode(entries) when entries are the encoded ones to the identity and
// the fieldsV1 (as encoded or as the object holds them), times aside: the times are the
// entries', as Decode's are.
func (e *encodedEntries) match(entries []fieldpath.Entry) (fieldpath.Managed, bool) {
	if len(entries) != len(e.entries) {
		return fieldpath.Managed{}, false
	}
	for i := range entries {
		x, y := &entries[i], &e.entries[i]
		if x.Manager != y.Manager || x.Operation != y.Operation || x.APIVersion != y.APIVersion || x.FieldsType != y.FieldsType || x.Subresource != y.Subresource {
			return fieldpath.Managed{}, false
		}
		if !bytes.Equal(x.FieldsV1, y.FieldsV1) && (e.text == nil || e.text[i] == nil || !bytes.Equal(x.FieldsV1, e.text[i])) {
			return fieldpath.Managed{}, false
		}
	}
	m := fieldpath.Managed{Fields: e.fields, Times: make(map[string]*time.Time, len(entries))}
	for i := range entries {
		m.Times[e.keys[i]] = entries[i].Time
	}
	return m, true
}

// sameEntries reports whether a and b are the same entries, to the byte and the time's
// representation, so that decoding either gives the same.
func sameEntries(a, b []fieldpath.Entry) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Manager != y.Manager || x.Operation != y.Operation || x.APIVersion != y.APIVersion || x.FieldsType != y.FieldsType ||
			x.Subresource != y.Subresource || !bytes.Equal(x.FieldsV1, y.FieldsV1) || (x.Time == nil) != (y.Time == nil) || x.Time != nil && *x.Time != *y.Time {
			return false
		}
	}
	return true
}

// complete fills what a step's result left for later.
func (res *Result) complete() *Result {
	if f := res.describe; f != nil {
		res.describe = nil
		f()
	}
	return res
}

// Step is one request of a client's sequence and its outcome.
type Step struct {
	Description string `json:"description"`
	Manager     string `json:"manager"`
	Code        int    `json:"code"`
}

// Conflict is one field another manager owns with a different value.
type Conflict struct {
	// Manager is the owning entry, as recorded in the live object.
	Manager fieldpath.ManagerRef `json:"manager"`
	// Path is printed as the server prints it in conflict messages.
	Path string `json:"path"`
	// Pointer is Path as a JSON Pointer into the live object ("" when it has no position).
	Pointer string `json:"pointer,omitempty"`
	// Live is the value in the live object (nil when absent); Applied the value applied.
	Live    any `json:"live"`
	Applied any `json:"applied"`

	FieldPath smdpath.Path `json:"-"`
}

// OwnershipChange is what one manager gains or loses in a request.
type OwnershipChange struct {
	Manager fieldpath.ManagerRef `json:"manager"`
	// Taken are fields this manager loses to the writer (forced apply or an update).
	Taken []string `json:"taken,omitempty"`
	// Released are fields the writer (applier) owned and no longer does.
	Released []string `json:"released,omitempty"`
	// Gained are fields the writer newly owns.
	Gained []string `json:"gained,omitempty"`
	// MovedFrom is the apiVersion the writer's entry was recorded at before the write, when
	// the write moved it to another (rules.md version.own-version): its fields before and after are paths of
	// two versions, so Gained lists every field it owns now and Released none (the fields it
	// stopped owning that disappear are in Result.Deleted).
	MovedFrom string `json:"movedFrom,omitempty"`
	// Removed is true when the entry disappears from managedFields.
	Removed bool `json:"removed,omitempty"`
}

// StatusError is a refusal as the API server words it (a metav1.Status).
type StatusError struct {
	Code    int            `json:"code"`
	Reason  string         `json:"reason,omitempty"`
	Message string         `json:"message"`
	Details *StatusDetails `json:"details,omitempty"`
	// Admission names the admission plugin that refused (NamespaceLifecycle, PodSecurity,
	// ValidatingAdmissionPolicy …; rules.md admission); empty for the refusals of field
	// management, decoding and validation.
	Admission string `json:"admission,omitempty"`
	// PlainText says the server answers with Message as a plain-text body, not a Status:
	// its mux does so for URLs of API groups it has no handler for (404 page not found).
	PlainText bool `json:"plainText,omitempty"`
}

// StatusDetails are the details of a Status.
type StatusDetails struct {
	Name   string        `json:"name,omitempty"`
	Group  string        `json:"group,omitempty"`
	Kind   string        `json:"kind,omitempty"`
	Causes []StatusCause `json:"causes,omitempty"`
}

// StatusCause is one cause of a Status.
type StatusCause struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%d: %s", e.Code, e.Message)
}

// Status returns the error as the server's wire body, a v1 Status object, in the server's
// field order, as encoding/json writes it (HTML characters escaped); nil when the server
// answers with plain text (PlainText). It is written field by field: encoding/json's first
// use of a struct type works out its fields by reflection, most of what a small refused
// run spent on the body (FuzzStatusIsEncodingJSON holds the bytes to encoding/json's).
func (e *StatusError) Status() json.RawMessage {
	if e.PlainText {
		return nil
	}
	b := append(make([]byte, 0, 128+len(e.Message)), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure"`...)
	b = appendMember(b, "message", e.Message)
	b = appendMember(b, "reason", e.Reason)
	if d := e.Details; d != nil {
		b = append(b, `,"details":{`...)
		n := len(b)
		b = appendMember(b, "name", d.Name)
		b = appendMember(b, "group", d.Group)
		b = appendMember(b, "kind", d.Kind)
		if len(d.Causes) > 0 {
			b = append(b, `,"causes":[`...)
			for i, c := range d.Causes {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, '{')
				m := len(b)
				b = appendMember(b, "reason", c.Reason)
				b = appendMember(b, "message", c.Message)
				b = appendMember(b, "field", c.Field)
				b = dropFirstComma(b, m)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = dropFirstComma(b, n)
		b = append(b, '}')
	}
	b = append(b, `,"code":`...)
	b = strconv.AppendInt(b, int64(e.Code), 10)
	return append(b, '}')
}

// appendMember appends `,"name":value` to b, the string value quoted as encoding/json
// writes it, unless value is empty (omitempty).
func appendMember(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(append(append(b, `,"`...), name...), `":`...)
	b, _ = fieldsjson.AppendString(b, value) // never fails: invalid UTF-8 is written as \ufffd
	return b
}

// dropFirstComma removes the comma appendMember wrote at b[at], the first member of an
// object that starts there.
func dropFirstComma(b []byte, at int) []byte {
	if len(b) > at && b[at] == ',' {
		return append(b[:at], b[at+1:]...)
	}
	return b
}
