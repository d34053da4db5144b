package merge

import "fmt"

// Verb is the kind of a write request (rules.md write.paths): an apply, or an update by
// PUT, PATCH or POST.
type Verb string

// The verbs.
const (
	// VerbApply is a server-side apply (PATCH, application/apply-patch+yaml): Engine.Apply.
	VerbApply Verb = "apply"
	// VerbUpdate is a PUT of the whole object: Engine.Update.
	VerbUpdate Verb = "update"
	// VerbPatch is a PATCH that is not an apply (Request.Patch): Engine.Patch.
	VerbPatch Verb = "patch"
	// VerbCreate is a POST: Engine.Create.
	VerbCreate Verb = "create"
)

// Verbs are the verbs, the apply first.
var Verbs = []Verb{VerbApply, VerbUpdate, VerbPatch, VerbCreate}

// ParseVerb reads a verb by its name.
func ParseVerb(s string) (Verb, error) {
	for _, v := range Verbs {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("unknown verb %q: one of apply, update, patch, create", s)
}

// Send predicts a request of verb v: Apply, Update, Patch or Create.
func (e *Engine) Send(v Verb, req Request) (*Result, error) {
	switch v {
	case VerbApply, "":
		return e.Apply(req)
	case VerbUpdate:
		return e.Update(req)
	case VerbPatch:
		return e.Patch(req)
	case VerbCreate:
		return e.Create(req)
	}
	return nil, fmt.Errorf("%w: the verb %q", ErrNotPredictable, v)
}
