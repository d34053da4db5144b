package gate

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A Locator gives the file and line a field path of the manifest was written at (line 0:
// not found); a field of a rendered object may be written in another file than the object
// (a kustomize patch).
type Locator func(path string) (file string, line int)

// Evaluate judges a write: the findings in the order refusal (or failure, or prune),
// conflicts, takeovers, deletions, approximations, warnings. applier is the manager the
// write was made as; locate gives the manifest's file and line of a field path (nil: the
// object's line is used).
func (p Policy) Evaluate(w Write, applier string, locate Locator) []Finding {
	out := []Finding{}
	at := func(f Finding, paths ...string) Finding {
		f.Line = w.Line
		if locate != nil && len(paths) > 0 {
			if file, l := locate(paths[0]); l > 0 {
				f.Line = l
				if file != w.File {
					f.File = file
				}
			}
		}
		return f
	}
	switch w.Outcome {
	case Failed:
		out = append(out, p.failure(w))
	case Refused:
		f := p.refusal(w)
		if len(f.Paths) > 0 {
			f = at(f, f.Paths...) // at the first field the refusal names
		}
		out = append(out, f)
	case Pruned:
		msg := "the applier deletes this live object: the repository no longer names it"
		if w.PruneMessage != "" {
			msg = w.PruneMessage
		}
		out = append(out, Finding{Category: CategoryPrune, Level: p.level(CategoryPrune), Message: msg, Line: w.Line})
	}
	for _, c := range w.Conflicts {
		out = append(out, at(p.conflict(w, c), c.Path))
	}
	for _, t := range w.Takeovers {
		if len(t.Paths) > 0 {
			out = append(out, at(p.takeover(t, applier), t.Paths...))
		}
	}
	if len(w.Deleted) > 0 {
		out = append(out, at(Finding{Category: CategoryDeletion, Level: p.level(CategoryDeletion), Paths: w.Deleted,
			Message: fmt.Sprintf("deletes %d field%s nobody else owns: %s", len(w.Deleted), plural(len(w.Deleted)), listPaths(w.Deleted))}, w.Deleted...))
	}
	if w.Recreated != "" {
		out = append(out, Finding{Category: CategoryDeletion, Level: p.level(CategoryDeletion), Line: w.Line,
			Message: "the object is deleted and created again (" + w.Recreated + "): every other manager's fields are lost"})
	}
	out = append(out, p.notes(w)...)
	p.hide(w, out)
	return out
}

// level is the level of a finding of category: failure when the policy fails on it.
func (p Policy) level(category string) string {
	if p.fails(category) {
		return LevelFailure
	}
	return LevelWarning
}

// failure is the finding of a write ssa-diff could not predict: it always fails.
func (p Policy) failure(w Write) Finding {
	msg, l := "ssa-diff could not predict this object", w.Line
	if e := w.Failure; e != nil {
		msg = e.Message
		if e.Line > 0 {
			l = e.Line
		}
	}
	return Finding{Category: CategoryError, Level: LevelFailure, Message: msg, Line: l}
}

// refusal is the finding of a refused write, with the fields it is about (at the object's
// line: Evaluate places it at the first field).
func (p Policy) refusal(w Write) Finding {
	msg := "the server would refuse the apply"
	e := w.Refusal
	if e != nil {
		reason := e.Reason
		if reason != "" {
			reason = " " + reason
		}
		msg = fmt.Sprintf("the server would refuse the apply (%d%s): %s", e.Code, reason, e.Message)
	}
	f := Finding{Category: CategoryRejected, Level: p.level(CategoryRejected), Message: msg, Line: w.Line}
	if e == nil {
		return f
	}
	if PolicyPlugin(e.Admission) && p.fails(CategoryPolicy) {
		f.Level = LevelFailure // denied by policy
	}
	for _, fe := range e.Fields {
		f.Paths = append(f.Paths, fe.Path)
		if fe.DidYouMean != "" {
			f.Message += fmt.Sprintf(" (%s: did you mean %s?)", fe.Path, fe.DidYouMean)
		}
	}
	return f
}

// conflict is the finding of one conflict: refused, or forced (taken by a write the server
// accepts).
func (p Policy) conflict(w Write, c Conflict) Finding {
	f := Finding{Category: CategoryConflict, Manager: c.Manager, Paths: []string{c.Path}, Level: p.level(CategoryConflict)}
	live, applied := shortValues(c.Live, c.Applied)
	values := fmt.Sprintf("live %s, applied %s", live, applied)
	if secretPath(w, c.Path) {
		values = "values hidden: a Secret's data"
	}
	if w.Outcome == Refused {
		f.Message = fmt.Sprintf("conflict with %s: %s (%s)", c.Owner, c.Path, values)
		return f
	}
	f.Message = fmt.Sprintf("forced: %s is taken from %s (%s)", c.Path, c.Described, values)
	if p.Allowed(c.Manager) {
		f.Level = LevelNotice
	}
	return f
}

// takeover is the finding of the fields one manager loses.
func (p Policy) takeover(t Takeover, applier string) Finding {
	f := Finding{Category: CategoryTakeover, Manager: t.Manager, Paths: t.Paths}
	what := fmt.Sprintf("%d field%s", len(t.Paths), plural(len(t.Paths)))
	f.Message = fmt.Sprintf("takes %s from %s: %s", what, t.Described, listPaths(t.Paths))
	switch {
	case p.Protected(t.Manager):
		f.Category, f.Level = CategoryProtected, LevelFailure
		f.Message = fmt.Sprintf("takes %s from %s, which --protect protects: %s", what, t.Described, listPaths(t.Paths))
	case t.Manager == applier || p.Allowed(t.Manager):
		f.Level = LevelNotice
	default:
		f.Level = p.level(CategoryTakeover)
	}
	if t.Removed {
		f.Message += " (its managedFields entry is removed)"
	}
	return f
}

// notes are the findings of the approximations and the warnings (a warning an
// approximation says is not said twice).
func (p Policy) notes(w Write) []Finding {
	var out []Finding
	approx := map[string]bool{}
	for _, a := range w.Approximations {
		approx[a.Message] = true
		out = append(out, Finding{Category: CategoryApproximate, Reason: a.Reason, Level: p.level(CategoryApproximate), Message: a.Message, Line: w.Line})
	}
	for _, msg := range w.Warnings {
		switch {
		case approx[msg]:
		case PolicyWarning(msg):
			out = append(out, Finding{Category: CategoryPolicy, Level: p.level(CategoryPolicy), Message: msg, Line: w.Line})
		default:
			out = append(out, Finding{Category: CategoryWarning, Level: LevelWarning, Message: msg, Line: w.Line})
		}
	}
	return out
}

// ignoredNote ends the message of a finding the ignore rules make a notice.
const ignoredNote = " (ignored: --ignore-path/--ignore-manager)"

// hide makes notices of the findings the ignore rules cover: a forced conflict, a takeover
// or a deletion whose every field is hidden, or whose manager is ignored. A refusal stays
// what it is — the server refuses a conflict whoever owns the field — and so do the
// conflicts of a refused apply and takeovers from a --protect manager.
func (p Policy) hide(w Write, out []Finding) {
	oi := p.Ignore.For(w.APIVersion, w.Kind, w.Namespace, w.Name, w.Live, w.Object)
	if oi == nil {
		return
	}
	for i := range out {
		f := &out[i]
		switch f.Category {
		case CategoryConflict:
			if w.Outcome == Refused {
				continue
			}
		case CategoryTakeover, CategoryDeletion:
		default:
			continue
		}
		if len(f.Paths) == 0 {
			continue
		}
		covered := f.Manager != "" && oi.Manager(f.Manager)
		if !covered {
			covered = true
			for _, path := range f.Paths {
				covered = covered && oi.Covers(path, w.Live, w.Object)
			}
		}
		if covered {
			f.Level = LevelNotice
			f.Message += ignoredNote
		}
	}
}

// PolicyPlugin reports the admission plugins whose refusals are a policy's: the
// admission policies and PodSecurity (Refusal.Admission).
func PolicyPlugin(name string) bool {
	switch name {
	case "ValidatingAdmissionPolicy", "MutatingAdmissionPolicy", "PodSecurity":
		return true
	}
	return false
}

// The words the server's warnings from policies start with, after the prediction's own
// lead-in for the server's warnings.
const (
	serverWarningLead       = "the server would warn: "
	policyWarningLead       = "Validation failed for ValidatingAdmissionPolicy "
	podSecurityWarningLead  = "would violate PodSecurity "
	podSecurityExistingLead = "existing pods in namespace "
)

// PolicyWarning reports a warning of a prediction that is the server's warning from an
// admission policy (a Warn action) or PodSecurity (its warn level, a namespace's new
// enforce level that existing Pods violate).
func PolicyWarning(w string) bool {
	s, ok := strings.CutPrefix(w, serverWarningLead)
	return ok && (strings.HasPrefix(s, policyWarningLead) || strings.HasPrefix(s, podSecurityWarningLead) || strings.HasPrefix(s, podSecurityExistingLead))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// shortValue prints a value in one line, cut to 40 characters.
func shortValue(v any) string {
	if v == nil {
		return "absent"
	}
	s := fmt.Sprintf("%v", v)
	if b, err := jsonCompact(v); err == nil {
		s = b
	}
	return Cut(s, 40)
}

// shortValues prints two values as shortValue does, but differently when they differ.
func shortValues(a, b any) (string, string) {
	sa, sb := shortValue(a), shortValue(b)
	if sa != sb || a == nil || b == nil {
		return sa, sb
	}
	ja, err1 := jsonCompact(a)
	jb, err2 := jsonCompact(b)
	if err1 != nil || err2 != nil || ja == jb {
		return sa, sb
	}
	return CutApart(ja, jb, 40)
}

// Cut shortens s to max runes, the last an ellipsis, when it is longer.
func Cut(s string, max int) string {
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// CutApart shortens two different texts to max runes each so that they still differ:
// when cutting their ends makes them the same, each shows the same window of runes around
// the first one where they differ, an ellipsis for what is left out on either side.
func CutApart(a, b string, max int) (string, string) {
	ca, cb := Cut(a, max), Cut(b, max)
	if ca != cb || a == b || max < 8 {
		return ca, cb
	}
	ra, rb := []rune(a), []rune(b)
	d := 0
	for d < len(ra) && d < len(rb) && ra[d] == rb[d] {
		d++
	}
	// A window of max-2 runes (an ellipsis each side), the difference a third in, or as
	// far in as the longer text's end leaves it; both windows start at the same rune.
	width := max - 2
	longer := len(ra)
	if len(rb) > longer {
		longer = len(rb)
	}
	start := d - width/3
	if longer < start+width {
		start = longer - width
	}
	if start < 1 {
		start = 1
	}
	window := func(r []rune) string {
		if start+width < len(r) {
			return "…" + string(r[start:start+width]) + "…"
		}
		return "…" + string(r[start:])
	}
	return window(ra), window(rb)
}

// secretPath reports whether a path names a Secret's data, whose values are never printed
// in findings.
func secretPath(w Write, p string) bool {
	if w.Kind != "Secret" || w.APIVersion != "v1" {
		return false
	}
	for _, s := range []string{".data", ".stringData", ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"} {
		if p == s || strings.HasPrefix(p, s+".") {
			return true
		}
	}
	return false
}

func jsonCompact(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
