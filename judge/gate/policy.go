package gate

import (
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
	// an Argo CD Application's ignoreDifferences …): see Policy.hide. A report records
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
