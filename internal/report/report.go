package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/judge/advice"
	"github.com/ssa-diff/ssa-diff/merge"
)

// The report's type.
const (
	APIVersion = "ssa-diff/v1"
	Kind       = "Report"
)

// Exit statuses of a run.
const (
	ExitUnchanged = 0 // nothing would change
	ExitChanged   = 1 // something would change: the object or who owns what
	ExitError     = 2 // ssa-diff could not predict (usage, unreadable or malformed input)
	ExitRejected  = 3 // the server would reject at least one apply (and rejections fail)
)

// Action is what the server would do with one apply.
type Action string

// The actions.
const (
	ActionCreate    Action = "create"
	ActionUpdate    Action = "update"
	ActionUnchanged Action = "unchanged"
	ActionRejected  Action = "rejected"
	ActionError     Action = "error"
	// ActionPrune: the applier deletes the live object, which the repository no longer
	// names (Argo CD's and Flux's pruning, kubectl apply --prune).
	ActionPrune Action = "prune"
)

// Report is the whole answer of one run.
type Report struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Options    Options   `json:"options"`
	Results    []*Result `json:"results"`
	Summary    Summary   `json:"summary"`
	// Shard, in the report of one shard of a run (--shard I/N), is what Merge needs to
	// put the shards' reports back together; absent otherwise.
	Shard *Shard `json:"shard,omitempty"`
}

// Options are the settings the predictions were made with.
type Options struct {
	FieldManager string `json:"fieldManager"`
	Force        bool   `json:"force"`
	// Applier is "kubectl" (the kubectl apply --server-side sequence) or "api" (one request).
	Applier     string `json:"applier"`
	Subresource string `json:"subresource,omitempty"`
	// KubernetesVersion is the minor of the kube-apiserver predicted ("1.37").
	KubernetesVersion string `json:"kubernetesVersion"`
	// Now is the time stamped into changed managedFields entries, RFC 3339.
	Now time.Time `json:"now"`
	// Policy decides which findings fail the run (absent: DefaultPolicy).
	Policy *Policy `json:"policy,omitempty"`
}

// New returns an empty report.
func New(opts Options) *Report {
	return &Report{APIVersion: APIVersion, Kind: Kind, Options: opts, Results: []*Result{}}
}

// Result is the prediction for one manifest object.
type Result struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	// Name is the object's name; empty for a create that names only a generateName, whose
	// name the server assigns (GenerateName; rules.md create.generate-name).
	Name string `json:"name"`
	// GenerateName is the prefix of the name the server assigns, when the manifest names
	// no name (a create).
	GenerateName string `json:"generateName,omitempty"`
	// Source is where the manifest object was read.
	Source input.Source `json:"source"`
	// LiveSource is where the live object was read; absent for a create.
	LiveSource *input.Source `json:"liveSource,omitempty"`
	Action     Action        `json:"action"`
	// Changed is true when the object or its ownership would change (times alone do not count).
	Changed bool `json:"changed"`
	// Object is the object the server would store and return, with metadata.managedFields;
	// absent when the apply is rejected or could not be predicted.
	Object map[string]any `json:"object,omitempty"`
	// Conflicts are the fields other managers own with other values: why a 409 is answered,
	// or, with force, what force takes.
	Conflicts []Conflict `json:"conflicts"`
	// Ownership says, per manager, which fields change hands.
	Ownership []Ownership `json:"ownership"`
	// Deleted are fields of the live object that the apply removes because the applier
	// stopped applying them and nobody else owns them.
	Deleted []string `json:"deleted"`
	// Assigned are fields whose values only the server assigns (shown as in live, or absent
	// on a create).
	Assigned []string `json:"assigned,omitempty"`
	// Steps are the requests of the kubectl sequence, when there is more than a single apply.
	Steps []Step `json:"steps,omitempty"`
	// Error is the server's refusal (code ≥ 400) or ssa-diff's failure (code 0).
	Error    *Error   `json:"error,omitempty"`
	Warnings []string `json:"warnings"`
	// Approximations are what the prediction rests on that ssa-diff could not see: a kind
	// without a schema, an OpenAPI v2 document, a version conversion, an admission webhook
	// the live state declares. --fail-on approximate fails on them.
	Approximations []Approximation `json:"approximations,omitempty"`
	// Prune says why the applier deletes the live object (action prune).
	Prune *Prune `json:"prune,omitempty"`
	// Drift are the fields the live object has that the manifest does not set, their
	// owners, and what the write leaves of each (judge.Drift).
	Drift []DriftField `json:"drift,omitempty"`
	// SyncStatus is what the applier's GitOps controller shows of the object before the
	// sync (--sync-status): Argo CD's sync status and diff, Flux's drift detection.
	SyncStatus *judge.SyncStatus `json:"syncStatus,omitempty"`
	// Findings are what the policy judged about this result, in the order refusal,
	// conflicts, takeovers, deletions, prune, approximations, warnings.
	Findings []Finding `json:"findings,omitempty"`
	// Advice says where the apply fights the spec/status contract, and what to do instead
	// (package judge/advice: each with a stable id).
	Advice []advice.Advice `json:"advice,omitempty"`
	// State is the live object's convergence and health, apart from the apply.
	State *advice.State `json:"state,omitempty"`
	// WithForce, for an apply refused with conflicts, is what the same apply with
	// --force-conflicts would do: whom it takes fields from, and the object it leaves.
	WithForce *Result `json:"withForce,omitempty"`

	// Live and Manifest are the inputs, for the diff of the text outputs.
	Live     map[string]any `json:"-"`
	Manifest map[string]any `json:"-"`
}

// Manager names a managedFields entry.
type Manager struct {
	Manager     string `json:"manager"`
	Operation   string `json:"operation"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
	// Time is the entry's time in the live object, RFC 3339 (absent when it has none).
	Time *time.Time `json:"time,omitempty"`
}

// ManagerOf converts a fieldpath.ManagerRef.
func ManagerOf(r fieldpath.ManagerRef) Manager {
	m := Manager{Manager: r.Manager, Operation: string(r.Operation), APIVersion: r.APIVersion, Subresource: r.Subresource}
	if r.Time != nil {
		t := r.Time.UTC()
		m.Time = &t
	}
	return m
}

// Ref converts back to a fieldpath.ManagerRef.
func (m Manager) Ref() fieldpath.ManagerRef {
	return fieldpath.ManagerRef{Manager: m.Manager, Operation: fieldpath.Operation(m.Operation),
		APIVersion: m.APIVersion, Subresource: m.Subresource, Time: m.Time}
}

// String prints the manager as the API server does in conflict messages.
func (m Manager) String() string { return m.Ref().String() }

// Describe prints the manager for people: name (operation, subresource, apiVersion), the
// apiVersion only for updates.
func (m Manager) Describe() string {
	parts := []string{m.Operation}
	if m.Subresource != "" {
		parts = append(parts, "subresource "+m.Subresource)
	}
	if m.Operation != "Apply" && m.APIVersion != "" {
		parts = append(parts, m.APIVersion)
	}
	return m.Manager + " (" + strings.Join(parts, ", ") + ")"
}

// Conflict is one field another manager owns with a different value.
type Conflict struct {
	Manager
	// Owner is the manager as the server prints it ("hpa" with subresource "scale" using apps/v1).
	Owner string `json:"owner"`
	// Path is printed as the server prints it in conflict messages.
	Path string `json:"path"`
	// Pointer is Path as a JSON Pointer into the live object, when it has a position there.
	Pointer string `json:"pointer,omitempty"`
	// Live is the live value (null when absent), Applied the applied one.
	Live    any `json:"live"`
	Applied any `json:"applied"`
}

// Ownership is what one manager gains or loses.
type Ownership struct {
	Manager
	// Taken are fields this manager loses to the applier (by force).
	Taken []string `json:"taken,omitempty"`
	// Released are fields the applier no longer applies and so no longer owns.
	Released []string `json:"released,omitempty"`
	// Deleted are released fields that disappear from the object because nobody else owns them.
	Deleted []string `json:"deleted,omitempty"`
	// Gained are fields the manager newly owns.
	Gained []string `json:"gained,omitempty"`
	// Removed is true when the manager's entry disappears from managedFields.
	Removed bool `json:"removed,omitempty"`
	// MovedFrom is the apiVersion the applier's entry was recorded at before, when the
	// apply moves it to the manifest's: Gained is then every field it owns.
	MovedFrom string `json:"movedFrom,omitempty"`
}

// The reasons of approximations (package judge's).
const (
	ReasonNoSchema          = judge.ReasonNoSchema
	ReasonOpenAPIV2         = judge.ReasonOpenAPIV2
	ReasonVersionConversion = judge.ReasonVersionConversion
	ReasonWebhook           = judge.ReasonWebhook
)

// Approximation is one thing a prediction rests on that ssa-diff could not see (package
// judge says what).
type Approximation = judge.Approximation

// Prune is why an applier deletes a live object the repository no longer names.
type Prune struct {
	// Applier is the applier that prunes: kubectl, argocd or flux.
	Applier string `json:"applier"`
	// Message says what marks the object as the applier's.
	Message string `json:"message"`
}

// Step is one request of the kubectl sequence.
type Step struct {
	Description string `json:"description"`
	Manager     string `json:"manager"`
	Code        int    `json:"code"`
}

// Error is why an object has no predicted result.
type Error struct {
	// Code is the HTTP status the server would answer, or 0 when ssa-diff itself failed.
	Code int `json:"code"`
	// Reason is the Status reason (Conflict, BadRequest, Invalid …), if any.
	Reason string `json:"reason,omitempty"`
	// Message is, for the server's refusals, the server's message byte for byte.
	Message string `json:"message"`
	// Causes are the Status details' causes (for conflicts: one per field).
	Causes []merge.StatusCause `json:"causes,omitempty"`
	// Status is the refusal as the server's wire body, a v1 Status.
	Status json.RawMessage `json:"status,omitempty"`
	// Path and Line locate bad input, when known.
	Path string `json:"path,omitempty"`
	Line int    `json:"line,omitempty"`
	// Admission names the admission plugin that refused (ValidatingAdmissionPolicy,
	// PodSecurity, NamespaceLifecycle …), when one did.
	Admission string `json:"admission,omitempty"`
	// Fields are the fields a refusal is about (its causes' fields, or the fields a schema
	// error names), when it names any; conflicts have their own.
	Fields []ErrorField `json:"fields,omitempty"`
}

// DriftField is one field of the live object the manifest does not set (package judge
// finds them).
type DriftField = judge.DriftField

// ErrorField is one field a refusal is about (package judge finds them).
type ErrorField = judge.ErrorField

// Summary counts the results.
type Summary struct {
	Objects   int `json:"objects"`
	Created   int `json:"created"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Rejected  int `json:"rejected"`
	Errors    int `json:"errors"`
	// Changed counts results whose object or ownership would change.
	Changed int `json:"changed"`
	// Conflicts counts conflicting fields over all results.
	Conflicts int `json:"conflicts"`
	// Takeovers counts the fields the applier takes from other managers.
	Takeovers int `json:"takeovers"`
	// Deletions counts the fields deleted because nobody owns them any more.
	Deletions int `json:"deletions"`
	// Pruned counts the live objects the applier deletes (action prune).
	Pruned int `json:"pruned,omitempty"`
	// Approximate counts the results whose prediction rests on approximations.
	Approximate int `json:"approximate,omitempty"`
	// Failures counts the findings that fail the run.
	Failures int `json:"failures"`
	// ExitCode is the exit status of the run.
	ExitCode int `json:"exitCode"`
}

// Add appends a result.
func (r *Report) Add(res *Result) { r.Results = append(r.Results, res) }

// Summarize counts the results into r.Summary and returns it. Results without findings are
// judged by the default policy.
func (r *Report) Summarize() Summary {
	var t Tally
	for _, res := range r.Results {
		t.Add(res)
	}
	r.Summary = t.Summary()
	return r.Summary
}

// Tally counts results one at a time, for writers that do not keep them.
type Tally struct {
	s            Summary
	rejectedFail bool
	policyFail   bool
}

// Add counts one result.
func (t *Tally) Add(res *Result) {
	s := &t.s
	s.Objects++
	switch res.Action {
	case ActionCreate:
		s.Created++
	case ActionUpdate:
		s.Updated++
	case ActionUnchanged:
		s.Unchanged++
	case ActionRejected:
		s.Rejected++
	case ActionError:
		s.Errors++
	case ActionPrune:
		s.Pruned++
	}
	if len(res.Approximations) > 0 {
		s.Approximate++
	}
	if res.Changed {
		s.Changed++
	}
	s.Conflicts += len(res.Conflicts)
	for _, o := range res.Ownership {
		s.Takeovers += len(o.Taken)
	}
	s.Deletions += len(res.Deleted)
	findings := res.Findings
	if findings == nil {
		findings = Evaluate(DefaultPolicy(), res, "", nil)
	}
	for _, f := range findings {
		if !f.Fails() {
			continue
		}
		s.Failures++
		switch f.Category {
		case CategoryRejected:
			t.rejectedFail = true
		case CategoryError:
		default:
			t.policyFail = true
		}
	}
}

// Summary is the counts so far, with the exit status they make.
func (t *Tally) Summary() Summary {
	s := t.s
	switch {
	case s.Errors > 0:
		s.ExitCode = ExitError
	case t.rejectedFail:
		s.ExitCode = ExitRejected
	case t.policyFail:
		s.ExitCode = ExitPolicy
	case s.Changed > 0 || s.Rejected > 0:
		s.ExitCode = ExitChanged
	default:
		s.ExitCode = ExitUnchanged
	}
	return s
}

// Identity fills the result's apiVersion, kind, namespace and name.
func (res *Result) Identity(apiVersion, kind, namespace, name string) *Result {
	res.APIVersion, res.Kind, res.Namespace, res.Name = apiVersion, kind, namespace, name
	return res
}

// AssignedName is how every format names an object whose name the server assigns: the
// generateName prefix, then this.
const AssignedName = "<assigned>"

// DisplayName is the object's name as the formats print it: its name, or for a create that
// names only a generateName, the prefix and AssignedName (the server adds 5 random
// characters).
func (res *Result) DisplayName() string {
	if res.Name == "" && res.GenerateName != "" {
		return res.GenerateName + AssignedName
	}
	return res.Name
}

func newResult(src input.Source) *Result {
	return &Result{Source: src, Conflicts: []Conflict{}, Ownership: []Ownership{}, Deleted: []string{}, Warnings: []string{}}
}

// FromError is the result for an object ssa-diff could not predict.
func FromError(src input.Source, err error) *Result {
	res := newResult(src)
	res.Action = ActionError
	e := &Error{Message: err.Error()}
	var ie *input.Error
	if errors.As(err, &ie) {
		e.Path, e.Line = ie.Path, ie.Line
		if e.Line == 0 {
			e.Line = ie.Source.Line
		}
	}
	res.Error = e
	return res
}

// FromPrediction is the result of the engine's prediction p for manifest, applied by
// applier ("" when the applier's ownership is not known) to live (nil for a create).
func FromPrediction(src input.Source, live, manifest map[string]any, applier string, p *merge.Result) *Result {
	res := newResult(src)
	res.Live, res.Manifest = live, manifest
	res.Object = p.Object
	res.Warnings = append(res.Warnings, p.Warnings...)
	res.Assigned = p.Assigned
	for _, c := range p.Conflicts {
		res.Conflicts = append(res.Conflicts, Conflict{Manager: ManagerOf(c.Manager), Owner: c.Manager.String(),
			Path: c.Path, Pointer: c.Pointer, Live: c.Live, Applied: c.Applied})
	}
	res.Deleted = append(res.Deleted, p.Deleted...)
	for _, o := range p.Ownership {
		own := Ownership{Manager: ManagerOf(o.Manager), Taken: o.Taken, Released: o.Released, Gained: o.Gained, Removed: o.Removed, MovedFrom: o.MovedFrom}
		if o.Manager.Manager == applier && o.Manager.Operation == fieldpath.OperationApply && len(o.Released) > 0 {
			own.Deleted = intersect(o.Released, p.Deleted)
		}
		res.Ownership = append(res.Ownership, own)
	}
	if len(p.Steps) > 1 {
		for _, s := range p.Steps {
			res.Steps = append(res.Steps, Step(s))
		}
	}
	switch p.Action {
	case merge.ActionCreate:
		res.Action = ActionCreate
	case merge.ActionUpdate:
		res.Action = ActionUpdate
	case merge.ActionUnchanged:
		res.Action = ActionUnchanged
	case merge.ActionRejected:
		res.Action = ActionRejected
	default:
		res.Action = ActionError
		res.Error = &Error{Message: fmt.Sprintf("the engine answered an unknown action %q", p.Action)}
	}
	if p.Rejection != nil {
		res.Action = ActionRejected
		res.Object = nil
		res.Error = &Error{Code: p.Rejection.Code, Reason: p.Rejection.Reason, Message: p.Rejection.Message, Status: p.Rejection.Status(), Admission: p.Rejection.Admission}
		if p.Rejection.Details != nil {
			res.Error.Causes = p.Rejection.Details.Causes
		}
	}
	switch res.Action {
	case ActionCreate:
		res.Changed = true
	case ActionUpdate, ActionUnchanged:
		// An object that does not exist and is not created (a client that sends nothing
		// for it: Helm's dry run, its stop after a failed create) is no change.
		res.Changed = (live == nil) != (res.Object == nil) || live != nil && !SameIgnoringTimes(live, res.Object)
	}
	return res
}

func intersect(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if in[s] {
			out = append(out, s)
		}
	}
	return out
}

// SameIgnoringTimes reports whether two objects are equal once metadata.resourceVersion and
// the times of managedFields entries are left out: whether a write would change anything a
// person cares about. Numbers compare by value (1 and 1.0 are equal), as in JSON.
func SameIgnoringTimes(a, b map[string]any) bool {
	return sameValue(withoutTimes(a), withoutTimes(b))
}

// sameValue compares decoded JSON values: maps and lists element by element, numbers by
// value whatever their Go type, anything else as JSON would print it.
func sameValue(a, b any) bool {
	_, rawA := a.(json.RawMessage)
	_, rawB := b.(json.RawMessage)
	if rawA || rawB {
		// JSON text (fieldsV1 as a reader may keep it) against a tree or text: as printed.
		ja, err1 := json.Marshal(a)
		jb, err2 := json.Marshal(b)
		return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	if fa, ok := numberValue(a); ok {
		fb, ok := numberValue(b)
		return ok && fa == fb
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

func numberValue(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// withoutTimes is a shallow rewrite of obj without resourceVersion and entry times.
func withoutTimes(obj map[string]any) map[string]any {
	return unstructured.WithMetadata(obj, func(m map[string]any) {
		delete(m, "resourceVersion")
		mf, ok := m["managedFields"].([]any)
		if !ok {
			return
		}
		entries := make([]any, len(mf))
		for i, e := range mf {
			if em, ok := e.(map[string]any); ok {
				ec := make(map[string]any, len(em))
				for k, v := range em {
					if k != "time" {
						ec[k] = v
					}
				}
				e = ec
			}
			entries[i] = e
		}
		m["managedFields"] = entries
	})
}
