package report

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/ssa-diff/ssa-diff/judge"
)

// The categories of findings, and the values of --fail-on (conflicts is the plural of the
// conflict category).
const (
	// CategoryRejected: the server would refuse the apply.
	CategoryRejected = "rejected"
	// CategoryConflict: a field another manager owns with another value; refused without
	// force, taken with it.
	CategoryConflict = "conflict"
	// CategoryTakeover: fields the applier takes from another manager (by force, or by
	// merging that manager's entry into its own, as kubectl, Argo CD and Flux do).
	CategoryTakeover = "takeover"
	// CategoryDeletion: fields the apply deletes because nobody owns them any more, or the
	// whole object deleted and created again.
	CategoryDeletion = "deletion"
	// CategoryProtected: a takeover from a manager the policy protects; it always fails.
	CategoryProtected = "protected"
	// CategoryError: ssa-diff could not predict; it always fails (exit 2).
	CategoryError = "error"
	// CategoryWarning: something the user should know; it never fails.
	CategoryWarning = "warning"
	// CategoryPrune: a live object the applier deletes because the repository no longer
	// names it.
	CategoryPrune = "prune"
	// CategoryApproximate: the prediction rests on something ssa-diff could not see (a
	// deduced schema, an OpenAPI v2 document, a version conversion, an admission webhook);
	// Finding.Reason says which.
	CategoryApproximate = "approximate"
	// CategoryPolicy: an admission policy or PodSecurity refuses the write (a rejected
	// finding, which --fail-on policy fails on too) or warns about it (a policy finding).
	CategoryPolicy = "policy"
)

// The levels of findings.
const (
	// LevelFailure findings decide the exit status.
	LevelFailure = "failure"
	// LevelWarning findings are worth a look.
	LevelWarning = "warning"
	// LevelNotice findings are expected (a takeover the policy allows).
	LevelNotice = "notice"
)

// ExitPolicy is the exit status of a run where a policy fails that is not about
// rejections: a --fail-on category other than rejected, or a takeover from a protected
// manager.
const ExitPolicy = 4

// FailOnValues are the values --fail-on accepts, besides "none" and "all".
var FailOnValues = []string{"conflicts", CategoryTakeover, CategoryDeletion, CategoryRejected, CategoryPrune, CategoryApproximate, CategoryPolicy}

// Policy decides which findings fail the run.
type Policy struct {
	// FailOn lists the categories that fail: conflicts, takeover, deletion, rejected, prune,
	// approximate.
	FailOn []string `json:"failOn"`
	// AllowTakeoverFrom are globs (path.Match) of managers whose fields the applier may take:
	// takeovers from them, and forced conflicts with them, never fail.
	AllowTakeoverFrom []string `json:"allowTakeoverFrom,omitempty"`
	// Protect are globs of managers (controllers) nobody may take fields from: any takeover
	// from them fails.
	Protect []string `json:"protect,omitempty"`
	// Ignore hides fields and managers from the findings (--ignore-path, --ignore-manager,
	// an Argo CD Application's ignoreDifferences …): see Policy.hide. The report records
	// its rules (absent when none), which `ssa-diff merge` reads back.
	Ignore *judge.Ignore `json:"ignore,omitempty"`
}

// DefaultPolicy fails on rejections only: the exit statuses of a plain run.
func DefaultPolicy() Policy { return Policy{FailOn: []string{CategoryRejected}} }

// ParseFailOn reads --fail-on values: comma-separated categories, "none" or "all".
func ParseFailOn(values []string) ([]string, error) {
	set := map[string]bool{}
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			s = strings.TrimSpace(s)
			switch s {
			case "":
			case "none":
				set = map[string]bool{}
			case "all":
				for _, c := range FailOnValues {
					set[c] = true
				}
			case "conflict":
				set["conflicts"] = true
			case "takeovers", "deletions", "prunes":
				set[strings.TrimSuffix(s, "s")] = true
			case "approximations", "approximation":
				set[CategoryApproximate] = true
			case "policies":
				set[CategoryPolicy] = true
			default:
				known := false
				for _, c := range FailOnValues {
					known = known || c == s
				}
				if !known {
					return nil, fmt.Errorf("unknown --fail-on value %q (want %s, none or all)", s, strings.Join(FailOnValues, ", "))
				}
				set[s] = true
			}
		}
	}
	out := []string{}
	for _, c := range FailOnValues {
		if set[c] {
			out = append(out, c)
		}
	}
	return out, nil
}

// CheckGlobs reports the first malformed glob.
func CheckGlobs(globs []string) error {
	for _, g := range globs {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("bad pattern %q: %w", g, err)
		}
	}
	return nil
}

func (p Policy) fails(category string) bool {
	if category == CategoryConflict {
		category = "conflicts"
	}
	for _, c := range p.FailOn {
		if c == category {
			return true
		}
	}
	return false
}

func matchAny(globs []string, manager string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, manager); ok {
			return true
		}
	}
	return false
}

// Allowed reports whether the policy lets the applier take fields from manager.
func (p Policy) Allowed(manager string) bool { return matchAny(p.AllowTakeoverFrom, manager) }

// Protected reports whether the policy protects manager's fields.
func (p Policy) Protected(manager string) bool { return matchAny(p.Protect, manager) }

// Finding is one thing about a result that a policy judges: a conflict, a takeover, a
// deletion, a refusal, a failure to predict, a warning.
type Finding struct {
	Category string `json:"category"`
	// Level is failure (it decides the exit status), warning or notice.
	Level string `json:"level"`
	// Manager is the manager that owns the conflicting fields or loses fields.
	Manager string `json:"manager,omitempty"`
	// Reason says, for an approximate finding, what the prediction could not see:
	// no-schema, openapi-v2, version-conversion or webhook.
	Reason string `json:"reason,omitempty"`
	// Paths are the fields concerned, printed as the server prints them.
	Paths   []string `json:"paths,omitempty"`
	Message string   `json:"message"`
	// File is the file the finding's line is in, when it is not the result's source file:
	// a kustomize patch that sets the field.
	File string `json:"file,omitempty"`
	// Line is the line of the manifest the finding is about: of its first field when the
	// manifest has it (else of the closest enclosing field it has), else of the object.
	Line int `json:"line,omitempty"`
}

// Fails reports whether the finding decides the exit status.
func (f Finding) Fails() bool { return f.Level == LevelFailure }

// maxPathsInMessage is how many fields a finding's message names before counting the rest.
const maxPathsInMessage = 3

func listPaths(paths []string) string {
	if len(paths) <= maxPathsInMessage {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:maxPathsInMessage], ", ") + fmt.Sprintf(" and %d more", len(paths)-maxPathsInMessage)
}

// Evaluate judges a result: the findings in the order refusal, conflicts, takeovers,
// deletions, warnings. line gives the manifest line of a field path (nil: the object's
// line is used). The result's applier is the manager the apply was made as.
func (p Policy) Evaluate(res *Result, applier string, line func(path string) int) []Finding {
	var locate func(string) (string, int)
	if line != nil {
		locate = func(path string) (string, int) { return "", line(path) }
	}
	return p.EvaluateAt(res, applier, locate)
}

// EvaluateAt is Evaluate with locate giving the file and line of a field path: a field of
// a rendered object may be written in another file than the object (a kustomize patch).
func (p Policy) EvaluateAt(res *Result, applier string, locate func(path string) (file string, line int)) []Finding {
	out := []Finding{}
	at := func(f Finding, paths ...string) Finding {
		f.Line = res.Source.Line
		if locate != nil && len(paths) > 0 {
			if file, l := locate(paths[0]); l > 0 {
				f.Line = l
				if file != res.Source.File {
					f.File = file
				}
			}
		}
		return f
	}
	level := func(category string) string {
		if p.fails(category) {
			return LevelFailure
		}
		return LevelWarning
	}
	switch res.Action {
	case ActionError:
		msg := "ssa-diff could not predict this object"
		l := res.Source.Line
		if res.Error != nil {
			msg = res.Error.Message
			if res.Error.Line > 0 {
				l = res.Error.Line
			}
		}
		out = append(out, Finding{Category: CategoryError, Level: LevelFailure, Message: msg, Line: l})
	case ActionRejected:
		msg := "the server would refuse the apply"
		if e := res.Error; e != nil {
			reason := e.Reason
			if reason != "" {
				reason = " " + reason
			}
			msg = fmt.Sprintf("the server would refuse the apply (%d%s): %s", e.Code, reason, e.Message)
		}
		f := Finding{Category: CategoryRejected, Level: level(CategoryRejected), Message: msg}
		if e := res.Error; e != nil && PolicyPlugin(e.Admission) && p.fails(CategoryPolicy) {
			f.Level = LevelFailure // denied by policy
		}
		if e := res.Error; e != nil && len(e.Fields) > 0 {
			// At the first field the refusal names.
			for _, fe := range e.Fields {
				f.Paths = append(f.Paths, fe.Path)
				if fe.DidYouMean != "" {
					f.Message += fmt.Sprintf(" (%s: did you mean %s?)", fe.Path, fe.DidYouMean)
				}
			}
			out = append(out, at(f, f.Paths...))
		} else {
			f.Line = res.Source.Line
			out = append(out, f)
		}
	case ActionPrune:
		msg := "the applier deletes this live object: the repository no longer names it"
		if res.Prune != nil {
			msg = res.Prune.Message
		}
		out = append(out, Finding{Category: CategoryPrune, Level: level(CategoryPrune), Message: msg, Line: res.Source.Line})
	}
	forced := res.Action != ActionRejected
	for _, c := range res.Conflicts {
		f := at(Finding{Category: CategoryConflict, Manager: c.Manager.Manager, Paths: []string{c.Path}}, c.Path)
		live, applied := shortValues(c.Live, c.Applied)
		values := fmt.Sprintf("live %s, applied %s", live, applied)
		if secretPath(res, c.Path) {
			values = "values hidden: a Secret's data"
		}
		if forced {
			f.Message = fmt.Sprintf("forced: %s is taken from %s (%s)", c.Path, c.Manager.Describe(), values)
			f.Level = level(CategoryConflict)
			if p.Allowed(c.Manager.Manager) {
				f.Level = LevelNotice
			}
		} else {
			f.Message = fmt.Sprintf("conflict with %s: %s (%s)", c.Owner, c.Path, values)
			f.Level = level(CategoryConflict)
		}
		out = append(out, f)
	}
	for _, o := range res.Ownership {
		if len(o.Taken) == 0 {
			continue
		}
		f := at(Finding{Category: CategoryTakeover, Manager: o.Manager.Manager, Paths: o.Taken}, o.Taken...)
		what := fmt.Sprintf("%d field%s", len(o.Taken), plural(len(o.Taken)))
		f.Message = fmt.Sprintf("takes %s from %s: %s", what, o.Manager.Describe(), listPaths(o.Taken))
		if o.Removed {
			f.Message += " (its managedFields entry is removed)"
		}
		switch {
		case p.Protected(o.Manager.Manager):
			f.Category, f.Level = CategoryProtected, LevelFailure
			f.Message = fmt.Sprintf("takes %s from %s, which --protect protects: %s", what, o.Manager.Describe(), listPaths(o.Taken))
			if o.Removed {
				f.Message += " (its managedFields entry is removed)"
			}
		case o.Manager.Manager == applier || p.Allowed(o.Manager.Manager):
			f.Level = LevelNotice
		default:
			f.Level = level(CategoryTakeover)
		}
		out = append(out, f)
	}
	if len(res.Deleted) > 0 {
		out = append(out, at(Finding{Category: CategoryDeletion, Level: level(CategoryDeletion), Paths: res.Deleted,
			Message: fmt.Sprintf("deletes %d field%s nobody else owns: %s", len(res.Deleted), plural(len(res.Deleted)), listPaths(res.Deleted))}, res.Deleted...))
	}
	for _, s := range res.Steps {
		if strings.HasPrefix(s.Description, "delete") {
			out = append(out, Finding{Category: CategoryDeletion, Level: level(CategoryDeletion), Line: res.Source.Line,
				Message: "the object is deleted and created again (" + s.Description + "): every other manager's fields are lost"})
			break
		}
	}
	approx := map[string]bool{}
	for _, a := range res.Approximations {
		approx[a.Message] = true
		out = append(out, Finding{Category: CategoryApproximate, Reason: a.Reason, Level: level(CategoryApproximate), Message: a.Message, Line: res.Source.Line})
	}
	for _, w := range res.Warnings {
		if approx[w] {
			continue // the approximation says it
		}
		if PolicyWarning(w) {
			out = append(out, Finding{Category: CategoryPolicy, Level: level(CategoryPolicy), Message: w, Line: res.Source.Line})
			continue
		}
		out = append(out, Finding{Category: CategoryWarning, Level: LevelWarning, Message: w, Line: res.Source.Line})
	}
	p.hide(res, out)
	return out
}

// ignoredNote ends the message of a finding the ignore rules make a notice.
const ignoredNote = " (ignored: --ignore-path/--ignore-manager)"

// hide makes notices of the findings the ignore rules cover: a forced conflict, a takeover
// or a deletion whose every field is hidden, or whose manager is ignored. A refusal stays
// what it is — the server refuses a conflict whoever owns the field — and so do the
// conflicts of a refused apply and takeovers from a --protect manager.
func (p Policy) hide(res *Result, out []Finding) {
	oi := p.Ignore.For(res.APIVersion, res.Kind, res.Namespace, res.Name, res.Live, res.Object)
	if oi == nil {
		return
	}
	for i := range out {
		f := &out[i]
		switch f.Category {
		case CategoryConflict:
			if res.Action == ActionRejected {
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
				covered = covered && oi.Covers(path, res.Live, res.Object)
			}
		}
		if covered {
			f.Level = LevelNotice
			f.Message += ignoredNote
		}
	}
}

// PolicyPlugin reports the admission plugins whose refusals are a policy's: the
// admission policies and PodSecurity (Error.Admission).
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
func secretPath(res *Result, p string) bool {
	if res.Kind != "Secret" || res.APIVersion != "v1" {
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
