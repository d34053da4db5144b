package report

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/judge/gate"
)

// The policy that judges results is package gate's (judge/gate): the report records it
// (Options.Policy) and each result's findings (Result.Findings). Its categories, levels
// and values are restated here for the formats that print them.

// The categories of findings (gate.Category*).
const (
	CategoryRejected    = gate.CategoryRejected
	CategoryConflict    = gate.CategoryConflict
	CategoryTakeover    = gate.CategoryTakeover
	CategoryDeletion    = gate.CategoryDeletion
	CategoryProtected   = gate.CategoryProtected
	CategoryError       = gate.CategoryError
	CategoryWarning     = gate.CategoryWarning
	CategoryPrune       = gate.CategoryPrune
	CategoryApproximate = gate.CategoryApproximate
	CategoryPolicy      = gate.CategoryPolicy
)

// The levels of findings (gate.Level*).
const (
	LevelFailure = gate.LevelFailure
	LevelWarning = gate.LevelWarning
	LevelNotice  = gate.LevelNotice
)

// ExitPolicy is the exit status of a run where a policy fails that is not about
// rejections: a --fail-on category other than rejected, or a takeover from a protected
// manager.
const ExitPolicy = 4

// Policy decides which findings fail the run (package gate).
type Policy = gate.Policy

// Finding is one thing about a result that a policy judges (package gate).
type Finding = gate.Finding

// DefaultPolicy fails on rejections only: the exit statuses of a plain run.
func DefaultPolicy() Policy { return gate.DefaultPolicy() }

// Evaluate judges a result by policy p (gate.Policy.Evaluate on res.Write()). line gives the
// manifest line of a field path (nil: the object's line is used); applier is the manager the
// apply was made as.
func Evaluate(p Policy, res *Result, applier string, line func(path string) int) []Finding {
	var locate gate.Locator
	if line != nil {
		locate = func(path string) (string, int) { return "", line(path) }
	}
	return p.Evaluate(res.Write(), applier, locate)
}

// Write is the result as the policy judges it: its outcome, refusal, conflicts, takeovers,
// deletions, approximations and warnings.
func (res *Result) Write() gate.Write {
	w := gate.Write{APIVersion: res.APIVersion, Kind: res.Kind, Namespace: res.Namespace, Name: res.Name,
		Live: res.Live, Object: res.Object, File: res.Source.File, Line: res.Source.Line,
		Deleted: res.Deleted, Approximations: res.Approximations, Warnings: res.Warnings}
	switch res.Action {
	case ActionError:
		w.Outcome = gate.Failed
		if e := res.Error; e != nil {
			w.Failure = &gate.Failure{Message: e.Message, Line: e.Line}
		}
	case ActionRejected:
		w.Outcome = gate.Refused
		if e := res.Error; e != nil {
			w.Refusal = &gate.Refusal{Code: e.Code, Reason: e.Reason, Message: e.Message, Admission: e.Admission, Fields: e.Fields}
		}
	case ActionPrune:
		w.Outcome = gate.Pruned
		if res.Prune != nil {
			w.PruneMessage = res.Prune.Message
		}
	}
	for _, c := range res.Conflicts {
		w.Conflicts = append(w.Conflicts, gate.Conflict{Manager: c.Manager.Manager, Described: c.Manager.Describe(), Owner: c.Owner,
			Path: c.Path, Live: c.Live, Applied: c.Applied})
	}
	for _, o := range res.Ownership {
		if len(o.Taken) > 0 {
			w.Takeovers = append(w.Takeovers, gate.Takeover{Manager: o.Manager.Manager, Described: o.Manager.Describe(), Paths: o.Taken, Removed: o.Removed})
		}
	}
	for _, s := range res.Steps {
		if strings.HasPrefix(s.Description, "delete") {
			w.Recreated = s.Description
			break
		}
	}
	return w
}
