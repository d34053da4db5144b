package gate

import "github.com/ssa-diff/ssa-diff/judge"

// Outcome is what became of one write, as far as the policy cares.
type Outcome int

// The outcomes.
const (
	// Written: the server would accept the write (a create, an update, or nothing changed).
	Written Outcome = iota
	// Refused: the server would refuse the write (Write.Refusal says why).
	Refused
	// Failed: ssa-diff could not predict the write (Write.Failure says why).
	Failed
	// Pruned: the applier deletes the live object, which the repository no longer names.
	Pruned
)

// A Write is what the policy judges of one write: the typed facts of a judged prediction.
type Write struct {
	Outcome Outcome
	// APIVersion, Kind, Namespace and Name name the object.
	APIVersion, Kind, Namespace, Name string
	// Live is the live object (nil for a create), Object the one the server would store (nil
	// when refused): the ignore rules ask both.
	Live, Object map[string]any
	// File and Line are where the manifest was written: a finding is at its line unless it
	// is about a field the manifest locates.
	File string
	Line int
	// Failure is why a Failed write could not be predicted.
	Failure *Failure
	// Refusal is the server's refusal of a Refused write (nil: one the report cannot say).
	Refusal *Refusal
	// PruneMessage says why a Pruned object is deleted ("": the applier's usual words).
	PruneMessage string
	// Conflicts are the fields other managers own with other values.
	Conflicts []Conflict
	// Takeovers are the managers that lose fields to the applier.
	Takeovers []Takeover
	// Deleted are the fields the write deletes because nobody owns them any more.
	Deleted []string
	// Recreated, when the write deletes the object and creates it again, is the description
	// of the request that deletes it.
	Recreated string
	// Approximations are what the prediction rests on that ssa-diff could not see.
	Approximations []judge.Approximation
	// Warnings are the prediction's warnings (the server's among them).
	Warnings []string
}

// A Failure is why ssa-diff could not predict a write.
type Failure struct {
	Message string
	// Line is the line of the input at fault, when known (0: the manifest's).
	Line int
}

// A Refusal is the server's refusal of a write.
type Refusal struct {
	// Code is the HTTP status, Reason the Status reason, Message the server's message.
	Code    int
	Reason  string
	Message string
	// Admission names the admission plugin that refused, when one did.
	Admission string
	// Fields are the fields the refusal is about (judge.Judge.RefusalFields).
	Fields []judge.ErrorField
}

// A Conflict is one field another manager owns with another value.
type Conflict struct {
	// Manager is the owner's name, Described the owner for people (its operation,
	// subresource and apiVersion), Owner the owner as the server prints it.
	Manager, Described, Owner string
	// Path is the field, printed as the server prints it.
	Path string
	// Live and Applied are the two values (nil: absent).
	Live, Applied any
}

// A Takeover is the fields one manager loses to the applier.
type Takeover struct {
	// Manager is the manager's name, Described the manager for people.
	Manager, Described string
	// Paths are the fields taken.
	Paths []string
	// Removed: the manager's managedFields entry disappears.
	Removed bool
}
